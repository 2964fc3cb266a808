# store-lib.sh: the store's pipeline told end to end against one registry.
# Source it after lib.sh, conflicts-lib.sh (sign, fpr, make_deb) and
# convert-fixture.sh (make_fixture); store.t runs store_story against a
# directory (SQLite), store-pg.t against a PostgreSQL server it starts.

# app_source DIR APP VERSION: make_fixture's greet as APP (every "greet"
# renamed), a native source at VERSION, exporting a .desktop file whose
# name is in no app's names (first come, first served), and whose build
# waits, when $STORE_GATE names a directory, for whoever drives it: it
# writes "started" into the fifo STORE_GATE/started, then reads
# STORE_GATE/go.
app_source () {
	# make_fixture sets $dir and $version: names of their own here.
	as_dir=$1 as_app=$2 as_ver=$3 &&
	rm -rf "$as_dir" && make_fixture "$as_dir.tmp" &&
	mkdir -p "$as_dir" &&
	(cd "$as_dir.tmp" && find . -type f) | while read -r f; do
		to=$(echo "$f" | sed "s/greet/$as_app/g") &&
		mkdir -p "$as_dir/$(dirname "$to")" &&
		sed "s/greet/$as_app/g; s/Greet/${as_app}-author/g" "$as_dir.tmp/$f" >"$as_dir/$to" &&
		chmod --reference="$as_dir.tmp/$f" "$as_dir/$to" || return 1
	done &&
	rm -rf "$as_dir.tmp" &&
	sed -i "1s/(1.0)/($as_ver)/" "$as_dir/debian/changelog" &&
	printf '%s\n' "[Desktop Entry]" "Type=Application" "Name=$as_app" \
		"Exec=$as_app" >"$as_dir/debian/org.example.Shared.desktop" &&
	echo "usr/share/applications" >>"$as_dir/debian/$as_app.install" &&
	# Recipe lines begin with a tab: printf, not a here-document.
	printf '\n%s\n\t%s\n\t\t%s\n\n%s\n\t%s\n\t\t%s\n\t%s\n' \
		'execute_after_dh_auto_install:' \
		'install -D -m 644 debian/org.example.Shared.desktop \' \
		'debian/tmp/usr/share/applications/org.example.Shared.desktop' \
		'execute_before_dh_auto_build:' \
		'if [ -n "$$STORE_GATE" ]; then \' \
		'echo started >"$$STORE_GATE/started" && cat "$$STORE_GATE/go" >/dev/null; \' \
		'fi' >>"$as_dir/debian/rules"
}

# upload_source SIGNER APP VERSION: APP's source at VERSION, its .dsc
# signed by SIGNER, put in the store's incoming/.
upload_source () {
	app_source "src/$2-$3" "$2" "$3" &&
	(cd src && dpkg-source -b "$2-$3" >/dev/null) &&
	sign "$1" "src/${2}_$3.dsc" "store/incoming/${2}_$3.dsc" &&
	cp "src/${2}_$3.tar.xz" store/incoming/
}

# The keys: conflicts-lib.sh's accept_fixtures (alice and bob, uploaders)
# and the store's own signing key.
store_fixtures () {
	accept_fixtures &&
	gpg --batch --passphrase '' --quick-gen-key "store <store@example.org>" \
		default default never >/dev/null 2>&1 &&
	store_key=$(fpr store) &&
	mkdir src
}

# job_field ID KEY: a top-level member of job ID's report.
job_field () {
	python3 -c "import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" \
		"store/reports/$1.json" "$2"
}

# store_story DB: from an empty store to apt upgrade, against registry DB.
store_story () {
	DB=$1

	test_expect_success 'init: a store, its empty repository signed by the store.s key' '
		extras-store init -s store --registry "$DB" --keyring keyring.gpg \
			--sign-with "$store_key" >out &&
		grep_q "^extras-store: store $TRASH/store made" out &&
		test "$(readlink store/public)" = states/0/out &&
		gpgv --keyring "$TRASH/store/public/store.gpg" \
			store/public/dists/extras/InRelease 2>gpgv.out &&
		grep_q "Good signature from \"store <store@example.org>\"" gpgv.out &&
		grep_q "^Registry: $DB$" store/store.conf &&
		extras-conflicts uploader add -d "$DB" --fingerprint "$alice" alice &&
		extras-conflicts uploader add -d "$DB" --fingerprint "$bob" bob
	'

	test_expect_success 'run: alice.s app accepted, converted, built, reviewed, claimed, published' '
		upload_source alice greet 1.0 &&
		extras-store run -s store >out &&
		for step in accept convert build review claim publish; do
			grep_q "^extras-store: job 1 (greet_1.0.dsc): $step: ok$" out ||
				return 1
		done &&
		grep_q "^extras-store: job 1 (greet_1.0.dsc): published; report $TRASH/store/reports/1.html$" out &&
		grep_q "^extras-store: 1 published, 0 refused$" out &&
		test ! -e store/incoming/greet_1.0.dsc &&
		extras-store status -s store >status &&
		printf "1\tpublished\t1\t-\tgreet_1.0.dsc\n" >expect &&
		diff -u expect status &&
		grep_q "^Package: extras-greet$" store/public/dists/extras/main/binary-*/Packages &&
		test -f store/public/pool/main/e/extras-greet/extras-greet_1.0_$(dpkg --print-architecture).deb &&
		test "$(readlink store/public)" = states/1/out &&
		python3 - <<-\PY
		import json
		r = json.load(open("store/reports/1.json"))
		assert r["verdict"] == "published" and r["state"] == "published", r
		assert (r["app"], r["source"], r["version"], r["uploader"]) == \
		    ("greet", "greet", "1.0", "alice"), r
		steps = [(s["step"], s["verdict"]) for s in r["steps"]]
		assert steps == [("accept", "ok"), ("convert", "ok"), ("unpack", "ok"),
		                 ("build", "ok"), ("review", "ok"), ("claim", "ok"),
		                 ("publish", "ok")], steps
		accept = r["steps"][0]["report"]
		assert accept["identity"]["packages"] == ["extras-greet", "extras-greet-data"], accept
		assert r["steps"][4]["report"]["accepted"] is True, r["steps"][4]
		assert r["fix"] == [], r["fix"]
		assert any("update-alternatives" in l for l in r["loses"]), r["loses"]
		PY
	'

	test_expect_success 'run: bob.s hostile upload and clash refused, naming the holder' '
		source_upload b1 bob bobapp 1.0-1 bobapp greet-data &&
		cp b1/* store/incoming/ &&
		upload_source bob chime 1.0 &&
		extras-store run -s store >out &&
		grep_q "^extras-store: job 2 (bobapp_1.0-1.dsc): accept: refused$" out &&
		grep_q "^extras-store: job 2 (bobapp_1.0-1.dsc): accept: package name extras-greet-data is claimed by app greet (owner alice)$" out &&
		grep_q "^extras-store: job 3 (chime_1.0.dsc): claim: file /usr/share/applications/extras-org.example.Shared.desktop is claimed by app greet (owner alice)$" out &&
		grep_q "^extras-store: 0 published, 2 refused$" out &&
		test "$(job_field 2 verdict)" = refused &&
		test "$(job_field 3 verdict)" = refused &&
		python3 - <<-\PY &&
		import json
		r = json.load(open("store/reports/2.json"))
		assert [s["step"] for s in r["steps"]] == ["accept"], r
		assert r["fix"] == ["package name extras-greet-data is claimed by app greet (owner alice)"], r["fix"]
		r = json.load(open("store/reports/3.json"))
		assert [s["step"] for s in r["steps"]][-1] == "claim", r
		assert r["fix"] == ["file /usr/share/applications/extras-org.example.Shared.desktop is claimed by app greet (owner alice)"], r["fix"]
		PY
		! grep -q chime store/public/dists/extras/main/binary-*/Packages &&
		extras-conflicts list -d "$DB" >list &&
		! grep -q "^bobapp" list &&
		test $(grep -c "extras-org.example.Shared.desktop" list) = 1
	'
}
