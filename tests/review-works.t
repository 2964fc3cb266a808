#!/bin/sh
# The gate's functional rule ("works"): what a user starts the app by and
# sees of it is there.  Each case is the good package of review-lib.sh
# with one thing the desktop would not find; extras-review and
# dh_extras_check both refuse it, saying what to write instead, and
# accept the same package done right.

. "$TOP/tests/lib.sh"
. "$TOP/tests/review-lib.sh"

mkdir -p bad src

# desktop TREE LINE...: the exported .desktop file with these lines.
desktop () {
	t=$1; shift &&
	{ echo "[Desktop Entry]" && echo "Type=Application" && echo "Name=Demo" &&
	  for line; do echo "$line" || return 1; done
	} >"$t/usr/share/applications/extras-demo.desktop"
}

# icon TREE NAME: NAME exported as a scalable application icon.
icon () {
	mkdir -p "$1/usr/share/icons/hicolor/scalable/apps" &&
	echo "<svg/>" >"$1/usr/share/icons/hicolor/scalable/apps/$2.svg"
}

# builder TREE ICON: a GtkBuilder file whose window names icon ICON.
builder () {
	cat >"$1/$NS/share/demo/demo.ui" <<-EOF
	<?xml version="1.0" encoding="UTF-8"?>
	<interface>
	  <object class="GtkWindow" id="main">
	    <property name="title" translatable="yes">Demo</property>
	    <property name="icon-name">$2</property>
	    <child>
	      <object class="GtkButton">
	        <property name="icon_name">document-open</property>
	      </object>
	    </child>
	  </object>
	</interface>
	EOF
}

# translated TREE LOCALEDIR: a French catalogue in the namespace, and a
# Python program binding its domain to LOCALEDIR.
translated () {
	mkdir -p "$1/$NS/share/locale/fr/LC_MESSAGES" &&
	echo mo >"$1/$NS/share/locale/fr/LC_MESSAGES/demo.mo" &&
	cat >"$1/$NS/bin/demo" <<-EOF &&
	#!/usr/bin/python3
	import gettext
	LOCALEDIR = '$2'
	gettext.install('demo', LOCALEDIR)
	print(_('Hello'))
	EOF
	chmod 755 "$1/$NS/bin/demo"
}

# cprogram TREE BIND: the program, in C, sets its text domain,
# binding it first to the namespace's catalogues when BIND is "bind".
cprogram () {
	if [ "$2" = bind ]; then
		bind="bindtextdomain(\"demo\", \"/$NS/share/locale\");"
	else
		bind=
	fi &&
	printf "%s\n" "#include <libintl.h>" "#include <locale.h>" \
		"#include <stdio.h>" "int main(void) {" \
		"	setlocale(LC_ALL, \"\"); $bind textdomain(\"demo\");" \
		"	puts(gettext(\"Hello\")); return 0; }" >"$1.c" &&
	cc -o "$1/$NS/bin/demo" "$1.c"
}

test_expect_success 'done right: exported icon, standard icons, programs by path or on PATH' '
	t=$(case_tree right) &&
	desktop $t "Exec=/$NS/bin/demo %U" "TryExec=/$NS/bin/demo" \
		"Icon=extras-demo" "Icon[fr]=document-open-symbolic" "Icon[de]=extras-demo.svg" \
		"[Desktop Action shell]" "Exec=env LANG=C /$NS/bin/demo --shell" &&
	icon $t extras-demo && builder $t extras-demo &&
	translated $t "/$NS/share/locale" &&
	build $t right.deb && extras-review right.deb >out &&
	grep_q " accepted$" out &&
	source_tree $t src/right && (cd src/right && dh_extras_check)
'

test_expect_success 'Exec= naming the namespace program by its bare name' '
	t=$(case_tree exec-bare) && desktop $t "Exec=demo %f" &&
	refused exec-bare 1 "export: usr/share/applications/extras-demo.desktop: line 4: Exec=demo: the program is /$NS/bin/demo, which is not on PATH: write Exec=/$NS/bin/demo"
'

test_expect_success 'TryExec= naming a program nobody installs' '
	t=$(case_tree exec-none) && desktop $t "Exec=/$NS/bin/demo" "TryExec=demo-dropped-alternative" &&
	refused exec-none 1 "works: .*line 5: TryExec=demo-dropped-alternative: no such program in the upload nor on PATH"
'

test_expect_success 'Exec= and TryExec= naming a namespace path the upload does not install' '
	t=$(case_tree exec-gone) && desktop $t "TryExec=/$NS/bin/gone" &&
	refused exec-gone 1 "works: .*line 4: TryExec=/$NS/bin/gone: the upload installs no such program"
'

test_expect_success 'Exec= through /usr/bin/env with variables: the program after them' '
	t=$(case_tree exec-env) &&
	desktop $t "Exec=/usr/bin/env GSETTINGS_SCHEMA_DIR=/$NS/share/glib-2.0/schemas /$NS/bin/gone" &&
	refused exec-env 1 "works: .*line 4: Exec=/$NS/bin/gone: the upload installs no such program"
'

test_expect_success 'Exec= through a link to a file that is not executable' '
	t=$(case_tree exec-mode) && ln -s ../share/demo/data.txt $t/$NS/bin/data &&
	desktop $t "Exec=/$NS/bin/data" &&
	refused exec-mode 1 "works: .*Exec=/$NS/bin/data: not executable"
'

test_expect_success 'Icon= naming the icon by its old name' '
	t=$(case_tree icon-old) && icon $t extras-demo && desktop $t "Exec=/$NS/bin/demo" "Icon=demo" &&
	refused icon-old 1 "works: .*line 5: Icon= .demo. is exported as .extras-demo.: name that"
'

test_expect_success 'Icon= naming an icon nobody exports' '
	t=$(case_tree icon-none) && desktop $t "Exec=/$NS/bin/demo" "Icon=demo-logo" &&
	refused icon-none 1 "works: .*line 5: Icon= .demo-logo.: no such icon exported"
'

test_expect_success 'a GtkBuilder file naming the icon by its old name, with its line' '
	t=$(case_tree ui-icon) && icon $t extras-demo && builder $t demo &&
	refused ui-icon 1 "works: $NS/share/demo/demo.ui: line 5: icon-name .demo. is exported as .extras-demo."
'

test_expect_success 'a GtkBuilder file that is not XML' '
	t=$(case_tree ui-broken) && echo "<interface><object>" >$t/$NS/share/demo/demo.ui &&
	refused ui-broken 1 "works: $NS/share/demo/demo.ui: line [0-9]*: not well-formed XML"
'

test_expect_success 'a D-Bus service naming its program by its bare name' '
	t=$(case_tree dbus) && mkdir -p $t/usr/share/dbus-1/services &&
	printf "[D-BUS Service]\nName=org.example.Demo\nExec=sh\n" \
		>$t/usr/share/dbus-1/services/extras-demo.service &&
	refused dbus 1 "export: .*extras-demo.service: line 3: Exec=sh: D-Bus does not search PATH"
'

test_expect_success 'metainfo launching a .desktop file the upload does not export' '
	t=$(case_tree metainfo) && mkdir -p $t/usr/share/metainfo &&
	cat >$t/usr/share/metainfo/extras-demo.metainfo.xml <<-\EOF &&
	<?xml version="1.0"?>
	<component type="desktop-application">
	  <id>extras-demo</id>
	  <launchable type="desktop-id">demo.desktop</launchable>
	  <icon type="stock">extras-demo</icon>
	</component>
	EOF
	refused metainfo 1 "works: .*line 4: launchable demo.desktop: the upload exports no usr/share/applications/demo.desktop" &&
	grep_q "line 5: stock icon .extras-demo.: no such icon exported" bad/metainfo.out
'

test_expect_success 'translations moved into the namespace, the program looking in /usr/share/locale' '
	t=$(case_tree locale) && translated $t /usr/share/locale &&
	refused locale 1 "works: $NS/bin/demo: line 3: names /usr/share/locale, but the package.s translations (demo.mo) are in /$NS/share/locale"
'

test_expect_success 'a C program that sets its text domain and never binds it (hunspell); one that does' '
	t=$(case_tree textdomain) && translated $t "/$NS/share/locale" &&
	cprogram $t unbound &&
	refused textdomain 1 "works: $NS/bin/demo: calls textdomain() and never bindtextdomain(), so gettext looks in /usr/share/locale, but the package.s translations (demo.mo) are in /$NS/share/locale: bind the text domain there" &&
	t=$(case_tree textdomain-bound) && translated $t "/$NS/share/locale" &&
	cprogram $t bind &&
	build $t textdomain-bound.deb && extras-review textdomain-bound.deb >out &&
	grep_q " accepted$" out
'

# iconprogram TREE SOURCE: a C program, SOURCE its body, that names the
# icon "demo" (exported only as extras-demo) as the toolkit gets it.
iconprogram () {
	printf "%s\n" "#include <stdio.h>" "#include <uchar.h>" "$2" >"$1.c" &&
	cc -O2 -o "$1/$NS/bin/demo" "$1.c"
}

test_expect_success 'an icon name compiled as the tail of a longer string, or in UTF-16' '
	t=$(case_tree icon-tail) && icon $t extras-demo &&
	iconprogram $t "int main(int c, char **v) { (void)v; puts(c > 1 ? \"theme:demo\" : \"demo\"); return 0; }" &&
	! strings -n 4 $t/$NS/bin/demo | grep -qx demo &&
	refused icon-tail 1 "works: $NS/bin/demo: offset [0-9]*: the program looks up the icon .demo., which the upload exports only as .extras-demo." &&
	t=$(case_tree icon-utf16) && icon $t extras-demo &&
	iconprogram $t "static const char16_t n[] = u\"demo\"; int main(void) { return fwrite(n, 2, 4, stdout) != 4; }" &&
	refused icon-utf16 1 "works: $NS/bin/demo: offset [0-9]*: the program looks up the icon .demo." &&
	t=$(case_tree icon-word) && icon $t extras-demo &&
	iconprogram $t "int main(int c, char **v) { (void)v; puts(c > 1 ? \"nodemo\" : \"x\"); return 0; }" &&
	build $t icon-word.deb && extras-review icon-word.deb >out &&
	grep_q " accepted$" out
'

test_expect_success 'a file below /usr/share/locale, or a longer name, is not the directory' '
	t=$(case_tree locale-other) && translated $t /usr/share/locale-langpack &&
	printf "x = \"/usr/share/locale/fr/LC_MESSAGES/libc.mo\"\n" >$t/$NS/share/demo/other.py &&
	build $t locale-other.deb && extras-review locale-other.deb >out &&
	grep_q " accepted$" out
'

test_expect_success 'variable data in the namespace (a shared score file), which the app cannot write' '
	t=$(case_tree var) && mkdir -p $t/$NS/var/games/demo/save &&
	: >$t/$NS/var/games/demo/scores.raw &&
	refused var 1 "works: $NS/var/games/demo/scores.raw: the namespace.s var/ holds data a program changes, but the app cannot write its namespace (read-only, and confined): keep variable data in the user.s home"
'

test_expect_success 'an empty var/ directory tree is refused too, by its top' '
	t=$(case_tree var-dir) && mkdir -p $t/$NS/var/lib/demo &&
	refused var-dir 1 "works: $NS/var: the namespace.s var/ holds data"
'

test_expect_success 'a menu entry that runs the app as root through pkexec' '
	t=$(case_tree pkexec) && icon $t extras-demo &&
	desktop $t "Exec=pkexec /$NS/bin/demo" "Icon=extras-demo" &&
	refused pkexec 1 "export: usr/share/applications/extras-demo.desktop: line 4: Exec=pkexec: runs a program outside the namespace"
'

test_expect_success 'a menu entry whose program is a script running pkexec (synaptic-pkexec)' '
	t=$(case_tree pkexec-script) && icon $t extras-demo &&
	printf "#!/bin/sh\n# Run as root.\n  exec /usr/bin/pkexec \"/$NS/sbin/demo\" \"\$@\"\n" >$t/$NS/bin/demo-pkexec &&
	chmod 755 $t/$NS/bin/demo-pkexec &&
	desktop $t "Exec=/$NS/bin/demo-pkexec" "Icon=extras-demo" &&
	refused pkexec-script 1 "works: usr/share/applications/extras-demo.desktop: line 4: Exec=/$NS/bin/demo-pkexec runs the app as root through pkexec: an extras app runs as its user, confined, and polkit never reads its namespace: have Exec= start the program itself"
'

test_expect_success 'a polkit action shipped alone, and a script naming sudo in its text: inert, accepted' '
	t=$(case_tree polkit) && icon $t extras-demo &&
	mkdir -p $t/$NS/share/polkit-1/actions &&
	echo "<policyconfig/>" >$t/$NS/share/polkit-1/actions/org.example.demo.policy &&
	printf "#!/bin/sh\necho \"run me without sudo\"\n" >$t/$NS/bin/demo &&
	desktop $t "Exec=/$NS/bin/demo" "Icon=extras-demo" &&
	build $t polkit.deb && extras-review polkit.deb >out &&
	grep_q " accepted$" out
'

test_done
