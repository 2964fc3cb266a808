#!/bin/sh
# The review gate on packages built with the add-on: dh_extras_check runs
# just before dh_builddeb and lets a good build through; extras-review
# accepts its .deb and .changes; the declaration travels in the package
# (DEBIAN/extras.yaml), so a declared profile is regenerated and compared;
# reserved privileges pass only with --allow-reserved; a tree broken
# after the helpers ran fails the build; --json writes the documented
# shape.

. "$TOP/tests/lib.sh"

# json_shape REPORT: the report has exactly the documented keys and types.
json_shape () {
	python3 - "$1" <<-'EOF'
	import json, sys
	r = json.load(open(sys.argv[1]))
	S, B, N, O = str, bool, int, type(None)
	def check(obj, shape, what):
	    assert isinstance(obj, dict), what
	    assert set(obj) == set(shape), (what, sorted(obj), sorted(shape))
	    for k, t in shape.items():
	        assert isinstance(obj[k], t), (what, k, obj[k])
	check(r, {"accepted": B, "packages": list, "problems": list}, "report")
	for p in r["packages"]:
	    check(p, {"file": S, "package": S, "version": S, "source": S,
	              "app": (S, O), "root": (S, O), "namespace": (S, O),
	              "accepted": B, "problems": N}, "package")
	    assert p["accepted"] == (p["problems"] == 0)
	for p in r["problems"]:
	    check(p, {"file": S, "package": S, "rule": S, "path": (S, O),
	              "message": S}, "problem")
	    assert p["rule"] in ("name", "control", "relation", "namespace",
	        "export", "mode", "special", "symlink", "profile",
	        "declaration", "script", "control-file", "duplicate", "works",
	        "hardlink", "owner", "conffile"), p["rule"]
	assert r["accepted"] == (not r["problems"])
	assert sum(p["problems"] for p in r["packages"]) == len(r["problems"])
	EOF
}

# declared NAME YAML: the greet fixture as NAME, declaring YAML.
declared () {
	rm -rf "$TRASH/$1.src" && cp -a "$TOP/tests/fixtures/greet" "$TRASH/$1.src" &&
	printf "$2" >"$TRASH/$1.src/debian/extras.yaml"
}

test_expect_success 'the fixture builds: dh_extras_check runs before dh_builddeb' '
	build_fixture greet || { tail -n 30 greet.log; false; } &&
	grep -n "^   dh_" greet.log >steps &&
	grep_q "dh_extras_check$" steps &&
	check=$(grep -n "dh_extras_check$" greet.log | cut -d: -f1) &&
	builddeb=$(grep -n "^   dh_builddeb" greet.log | cut -d: -f1) &&
	test "$check" -lt "$builddeb"
'

test_expect_success 'dh_extras_check accepts the finished tree when run again' '
	(cd greet && dh_extras_check)
'

test_expect_success 'extras-review accepts the .deb and the .changes' '
	extras-review extras-greet_1.0_*.deb >out &&
	grep_q "^extras-review: extras-greet_1.0_.*deb: extras-greet 1.0 accepted$" out &&
	extras-review extras-greet_1.0_*.changes >out &&
	grep_q "extras-greet 1.0 accepted$" out
'

# A build daemon's binNMU: "Source: NAME (VERSION)" in the .changes, the
# binaries one version on (deb-changes(5)).
test_expect_success 'a binNMU .changes is read and its packages accepted' '
	rm -rf "$TRASH/nmu" && cp -a "$TOP/tests/fixtures/greet" "$TRASH/nmu" &&
	{ printf "%s\n" "extras-greet (1.0+b1) unstable; urgency=low, binary-only=yes" "" \
		"  * Binary-only non-maintainer upload for amd64; no source changes." "" \
		" -- Build Daemon <buildd@example.org>  Tue, 06 Jan 2026 10:00:00 +0000" "" &&
	  cat "$TRASH/nmu/debian/changelog"; } >cl && mv cl "$TRASH/nmu/debian/changelog" &&
	(cd "$TRASH/nmu" && dpkg-buildpackage -us -uc -B -d) >nmu.log 2>&1 ||
		{ tail -n 30 nmu.log; false; } &&
	grep_q "^Source: extras-greet (1.0)$" extras-greet_1.0+b1_*.changes &&
	extras-review extras-greet_1.0+b1_*.changes >out &&
	grep_q "extras-greet 1.0+b1 accepted$" out
'

test_expect_success '--json: the accepted report has the documented shape' '
	extras-review --json report.json extras-greet_1.0_*.changes >/dev/null &&
	json_shape report.json &&
	python3 -c "import json; r = json.load(open(\"report.json\")); \
		assert r[\"accepted\"] and r[\"packages\"][0][\"namespace\"] == \
		\"/opt/extras.ubuntu.com/greet\""
'

test_expect_success 'two packages of one source are accepted together' '
	build_fixture chime || { tail -n 30 chime.log; false; } &&
	extras-review extras-chime_1.0_*.changes >out &&
	test "$(grep -c " accepted$" out)" -eq 2
'

test_expect_success 'the declaration travels as DEBIAN/extras.yaml, and its profile passes' '
	declared loud "app: loud\nprivileges:\n  - x11\n  - network\n" &&
	build_fixture loud "$TRASH/loud.src" || { tail -n 30 loud.log; false; } &&
	grep_q "^   dh_extras_declare" loud.log &&
	dpkg-deb --ctrl-tarfile extras-greet_1.0_*.deb >/dev/null &&
	deb=$(ls extras-greet_1.0_*.deb | head -n 1) &&
	dpkg-deb -I "$deb" extras.yaml >decl &&
	grep_q "^  - x11$" decl &&
	dpkg-deb -c "$deb" >files && grep_q "opt/extras.ubuntu.com/loud/bin/greet" files &&
	extras-review "$deb" >out && grep_q " accepted$" out
'

test_expect_success 'a reserved privilege builds, and passes review only with --allow-reserved' '
	rm -f extras-greet_1.0_* &&
	declared wide "app: wide\nprivileges:\n  - user-files\n" &&
	build_fixture wide "$TRASH/wide.src" || { tail -n 30 wide.log; false; } &&
	expect_status 1 extras-review extras-greet_1.0_*.changes >out &&
	grep_q ": profile: etc/apparmor.d/opt.extras.ubuntu.com.wide: .*reserved" out &&
	extras-review --allow-reserved extras-greet_1.0_*.changes >out &&
	grep_q " accepted$" out
'

test_expect_success 'a tree broken after the helpers fails the build, one line a problem' '
	rm -f extras-greet_1.0_* &&
	rm -rf broken.src && cp -a "$TOP/tests/fixtures/greet" broken.src &&
	printf "%s\n" "" "execute_after_dh_md5sums:" \
		"	ln -s /etc/shadow debian/extras-greet/opt/extras.ubuntu.com/greet/shadow" \
		"	mkdir -p debian/extras-greet/usr/bin" \
		"	touch debian/extras-greet/usr/bin/greet" >>broken.src/debian/rules &&
	! build_fixture broken "$TRASH/broken.src" &&
	grep_q "^dh_extras_check: error: debian/extras-greet: symlink: opt/extras.ubuntu.com/greet/shadow: -> /etc/shadow" broken.log &&
	grep_q "^dh_extras_check: error: debian/extras-greet: namespace: usr/bin/greet: is outside the namespace" broken.log &&
	grep_q "^dh_extras_check: error: 2 problems" broken.log &&
	! ls extras-greet_1.0_*.deb 2>/dev/null
'

test_expect_success '--json: the refused report has the documented shape' '
	mkdir -p t/DEBIAN t/usr/bin &&
	printf "Package: extras-hello\nSource: hello\nVersion: 1.0\nArchitecture: all\nMaintainer: M <m@example.org>\nDescription: d\n" >t/DEBIAN/control &&
	echo x >t/usr/bin/hello && chmod 4755 t/usr/bin/hello &&
	dpkg-deb --root-owner-group -Zgzip --build t hello.deb >/dev/null &&
	expect_status 1 extras-review --json - hello.deb >report.json 2>summary &&
	json_shape report.json &&
	grep_q "extras-hello 1.0 refused" summary &&
	python3 -c "import json; r = json.load(open(\"report.json\")); \
		rules = {p[\"rule\"] for p in r[\"problems\"]}; \
		assert {\"name\", \"namespace\", \"mode\"} <= rules, rules; \
		assert not r[\"accepted\"]"
'

test_expect_success 'an unconverted package: only that it is not an extras package, and how to convert it' '
	mkdir -p u/DEBIAN u/usr/bin u/usr/share/applications &&
	printf "#!/bin/sh\necho hi\n" >u/usr/bin/greet && chmod 755 u/usr/bin/greet &&
	printf "[Desktop Entry]\nType=Application\nName=Greet\nExec=greet\n" \
		>u/usr/share/applications/greet.desktop &&
	printf "Package: greet\nVersion: 1.0\nArchitecture: all\nMaintainer: M <m@example.org>\nDescription: d\n" >u/DEBIAN/control &&
	dpkg-deb --root-owner-group -Zgzip --build u greet.deb >/dev/null &&
	expect_status 1 extras-review greet.deb >out 2>&1 &&
	grep_q "^greet.deb: converted: not an extras package: no extras- name and no extras.yaml, so its source was not converted: run extras-convert on the source (extras-convert --privileges LIST DIR, or -o OUTDIR FILE.dsc), build it, and review the extras-greet packages$" out &&
	grep_q "^extras-review: greet.deb: greet 1.0 refused (1 problem)$" out &&
	test "$(wc -l <out)" -eq 2
'

test_expect_success 'usage: no file, or an unknown option, is bad usage' '
	expect_status 2 extras-review 2>err &&
	expect_status 2 extras-review --frobnicate x.deb 2>err
'

test_done
