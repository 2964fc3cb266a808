#!/bin/sh
# extras-convert on a format 1.0 .dsc with an orig tarball and a .diff.gz:
# dpkg-source applies the diff and builds the new one; the result is
# reproducible and equals the in-place conversion, and a hostile diff is
# refused with nothing left behind.
. "$TOP/tests/lib.sh"
. "$TOP/tests/convert-fixture.sh"

# hostile MESSAGE: refused with MESSAGE on one line, exit 2, OUTDIR never
# created, nothing new anywhere in the trash directory.
hostile () {
	: >err && : >before && : >after &&
	find "$TRASH" | sort >before &&
	expect_status 2 extras-convert -o "$TRASH/hostile-out" greet_1.0-1.dsc 2>err &&
	grep_q "^extras-convert: error: .*$1" err &&
	test "$(wc -l <err)" -eq 1 &&
	test ! -e "$TRASH/hostile-out" &&
	find "$TRASH" | sort >after &&
	diff before after
}

# The upload: an orig tarball without debian/, and a diff adding it.
test_setup 'the fixture as a 1.0 source' make_fixture good "1.0"
mkdir src && cp -a good src/greet-1.0 && rm src/greet-1.0/debian/source/format &&
tar -C src --exclude=greet-1.0/debian -czf src/greet_1.0.orig.tar.gz greet-1.0 &&
(cd src && dpkg-source -b greet-1.0 >/dev/null 2>&1) || exit 1

test_expect_success 'a 1.0 source package with a .diff.gz is converted' '
	ls src/greet_1.0-1.diff.gz &&
	extras-convert --privileges x11 -o out src/greet_1.0-1.dsc >log &&
	grep_q "extras-greet 1.0-1 converted" log &&
	ls -A out >actual &&
	printf "%s\n" extras-greet_1.0-1.diff.gz extras-greet_1.0-1.dsc \
		extras-greet_1.0.orig.tar.gz >expect &&
	diff -u expect actual
'

test_expect_success 'the upstream tarball is reused byte for byte' '
	cmp src/greet_1.0.orig.tar.gz out/extras-greet_1.0.orig.tar.gz
'

test_expect_success 'the new .dsc is format 1.0, unsigned and renamed' '
	grep_q "^Format: 1.0$" out/extras-greet_1.0-1.dsc &&
	grep_q "^Source: extras-greet$" out/extras-greet_1.0-1.dsc &&
	grep_q "^Binary: extras-greet, extras-greet-data$" out/extras-greet_1.0-1.dsc &&
	grep_q "^Build-Depends: debhelper-compat (= 13), dh-sequence-extras$" out/extras-greet_1.0-1.dsc &&
	grep_q " extras-greet_1.0-1.diff.gz$" out/extras-greet_1.0-1.dsc &&
	! grep -q "BEGIN PGP" out/extras-greet_1.0-1.dsc
'

test_expect_success 'dpkg-source -x accepts it, and it equals the in-place conversion' '
	dpkg-source -x out/extras-greet_1.0-1.dsc from-dsc >/dev/null 2>&1 &&
	dpkg-source -x src/greet_1.0-1.dsc in-place >/dev/null 2>&1 &&
	extras-convert -q --privileges x11 in-place &&
	diff -r in-place from-dsc
'

test_expect_success 'the same input gives byte-identical output' '
	sleep 1 &&
	extras-convert -q --privileges x11 -o out2 src/greet_1.0-1.dsc &&
	for f in out/*; do cmp "$f" "out2/${f#out/}" || exit 1; done &&
	test "$(ls -A out2 | wc -l)" -eq 3
'

test_expect_success 'debian/source/format asking for another format stays 1.0' '
	mkdir fmt && cp -a good fmt/greet-1.0 &&
	echo "3.0 (quilt)" >fmt/greet-1.0/debian/source/format &&
	cp src/greet_1.0.orig.tar.gz fmt/ &&
	(cd fmt && dpkg-source --format=1.0 -b greet-1.0 >/dev/null 2>&1) &&
	extras-convert -q -o fout fmt/greet_1.0-1.dsc &&
	grep_q "^Format: 1.0$" fout/extras-greet_1.0-1.dsc &&
	ls fout/extras-greet_1.0-1.diff.gz
'

# The corpus lives in its own directory, so that "nothing new" is easy to see.
mkdir -p "$TRASH/h" && cp src/greet_1.0.orig.tar.gz src/greet_1.0-1.diff.gz "$TRASH/h/" &&
cd "$TRASH/h" && zcat greet_1.0-1.diff.gz >good.diff || exit 1

# evil_diff FROM TO: the good diff plus a hunk creating the file FROM/TO.
evil_diff () {
	{
		cat good.diff &&
		printf -- "--- %s\n+++ %s\n@@ -0,0 +1 @@\n+evil\n" "$1" "$2"
	} | gzip -n >greet_1.0-1.diff.gz &&
	write_dsc greet 1.0-1 1.0 greet_1.0.orig.tar.gz greet_1.0-1.diff.gz
}

test_expect_success 'refused: a diff climbing out of the tree' '
	evil_diff greet-1.0.orig/../outside greet-1.0/../outside &&
	hostile "dpkg-source -x failed: .*\\.\\." &&
	test ! -e "$TRASH/outside"
'
# dpkg-source strips the first component of every name, as patch -p1:
# an absolute name lands inside the tree, never outside.
test_expect_success 'a diff to an absolute path stays inside the tree' '
	evil_diff /tmp/dh-extras-evil /tmp/dh-extras-evil &&
	extras-convert -q -o abs-out greet_1.0-1.dsc &&
	test ! -e /tmp/dh-extras-evil &&
	dpkg-source -x abs-out/extras-greet_1.0-1.dsc abs >/dev/null 2>&1 &&
	test "$(cat abs/tmp/dh-extras-evil)" = evil &&
	rm -r abs-out abs
'
test_expect_success 'dpkg-source options a diff adds are dropped from the converted source' '
	evil_diff greet-1.0.orig/debian/source/options greet-1.0/debian/source/options &&
	extras-convert -o opt-out greet_1.0-1.dsc >out 2>&1 &&
	grep_q "^debian/source/options: dropped: dpkg-source options steer only" out &&
	dpkg-source -x opt-out/extras-greet_1.0-1.dsc opt >/dev/null 2>&1 &&
	test -f opt/debian/control && test ! -e opt/debian/source/options &&
	rm -r opt-out opt out
'
test_expect_success 'refused: an orig tarball with an absolute member' '
	evil_diff greet-1.0.orig/README greet-1.0/README &&
	mkdir x && echo evil >x/evil && tar -C x -czf greet_1.0.orig.tar.gz -P --transform "s|^|/tmp/|" evil && rm -r x &&
	write_dsc greet 1.0-1 1.0 greet_1.0.orig.tar.gz greet_1.0-1.diff.gz &&
	hostile "has an absolute name"
'
test_expect_success 'refused: a .dsc with two diffs' '
	cp ../src/greet_1.0.orig.tar.gz ../src/greet_1.0-1.diff.gz . &&
	write_dsc greet 1.0-1 1.0 greet_1.0.orig.tar.gz greet_1.0-1.diff.gz &&
	sed -i "/^ .* greet_1.0-1.diff.gz$/{p}" greet_1.0-1.dsc &&
	hostile ".greet_1.0-1.diff.gz. is listed twice"
'

test_done
