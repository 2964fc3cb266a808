#!/bin/sh
# More build systems and the desktop: CMake, Meson and Python packages
# built with the add-on are compiled for their namespace, export what the
# desktop needs under extras- names, and their programs still run.

. "$TOP/tests/lib.sh"

ROOT=opt/extras.ubuntu.com

test_expect_success 'CMake: built with the namespace as CMAKE_INSTALL_PREFIX' '
	build_fixture tune || { tail -n 30 tune.log; false; } &&
	grep_q "dh-extras: cmake: building for /$ROOT/tune" tune.log &&
	grep_q "cmake .*-DCMAKE_INSTALL_PREFIX=/usr .*-DCMAKE_INSTALL_PREFIX=/$ROOT/tune " tune.log &&
	grep_q "dh_extras_unprefix: moved .* back to debian/extras-tune/usr" tune.log
'

test_expect_success 'CMake: every file is in the namespace or an export' '
	deb=extras-tune_1.0_*.deb &&
	test -z "$(outside_namespace $deb /$ROOT/tune)" &&
	deb_files $deb >files &&
	grep_q "^$ROOT/tune/bin/tune$" files &&
	grep_q "^$ROOT/tune/share/tune/tune.txt$" files &&
	grep_q "^$ROOT/tune/share/locale/fr/LC_MESSAGES/tune.mo$" files
'

test_expect_success 'CMake: with LANGUAGE=fr it plays in French and reads its data' '
	in_namespace extras-tune_1.0_*.deb -- \
		env LANG=C.UTF-8 LANGUAGE=fr /$ROOT/tune/bin/tune >out &&
	printf "On joue un air.\nla la la\n" >expect &&
	cmp expect out
'

test_expect_success 'Meson: an override with -- PARAMS still gets the namespace as --prefix' '
	build_fixture bells || { tail -n 30 bells.log; false; } &&
	grep_q "dh-extras: meson: building for /$ROOT/bells" bells.log &&
	grep_q "meson setup .* --prefix=/usr .* --buildtype=plain --prefix=/$ROOT/bells --sysconfdir=/$ROOT/bells/etc" bells.log
'

test_expect_success 'Meson: every file is in the namespace or an export' '
	deb=extras-bells_1.0_*.deb &&
	test -z "$(outside_namespace $deb /$ROOT/bells)" &&
	deb_files $deb >files &&
	grep_q "^$ROOT/bells/bin/bells$" files &&
	grep_q "^$ROOT/bells/share/locale/fr/LC_MESSAGES/bells.mo$" files &&
	grep_q "^$ROOT/bells/share/glib-2.0/schemas/org.example.Bells.gschema.xml$" files
'

test_expect_success 'Meson: the schemas are compiled inside the namespace' '
	grep_q "^   dh_extras_gsettings" bells.log &&
	grep_q "^$ROOT/bells/share/glib-2.0/schemas/gschemas.compiled$" files
'

test_expect_success 'Meson: the compiled program is started by a launcher beside it' '
	grep_q "^$ROOT/bells/bin/\.bells$" files &&
	grep_q "dh_extras_launchers: /$ROOT/bells/bin/bells: runs /$ROOT/bells/bin/.bells with /$ROOT/bells/share first on XDG_DATA_DIRS" bells.log &&
	in_namespace extras-bells_1.0_*.deb -- true &&
	test "$(head -n 2 ns/$ROOT/bells/bin/bells)" = "$(printf "#!/bin/bash\n# dh_extras_launchers: /$ROOT/bells/bin/.bells with the namespace'"'"'s data in sight")" &&
	grep_q "^#   /$ROOT/bells/bin/\.bells$" ns/etc/apparmor.d/opt.extras.ubuntu.com.bells
'

test_expect_success 'Meson: launched from its .desktop file, it finds its schema' '
	d=ns/usr/share/applications/extras-org.example.Bells.desktop &&
	exec=$(sed -n "s/^Exec=//p" $d) &&
	test "$exec" = "/$ROOT/bells/bin/bells" &&
	in_namespace extras-bells_1.0_*.deb -- \
		env LANG=C.UTF-8 LANGUAGE=fr $exec >out &&
	echo "On sonne la cloche silver." >expect && cmp expect out
'

test_expect_success 'Meson: started from a terminal, no variable set, it finds its schema' '
	in_namespace extras-bells_1.0_*.deb -- env -u XDG_DATA_DIRS -u GSETTINGS_SCHEMA_DIR \
		LANG=C.UTF-8 LANGUAGE=fr /$ROOT/bells/bin/bells >out &&
	echo "On sonne la cloche silver." >expect && cmp expect out &&
	in_namespace extras-bells_1.0_*.deb -- env XDG_DATA_DIRS=/usr/share \
		sh -c "/$ROOT/bells/bin/bells >/dev/null && /$ROOT/bells/bin/bells && echo \$XDG_DATA_DIRS" >out &&
	tail -n 1 out >dirs && echo /usr/share >expect && cmp expect dirs &&
	! in_namespace extras-bells_1.0_*.deb -- env -u XDG_DATA_DIRS \
		/$ROOT/bells/bin/.bells >out 2>err &&
	grep_q "Settings schema .org.example.Bells. is not installed" err
'

test_expect_success 'Meson: the D-Bus service is exported with Exec= patched' '
	s=ns/usr/share/dbus-1/services/org.example.Bells.service &&
	grep_q "^Exec=/$ROOT/bells/bin/bells --gapplication-service$" $s
'

# Copies, not hard links: dpkg cannot link /opt to /usr across file systems.
test_expect_success 'Meson: its icons also in the namespace, under their own names' '
	dpkg-deb --fsys-tarfile extras-bells_1.0_*.deb | tar -tv | grep "^h" >hardlinks || test $? = 1 &&
	test ! -s hardlinks &&
	for i in 48x48/apps/org.example.Bells.png scalable/apps/org.example.Bells.svg \
		symbolic/apps/org.example.Bells-symbolic.svg; do
		grep_q "^$ROOT/bells/share/icons/hicolor/$i$" files &&
		cmp ns/$ROOT/bells/share/icons/hicolor/$i \
			ns/usr/share/icons/hicolor/${i%/*}/extras-${i##*/} || return 1
	done
'

test_expect_success 'Meson: icons of every size and -symbolic renamed together' '
	deb_files extras-bells_1.0_*.deb >files &&
	grep_q "^usr/share/icons/hicolor/48x48/apps/extras-org.example.Bells.png$" files &&
	grep_q "^usr/share/icons/hicolor/scalable/apps/extras-org.example.Bells.svg$" files &&
	grep_q "^usr/share/icons/hicolor/symbolic/apps/extras-org.example.Bells-symbolic.svg$" files &&
	! grep "^usr/share/icons/.*/org.example" files &&
	grep_q "^Icon=extras-org.example.Bells$" ns/usr/share/applications/extras-org.example.Bells.desktop
'

test_expect_success 'Meson: metainfo exported with its id and launchable renamed' '
	m=ns/usr/share/metainfo/extras-org.example.Bells.metainfo.xml &&
	grep_q "<id>extras-org.example.Bells</id>" $m &&
	grep_q "<launchable type=\"desktop-id\">extras-org.example.Bells.desktop</launchable>" $m &&
	grep_q "dh_extras_metainfo: .*: component extras-org.example.Bells" bells.log &&
	{ appstreamcli validate --no-net --pedantic $m >validate || test $? = 3; } &&
	grep_q "Validation \(was successful\|failed: warnings\)" validate &&
	! grep -i -e "^E:" -e "cid-desktopapp-is-not-rdns" -e "desktop-file-not-found" validate
'

test_expect_success 'Python: built with pybuild, the launcher in the namespace' '
	build_fixture quill || { tail -n 30 quill.log; false; } &&
	grep_q "dh-extras: the pybuild build system cannot be told the namespace" quill.log &&
	grep_q "^   dh_python3" quill.log &&
	deb=extras-quill_1.0_all.deb &&
	test -z "$(outside_namespace $deb /$ROOT/quill)" &&
	deb_files $deb >files &&
	grep_q "^$ROOT/quill/bin/quill$" files &&
	grep_q "^$ROOT/quill/lib/python3/dist-packages/quill/main.py$" files &&
	grep_q "^$ROOT/quill/share/quill/ink.txt$" files &&
	grep_q "^$ROOT/quill/share/locale/fr/LC_MESSAGES/quill.mo$" files &&
	grep_q "^usr/share/applications/extras-org.example.Quill.desktop$" files
'

test_expect_success 'Python: with LANGUAGE=fr it writes in French, no PYTHONPATH set' '
	in_namespace extras-quill_1.0_all.deb -- \
		env -u PYTHONPATH LANG=C.UTF-8 LANGUAGE=fr /$ROOT/quill/bin/quill >out &&
	printf "On écrit à la plume.\nblack ink\n" >expect && cmp expect out &&
	grep_q "^DATADIR = ./$ROOT/quill/share/quill.$" \
		ns/$ROOT/quill/lib/python3/dist-packages/quill/main.py
'

test_expect_success 'Python: the .desktop file runs the launcher from the namespace' '
	grep_q "^Exec=/$ROOT/quill/bin/quill$" \
		ns/usr/share/applications/extras-org.example.Quill.desktop &&
	grep_q "^Icon=extras-quill$" \
		ns/usr/share/applications/extras-org.example.Quill.desktop &&
	grep_q "^usr/share/icons/hicolor/scalable/apps/extras-quill.svg$" files
'

if command -v xvfb-run >/dev/null &&
   /usr/bin/python3 -c "import gi; gi.require_version('Gtk', '3.0')" 2>/dev/null; then
	test_set_prereq GTK
fi

# The seeds' failure: GtkBuilder translates through libintl, so the domain
# must be bound where the catalogues are, for Python and for C alike; the
# .ui and the Python code name the icon that was renamed on export.
test_expect_success GTK 'Python GTK: the window in French, naming the exported icon' '
	mkdir -p "$TRASH/home" &&
	in_namespace extras-quill_1.0_all.deb -- env -u PYTHONPATH -u XDG_DATA_DIRS \
		HOME="$TRASH/home" TMPDIR=/tmp LANG=C.UTF-8 LANGUAGE=fr \
		xvfb-run -a /$ROOT/quill/bin/quill --dump >out &&
	printf "%s\n" Plume "L'"'"'encre et le papier" extras-quill extras-quill "/$ROOT/quill/share:/usr/local/share:/usr/share" \
		"$TRASH/home/.cache/quill/tmp" >expect &&
	cmp expect out &&
	grep_q "^LOCALEDIR = ./$ROOT/quill/share/locale.$" \
		ns/$ROOT/quill/lib/python3/dist-packages/quill/main.py &&
	grep_q "<property name=\"icon-name\">extras-quill</property>" \
		ns/$ROOT/quill/share/quill/quill.ui
'

test_expect_success 'Python: byte-compiled at build time, nothing compiled at install' '
	dpkg-deb -e extras-quill_1.0_all.deb control &&
	! grep -q "py3compile\|py3clean" control/postinst &&
	test ! -e control/prerm &&
	grep_q "^$ROOT/quill/lib/python3/dist-packages/quill/__pycache__/main.cpython-3[0-9]*.pyc$" files &&
	pyc=$(grep "quill/__pycache__/main.cpython" files) &&
	dpkg-deb --fsys-tarfile extras-quill_1.0_all.deb | tar -xOf - "./$pyc" >main.pyc &&
	python3 -c "import sys; f = open(\"main.pyc\", \"rb\").read(8); sys.exit(f[4:8] != bytes([1, 0, 0, 0]))" &&
	in_namespace extras-quill_1.0_all.deb -- sh -c "
		LANGUAGE=fr LANG=C.UTF-8 PYTHONDONTWRITEBYTECODE=1 /$ROOT/quill/bin/quill" >out &&
	grep_q "^On écrit à la plume.$" out
'

test_expect_success 'lintian with the shipped profile: no errors, /opt not flagged' '
	for c in extras-tune_*.changes extras-bells_*.changes extras-quill_*.changes; do
		lintian --no-cfg --include-dir "$TOP/lintian" --profile dh-extras \
			--fail-on error $c >>lintian.out 2>&1 || { cat lintian.out; return 1; }
	done &&
	! grep -e "^E:" -e dir-or-file-in-opt -e desktop-command-not-in-package \
		-e mismatched-override lintian.out
'

test_expect_success 'lintian without it: every file of the namespace is flagged' '
	expect_status 2 lintian --no-cfg extras-tune_*.changes >plain.out 2>&1 &&
	grep_q "^E: extras-tune: dir-or-file-in-opt \[$ROOT/tune/bin/tune\]" plain.out
'

# A real Python application from the archive: Meson's upstream tarball
# (apt-get source; the mirror may lack the Debian packaging, so the
# packaging is written here by hand, as an author would), built with the
# add-on, its program run from the namespace with the system's own
# mesonbuild hidden.
mkdir meson-src && (cd meson-src && apt-get source -q --download-only meson) >meson-source.log 2>&1
if orig=$(ls meson-src/meson_*.orig.tar.gz 2>/dev/null) && [ -n "$orig" ]; then
	test_expect_success 'archive meson: packaged by hand as extras-meson, built' '
		tar -xzf $orig -C meson-src &&
		dir=$(ls -d meson-src/meson-*/) && rm -rf $dir/debian &&
		mkdir -p $dir/debian/source && echo "3.0 (native)" >$dir/debian/source/format &&
		cat >$dir/debian/control <<-EOF &&
		Source: extras-meson
		Section: devel
		Priority: optional
		Maintainer: dh-extras tests <tests@example.org>
		Build-Depends: debhelper-compat (= 13), dh-python, dh-sequence-extras,
		 dh-sequence-python3, python3-all, python3-setuptools
		Standards-Version: 4.6.2
		Rules-Requires-Root: no

		Package: extras-meson
		Architecture: all
		Depends: ninja-build, \${misc:Depends}, \${python3:Depends}
		Description: high-productivity build system (as an extras app)
		 Meson from the archive, packaged by hand for the dh-extras tests.
		EOF
		printf "#!/usr/bin/make -f\n%%:\n\tdh \$@ --buildsystem=pybuild\n\noverride_dh_auto_test:\n" >$dir/debian/rules &&
		chmod +x $dir/debian/rules &&
		printf "extras-meson (1.0-0extras1) unstable; urgency=medium\n\n  * Packaged by hand.\n\n -- dh-extras tests <tests@example.org>  Thu, 03 Dec 2026 08:00:00 +0000\n" >$dir/debian/changelog &&
		printf "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n\nFiles: *\nCopyright: The Meson development team\nLicense: Apache-2.0\n On Debian systems, the full text is in /usr/share/common-licenses/Apache-2.0.\n" >$dir/debian/copyright &&
		build_fixture extras-meson $dir || { tail -n 30 extras-meson.log; false; } &&
		grep_q "dh_extras_python: .*/bin/meson: finds its modules in the namespace" extras-meson.log
	'
	test_expect_success 'archive meson: in the namespace, sets up and builds a project' '
		deb=$(ls extras-meson_*.deb) &&
		test -z "$(outside_namespace $deb /$ROOT/meson)" &&
		mkdir -p proj && printf "project(\"p\", \"c\")\nexecutable(\"p\", \"p.c\")\n" | tr "\"" "\047" >proj/meson.build &&
		echo "int main(void) { return 0; }" >proj/p.c &&
		in_namespace $deb -- sh -c "
			if [ -d /usr/lib/python3/dist-packages/mesonbuild ]; then
				mount -t tmpfs tmpfs /usr/lib/python3/dist-packages/mesonbuild
			fi &&
			/$ROOT/meson/bin/meson setup proj/b proj && ninja -C proj/b" >out &&
		test -x proj/b/p &&
		lintian --no-cfg --include-dir "$TOP/lintian" --profile dh-extras \
			--fail-on error extras-meson_*.changes
	'
else
	test_skip 'archive meson: packaged by hand as extras-meson, built' \
		'apt-get source meson fetched no upstream tarball'
	test_skip 'archive meson: in the namespace, sets up and builds a project' \
		'apt-get source meson fetched no upstream tarball'
fi

test_done
