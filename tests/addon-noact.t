#!/bin/sh
# dh_auto_install --no-act through the add-on's wrapper: it says what it
# would run, debhelper's install and dh_extras_unprefix alike, and runs
# neither.

. "$TOP/tests/lib.sh"

AUTO=${DH_EXTRAS_AUTODIR:-/usr/share/dh-extras/auto}

test_expect_success 'a package with a Makefile, and a dh_extras_unprefix that logs its runs' '
	mkdir -p pkg/debian wrap &&
	printf "all:\n\ninstall:\n\tmkdir -p \$(DESTDIR)/usr/share/noact\n\ttouch \$(DESTDIR)/usr/share/noact/file\n" >pkg/Makefile &&
	printf "%s\n" "Source: noact" "Maintainer: A <a@example.org>" \
		"Build-Depends: debhelper-compat (= 13)" "" "Package: noact" \
		"Architecture: all" "Description: no act" " Nothing." >pkg/debian/control &&
	printf "%s\n" "noact (1.0) unstable; urgency=medium" "" "  * New." "" \
		" -- A <a@example.org>  Mon, 01 Jan 2024 00:00:00 +0000" >pkg/debian/changelog &&
	cat >wrap/dh_extras_unprefix <<-EOS &&
	#!/bin/sh
	echo "\$*" >>"$TRASH/unprefix.log"
	EOS
	chmod +x wrap/dh_extras_unprefix
'

test_expect_success 'dh_auto_install --no-act runs neither the install nor dh_extras_unprefix' '
	(cd pkg && PATH="$AUTO:$TRASH/wrap:$PATH" dh_auto_install --no-act) >noact.out 2>&1 &&
	test ! -e unprefix.log &&
	test ! -e pkg/debian/noact &&
	grep_q "make.* install DESTDIR=" noact.out &&
	grep_q "^	dh_extras_unprefix -pnoact$" noact.out
'

test_expect_success 'without it, both run' '
	(cd pkg && PATH="$AUTO:$TRASH/wrap:$PATH" dh_auto_install) >act.out 2>&1 &&
	test -f pkg/debian/noact/usr/share/noact/file &&
	grep_q "^-pnoact$" unprefix.log
'

test_done
