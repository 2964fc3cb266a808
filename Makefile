# dh-extras: build, test, install, demo, bench.
#
# Every rewriter/*/*.c goes into librewriter.a; every dh-extras/*.c is one
# command linked against it; every tests/t-*.c is a TAP unit test and every
# tests/*.t a shell test.  New files need no Makefile change.

PACKAGE   = dh-extras
VERSION  := $(shell dpkg-parsechangelog -l debian/changelog -S Version 2>/dev/null || echo 0)
PREFIX   ?= /usr/local
BINDIR    = $(PREFIX)/bin
DATADIR   = $(PREFIX)/share/dh-extras
MANDIR    = $(PREFIX)/share/man
PERLDIR  ?= $(PREFIX)/share/perl5

CC       ?= gcc
# By default the flags a Debian package build uses, so that -Werror meets
# here what it meets in dpkg-buildpackage (_FORTIFY_SOURCE's unused results).
ifeq ($(origin CFLAGS),undefined)
CFLAGS   := $(shell dpkg-buildflags --get CFLAGS 2>/dev/null || echo -O2 -g)
endif
ifeq ($(origin CPPFLAGS),undefined)
CPPFLAGS := $(shell dpkg-buildflags --get CPPFLAGS 2>/dev/null)
endif
ifeq ($(origin LDFLAGS),undefined)
LDFLAGS  := $(shell dpkg-buildflags --get LDFLAGS 2>/dev/null)
endif
PKGS      = libdpkg libarchive libpcre2-8 yaml-0.1 json-c libdeflate libmd sqlite3 libpq \
            zlib liblzma libzstd liblz4 \
            libxml-2.0
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
# libdpkg exists only as a static library: it needs its private libraries.
PKG_LIBS   := $(shell pkg-config --static --libs libdpkg) \
	$(shell pkg-config --libs $(filter-out libdpkg,$(PKGS)))

ifeq ($(SANITIZE),1)
O        ?= build/sanitize
SAN       = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else
O        ?= build
SAN       =
endif

ALL_CPPFLAGS = -D_GNU_SOURCE -DLIBDPKG_VOLATILE_API \
	-DDH_EXTRAS_DATADIR='"$(DATADIR)"' -DDH_EXTRAS_VERSION='"$(VERSION)"' \
	-Irewriter -I$(O)/gen $(PKG_CFLAGS) $(CPPFLAGS)
ALL_CFLAGS   = -std=c11 -Wall -Wextra -Werror -pthread -MMD -MP $(CFLAGS) $(SAN)
ALL_LDFLAGS  = -pthread -Wl,--as-needed $(LDFLAGS) $(SAN)

LIB_SRCS  = $(sort $(wildcard rewriter/*/*.c))
LIB_OBJS  = $(LIB_SRCS:%.c=$(O)/%.o)
LIB       = $(O)/librewriter.a
CMD_SRCS  = $(sort $(wildcard dh-extras/*.c))
CMDS      = $(CMD_SRCS:dh-extras/%.c=$(O)/bin/%)
TEST_SRCS = $(sort $(wildcard tests/t-*.c))
TESTS_C   = $(TEST_SRCS:tests/%.c=$(O)/tests/%)
TESTS_SH  = $(sort $(wildcard tests/*.t))
# A command's manual is dh-extras/COMMAND.pod (section 1); a page of no
# single command is dh-extras/NAME.SECTION.pod (the add-on, the file format).
PODS      = $(sort $(wildcard dh-extras/*.pod))
PAGE_PODS = $(filter dh-extras/%.5.pod dh-extras/%.7.pod,$(PODS))
CMD_PODS  = $(filter-out $(PAGE_PODS),$(PODS))
MANS      = $(CMD_PODS:dh-extras/%.pod=$(O)/man/%.1) \
	$(PAGE_PODS:dh-extras/%.pod=$(O)/man/%)

all: $(CMDS) $(MANS)

$(O)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# A command's --help is its manual's SYNOPSIS and OPTIONS: the POD is the
# only source of it.
$(O)/gen/%.usage.h: dh-extras/%.pod build-aux/pod2usage-h
	@mkdir -p $(@D)
	perl build-aux/pod2usage-h $< >$@.tmp && mv $@.tmp $@

$(CMD_SRCS:%.c=$(O)/%.o): $(O)/dh-extras/%.o: $(O)/gen/%.usage.h

$(O)/bin/%: $(O)/dh-extras/%.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(LIB) $(PKG_LIBS)

$(O)/tests/%: $(O)/tests/%.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(LIB) $(PKG_LIBS)

$(O)/man/%.1: dh-extras/%.pod
	@mkdir -p $(@D)
	pod2man --utf8 --section=1 --center='dh-extras' --release='$(VERSION)' \
		--name='$*' $< $@

$(O)/man/%.5: dh-extras/%.5.pod
	@mkdir -p $(@D)
	pod2man --utf8 --section=5 --center='dh-extras' --release='$(VERSION)' \
		--name='$*' $< $@

$(O)/man/%.7: dh-extras/%.7.pod
	@mkdir -p $(@D)
	pod2man --utf8 --section=7 --center='dh-extras' --release='$(VERSION)' \
		--name='$*' $< $@

# The environment every test and the demo run in: the uninstalled commands,
# add-on and data.
TEST_ENV = PATH="$(CURDIR)/$(O)/bin:$$PATH" \
	PERL5LIB="$(CURDIR)/dh-extras$${PERL5LIB:+:$$PERL5LIB}" \
	DH_EXTRAS_DATADIR="$(CURDIR)" DH_EXTRAS_AUTODIR="$(CURDIR)/dh-extras/auto" \
	TOP="$(CURDIR)" BUILDDIR="$(CURDIR)/$(O)"

check: all $(TESTS_C)
	$(TEST_ENV) prove --exec "sh $(CURDIR)/tests/run" $(TESTS_C) $(TESTS_SH)

# The integration tests against the installed package (debian/tests/control
# runs them under autopkgtest): the commands on PATH, the add-on from perl's
# own path, the data from INSTALLED_DATADIR; only the tests and their
# fixtures come from this tree.
INSTALLED_DATADIR ?= /usr/share/dh-extras
installcheck:
	env -u PERL5LIB -u DH_EXTRAS_AUTODIR \
		PATH="/usr/sbin:/usr/bin:/sbin:/bin" DH_EXTRAS_DATADIR="$(INSTALLED_DATADIR)" \
		TOP="$(CURDIR)" BUILDDIR="$(CURDIR)/$(O)" \
		prove $(PROVE_OPTS) --exec "sh $(CURDIR)/tests/run" $(TESTS_SH)

# Unit tests only: what the package build runs (no root, no nested builds).
check-unit: all $(TESTS_C)
	$(TEST_ENV) prove --exec "sh $(CURDIR)/tests/run" $(TESTS_C)

demo: all
	$(TEST_ENV) sh tests/demo.sh

bench: all
	$(TEST_ENV) sh bench/run.sh

# Real Debian packages through the whole pipeline (root, network to the
# archive, long): CORPUS=hello,jq selects packages; CONFINED=1 runs the
# smokes again in the AppArmor VM, as an ordinary user, profiles enforced.
corpus: all
	$(TEST_ENV) CORPUS="$(CORPUS)" CONFINED="$(CONFINED)" sh tests/corpus/run.sh

# A build daemon's path (root or subuids, network to the archive, ~6 min):
# this tree's .deb, then sbuild in a clean buildd chroot on converted
# fixtures and a real archive package (tests/sbuild/sbuild.t).
check-sbuild: all
	$(TEST_ENV) prove -v --exec "sh $(CURDIR)/tests/run" tests/sbuild/sbuild.t

# The store's pipeline (extras-store): signed uploads from two uploaders
# accepted or refused, built with the local builder, published with
# reprepro, against SQLite and PostgreSQL (~2 minutes).
check-store: all
	$(TEST_ENV) prove -v --exec "sh $(CURDIR)/tests/run" $(sort $(wildcard tests/store/*.t))

# The AppArmor profiles on a real AppArmor kernel, in a qemu VM (root,
# the archive, ~10 minutes the first time, then ~4): the image is kept in
# VM_DIR, outside the repository.
VM_DIR   ?= /var/tmp/dh-extras-vm
check-confinement: all
	$(TEST_ENV) VM_DIR="$(VM_DIR)" sh tests/confinement/run

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7 \
		$(DESTDIR)$(DATADIR)/templates \
		$(DESTDIR)$(PERLDIR)/Debian/Debhelper/Sequence \
		$(DESTDIR)$(PERLDIR)/DhExtras
	install -m 755 $(CMDS) $(DESTDIR)$(BINDIR)
	install -d $(DESTDIR)$(PREFIX)/share/lintian/profiles/dh-extras
	install -m 644 lintian/profiles/dh-extras/*.profile \
		$(DESTDIR)$(PREFIX)/share/lintian/profiles/dh-extras
	install -m 644 $(filter %.1,$(MANS)) $(DESTDIR)$(MANDIR)/man1
	install -m 644 $(filter %.5,$(MANS)) $(DESTDIR)$(MANDIR)/man5
	install -m 644 $(filter %.7,$(MANS)) $(DESTDIR)$(MANDIR)/man7
	cp -R --no-preserve=ownership templates/. $(DESTDIR)$(DATADIR)/templates
	install -d $(DESTDIR)$(DATADIR)/auto
	cp -P dh-extras/auto/* $(DESTDIR)$(DATADIR)/auto
	sed 's,/usr/share/dh-extras/auto,$(DATADIR)/auto,' \
		dh-extras/Debian/Debhelper/Sequence/extras.pm \
		>$(DESTDIR)$(PERLDIR)/Debian/Debhelper/Sequence/extras.pm
	sed "s,'/usr/share/dh-extras','$(DATADIR)'," \
		dh-extras/DhExtras/AddonData.pm \
		>$(DESTDIR)$(PERLDIR)/DhExtras/AddonData.pm

# Fuzzing with clang's libFuzzer under ASan and UBSan: every
# tests/fuzz/fuzz-NAME.c is one harness over one parser of hostile input,
# linked against an instrumented copy of the library in $(FUZZ_O).  "make
# fuzz" runs each for FUZZ_TIME seconds (FUZZERS=declaration,deb822 picks
# some); "make fuzz-smoke" replays tests/fuzz/crashes/ and runs each over its
# seeds once, unmutated: deterministic, for CI.
FUZZ_CC    ?= clang
FUZZ_TIME  ?= 60
FUZZ_O      = build/fuzz
FUZZ_SAN    = -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
FUZZ_CFLAGS = -std=c11 -Wall -Wextra -Werror -pthread -MMD -MP -O1 -g \
	$(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_SRCS   = $(sort $(wildcard tests/fuzz/fuzz-*.c))
FUZZ_BINS   = $(FUZZ_SRCS:tests/fuzz/%.c=$(FUZZ_O)/bin/%)
FUZZ_LIB    = $(FUZZ_O)/librewriter.a

$(FUZZ_O)/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(ALL_CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_LIB): $(LIB_SRCS:%.c=$(FUZZ_O)/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

$(FUZZ_O)/bin/%: $(FUZZ_O)/tests/fuzz/%.o $(FUZZ_LIB)
	@mkdir -p $(@D)
	$(FUZZ_CC) -pthread $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $< \
		$(FUZZ_LIB) $(PKG_LIBS)

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	$(TEST_ENV) FUZZ_O="$(CURDIR)/$(FUZZ_O)" sh tests/fuzz/run.sh \
		$(FUZZ_TIME) $(FUZZERS)

fuzz-smoke: fuzz-build
	$(TEST_ENV) FUZZ_O="$(CURDIR)/$(FUZZ_O)" sh tests/fuzz/run.sh \
		--replay 0 $(FUZZERS)

clean:
	rm -rf build

.PHONY: all check check-unit check-sbuild check-store check-confinement installcheck demo bench \
	corpus install clean fuzz-build fuzz fuzz-smoke
.SECONDARY:

# Each object depends on the headers it includes (-MMD -MP).
-include $(LIB_OBJS:.o=.d) $(CMD_SRCS:%.c=$(O)/%.d) $(TEST_SRCS:%.c=$(O)/%.d)
-include $(wildcard $(FUZZ_O)/rewriter/*/*.d $(FUZZ_O)/tests/fuzz/*.d)
