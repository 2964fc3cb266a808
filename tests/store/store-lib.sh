# store-lib.sh: the store's pipeline told end to end against one registry.
# Source it after lib.sh, conflicts-lib.sh (sign, fpr, make_deb) and
# convert-fixture.sh (make_fixture); store.t runs store_story against a
# directory (SQLite), store-pg.t against a PostgreSQL server it starts.

# app_source DIR APP VERSION [ENTRY]: make_fixture's greet as APP (every
# "greet" renamed), a native source at VERSION, exporting a .desktop file
# ENTRY.desktop (org.example.Shared by default) whose name is in no app's
# names (first come, first served), and whose build
# waits, when $STORE_GATE names a directory, for whoever drives it: it
# writes "started" into the fifo STORE_GATE/started, then reads
# STORE_GATE/go.
app_source () {
	# make_fixture sets $dir and $version: names of their own here.
	as_dir=$1 as_app=$2 as_ver=$3 as_entry=${4:-org.example.Shared} &&
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
		"Exec=$as_app" >"$as_dir/debian/$as_entry.desktop" &&
	echo "usr/share/applications" >>"$as_dir/debian/$as_app.install" &&
	# Recipe lines begin with a tab: printf, not a here-document.
	printf '\n%s\n\t%s\n\t\t%s\n\n%s\n\t%s\n\t\t%s\n\t%s\n' \
		'execute_after_dh_auto_install:' \
		"install -D -m 644 debian/$as_entry.desktop \\" \
		"debian/tmp/usr/share/applications/$as_entry.desktop" \
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

# upload_changes SIGNER APP VERSION: APP's source at VERSION as
# dpkg-buildpackage -S leaves it, a source-only .changes (without Binary:
# dpkg-genchanges leaves it out) signed by SIGNER, with its files, in the
# store's incoming/.
upload_changes () {
	app_source "src/$2-$3" "$2" "$3" &&
	(cd src && dpkg-source -b "$2-$3" >/dev/null) &&
	(cd "src/$2-$3" &&
		dpkg-genchanges -S -O"../${2}_$3_source.changes" 2>/dev/null) &&
	! grep -q "^Binary:" "src/${2}_$3_source.changes" &&
	sign "$1" "src/${2}_$3_source.changes" \
		"store/incoming/${2}_$3_source.changes" &&
	cp "src/${2}_$3.dsc" "src/${2}_$3.tar.xz" store/incoming/
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

# store_publish_story DB: init, then alice's greet 1.0 published as job 1.
store_publish_story () {
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
}

# store_refuse_story: bob's hostile upload (job 2) and clash (job 3).
store_refuse_story () {

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

# store_retry_story: alice's greet 1.1 (job 4, a source-only .changes)
# taken by a worker that is killed (SIGKILL, with its build) while it
# builds, then by another worker once the first one's lease expired:
# published, nothing lost.
# The build waits on the fifo gate/go (app_source's STORE_GATE), so the
# test knows the first worker is building, without waiting a time; its
# lease, 0 seconds, has expired when the second worker looks.
store_retry_story () {
	test_expect_success 'work: a worker killed mid-build; another takes its job again and publishes it' '
		upload_changes alice greet 1.1 &&
		extras-store queue -s store >out &&
		grep_q "^extras-store: job 4 (greet_1.1_source.changes): queued$" out &&
		rm -rf gate && mkdir gate && mkfifo gate/started gate/go &&
		# The worker alone in a process group, which the test kills
		# whole, as a host crash would; once it is gone, "exited"
		# in gate/started after the build.s "started".
		# (Its status kept by hand: the subshell runs under set -e.)
		{
			{
				status=0
				STORE_GATE=$TRASH/gate setsid sh -c "echo \$\$ >gate/pid &&
					exec extras-store work -s store --worker doomed \
					--lease 0 --once" >doomed.out 2>&1 || status=$?
				echo "exited $status" >gate/started
			} &
		} &&
		# Each step says what went wrong, with the worker.s output.
		{
			{ read -r started <gate/started ||
				{ echo "gate/started: nothing read" && false; }; } &&
			{ test "$started" = started ||
				{ echo "the gate said: $started" && false; }; } &&
			{ kill -KILL "-$(cat gate/pid)" ||
				{ echo "no process group $(cat gate/pid)" && false; }; } &&
			{ read -r exited <gate/started ||
				{ echo "gate/started: nothing read after the kill" && false; }; } &&
			{ test "$exited" = "exited 137" ||
				{ echo "the gate said: $exited" && false; }; } &&
			wait &&
			grep_q "^extras-store: job 4 (greet_1.1_source.changes): taken by doomed (attempt 1)$" doomed.out &&
			grep_q "^extras-store: job 4 (greet_1.1_source.changes): build: running$" doomed.out &&
			{ ! grep -q "build: ok" doomed.out ||
				{ echo "the killed worker built" && false; }; }
		} || { echo "the killed worker said:" && cat doomed.out && false; } &&
		extras-store status -s store >status &&
		grep_q "^4	converted	1	doomed	greet_1.1_source.changes$" status &&
		extras-store work -s store --worker rescuer >out &&
		grep_q "^extras-store: job 4 (greet_1.1_source.changes): taken by rescuer (attempt 2)$" out &&
		grep_q "^extras-store: job 4 (greet_1.1_source.changes): build: ok$" out &&
		grep_q "^extras-store: job 4 (greet_1.1_source.changes): published; report $TRASH/store/reports/4.html$" out &&
		grep_q "^extras-store: 1 published, 0 refused$" out &&
		extras-store status -s store >status &&
		grep_q "^4	published	2	-	greet_1.1_source.changes$" status &&
		test "$(job_field 4 attempts)" = 2 &&
		test "$(job_field 4 verdict)" = published &&
		grep_q "^Version: 1.1$" store/public/dists/extras/main/binary-*/Packages
	'
}

# The user's side: a Debian system of its own (mmdebstrap, bookworm, with
# apparmor, kept as a tarball in $STORE_ROOT_CACHE and unpacked for each
# run) that adds the store once and installs, upgrades and removes the
# app with its apt, from the store's published repository served over
# HTTP.  Needs root (chroot) and mmdebstrap; the archive only to make the
# tarball, the first time.
STORE_ROOT_CACHE=${STORE_ROOT_CACHE:-/var/tmp/dh-extras-store}
STORE_ROOT_TAR=$STORE_ROOT_CACHE/bookworm-user.tar

# serve_store: store/public over HTTP on a port of 127.0.0.1 the server
# picks; it writes "PORT PID" into the fifo port, or its subshell
# "failed" when it could not start ($store_port, $store_server; the
# subshell in $store_watch, stopped first at exit so that it writes
# nothing then).
serve_store () {
	mkfifo "$TRASH/port" || return 1
	{ python3 -c '
import functools, http.server, os, sys
handler = functools.partial(http.server.SimpleHTTPRequestHandler,
                            directory=sys.argv[1])
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
with open(sys.argv[2], "w") as port:
    port.write("%d %d\n" % (server.server_address[1], os.getpid()))
server.serve_forever()' "$TRASH/store/public" "$TRASH/port" \
		>"$TRASH/http.log" 2>&1 || echo failed >"$TRASH/port"; } &
	store_watch=$! &&
	read -r store_port store_server <"$TRASH/port" &&
	test "$store_port" != failed
}

# store_cleanup: on exit, the HTTP server.
store_cleanup () {
	# Each stopped whatever became of the others.
	{ [ -z "${store_watch:-}" ] || kill "$store_watch" 2>/dev/null ||
		test $? = 1; } &&
	{ [ -z "${store_server:-}" ] || kill "$store_server" 2>/dev/null ||
		test $? = 1; } &&
	accept_done
}

# in_root COMMAND...: COMMAND on the user's system, as its root.
in_root () {
	chroot "$TRASH/root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

store_user_setup () {
	if [ "$(id -u)" = 0 ] && command -v mmdebstrap >/dev/null; then
		test_set_prereq ROOT
	fi
	test_expect_success ROOT "user: a Debian system of the user.s own ($STORE_ROOT_TAR)" '
		if [ ! -s "$STORE_ROOT_TAR" ]; then
			mkdir -p "$STORE_ROOT_CACHE" &&
			# mmdebstrap makes a tarball of a name ending in .tar.
			nice mmdebstrap --variant=apt --include=apparmor bookworm \
				"$STORE_ROOT_CACHE/new.tar" >mmdebstrap.log 2>&1 </dev/null &&
			mv "$STORE_ROOT_CACHE/new.tar" "$STORE_ROOT_TAR"
		fi &&
		mkdir root &&
		tar -C root -xf "$STORE_ROOT_TAR" &&
		# Debian.s packages it needs are there: apt reads the store.s
		# alone, and the test needs no archive.
		rm -f root/etc/apt/sources.list root/etc/apt/sources.list.d/*
	'
	if [ -d "$TRASH/root" ]; then
		test_setup 'the store served over HTTP' serve_store
		test_set_prereq USER
	fi
}

# store_user_install: the user adds the store, installs greet 1.0.
store_user_install () {
	test_expect_success USER 'user: adds the store once (Signed-By: its key), apt-get install extras-greet' '
		mkdir -p root/etc/apt/keyrings &&
		cp store/public/store.gpg root/etc/apt/keyrings/extras-store.gpg &&
		printf "%s\n" "Types: deb" "URIs: http://127.0.0.1:$store_port/" \
			"Suites: extras" "Components: main" \
			"Signed-By: /etc/apt/keyrings/extras-store.gpg" \
			>root/etc/apt/sources.list.d/extras-store.sources &&
		in_root apt-get update >update.out 2>&1 &&
		! grep -q "^[WE]:" update.out &&
		in_root apt-get install -y extras-greet >install.out 2>&1 &&
		grep_q "^Setting up extras-greet (1.0) " install.out &&
		test "$(in_root dpkg-query -W -f "\${Version} \${Status}" extras-greet)" = "1.0 install ok installed" &&
		test "$(in_root /opt/extras.ubuntu.com/greet/bin/greet)" = "Hello from greet." &&
		test -f root/etc/apparmor.d/opt.extras.ubuntu.com.greet &&
		test -f root/etc/apparmor.d/local/opt.extras.ubuntu.com.greet &&
		test -f root/usr/share/applications/extras-org.example.Shared.desktop
	'

	test_expect_success USER 'user: a repository signed by another key is refused by apt' '
		gpg --batch --passphrase "" --quick-gen-key "forger <forger@example.org>" \
			default default never >/dev/null 2>&1 &&
		gpg --export forger@example.org >root/etc/apt/keyrings/extras-store.gpg &&
		in_root apt-get update >update.out 2>&1 &&
		grep_q "NO_PUBKEY $(fpr store | cut -c 25-)" update.out &&
		cp store/public/store.gpg root/etc/apt/keyrings/extras-store.gpg
	'
}

# store_user_upgrade: greet 1.1 published, the user upgrades, removes.
store_user_upgrade () {
	test_expect_success USER 'user: apt-get upgrade brings 1.1, the profile configured again' '
		rm root/etc/apparmor.d/local/opt.extras.ubuntu.com.greet &&
		in_root apt-get update >update.out 2>&1 &&
		! grep -q "^[WE]:" update.out &&
		in_root apt-get upgrade -y >upgrade.out 2>&1 &&
		grep_q "^Unpacking extras-greet (1.1) over (1.0) " upgrade.out &&
		grep_q "^Setting up extras-greet (1.1) " upgrade.out &&
		test "$(in_root dpkg-query -W -f "\${Version}" extras-greet)" = 1.1 &&
		test -f root/etc/apparmor.d/local/opt.extras.ubuntu.com.greet
	'

	test_expect_success USER 'user: apt-get purge removes the app, its profile and what is kept beside it' '
		in_root apt-get purge -y extras-greet extras-greet-data >purge.out 2>&1 &&
		! in_root dpkg-query -W -f "\${Status}\n" extras-greet | grep -q installed &&
		test ! -e root/opt/extras.ubuntu.com/greet &&
		test ! -e root/etc/apparmor.d/opt.extras.ubuntu.com.greet &&
		test ! -e root/etc/apparmor.d/local/opt.extras.ubuntu.com.greet &&
		test ! -e root/usr/share/applications/extras-org.example.Shared.desktop
	'
}

# The reports as an author sees them: Debian's chromium, headless, renders
# each page to a PDF (its text, pdftotext's, is what the page shows) and
# a screenshot kept in $BUILDDIR/check-store/.  Needs chromium and
# poppler-utils.
if command -v chromium >/dev/null && command -v pdftotext >/dev/null; then
	test_set_prereq CHROMIUM
fi

# render ID: reports/ID.html as chromium renders it, in ID.txt (its text
# on one line) and $BUILDDIR/check-store/report-ID.png.
render () {
	mkdir -p "$BUILDDIR/check-store" &&
	for what in "--print-to-pdf=$TRASH/$1.pdf" \
		"--screenshot=$BUILDDIR/check-store/report-$1.png"; do
		# No sandbox: it needs user namespaces, which a container
		# or root may lack, and the page is the store's own.
		HOME=$TRASH DBUS_SESSION_BUS_ADDRESS=disabled: chromium \
			--headless --no-sandbox --disable-gpu \
			--user-data-dir="$TRASH/chromium" --window-size=1000,1400 \
			--no-pdf-header-footer \
			"$what" "file://$TRASH/store/reports/$1.html" \
			>>chromium.log 2>&1 || return 1
	done &&
	pdftotext "$1.pdf" - | tr -s " \n\f" "   " >"$1.txt" &&
	# A PNG of the window, and not a blank one.
	file -b "$BUILDDIR/check-store/report-$1.png" >png &&
	grep_q "^PNG image data, 1000 x 1400," png &&
	test "$(wc -c <"$BUILDDIR/check-store/report-$1.png")" -gt 20000
}

store_report_story () {
	test_expect_success CHROMIUM 'report: a published upload.s page in Chromium' '
		render 1 &&
		grep_q "^greet_1.0.dsc Verdict: published " 1.txt &&
		grep_q " What to fix Nothing. What the user loses .*update-alternatives" 1.txt &&
		for step in accept convert unpack build review claim publish; do
			grep_q " $step: ok " 1.txt || return 1
		done &&
		# Each step.s output is there, folded away (<details>).
		grep -q "dpkg-buildpackage: info: " store/reports/1.html &&
		! grep -q "dpkg-buildpackage: info: " 1.txt
	'

	test_expect_success CHROMIUM 'report: a refused upload.s page in Chromium says what to fix' '
		render 3 &&
		grep_q "^chime_1.0.dsc Verdict: refused " 3.txt &&
		grep_q " What to fix file /usr/share/applications/extras-org.example.Shared.desktop is claimed by app greet (owner alice) What the user loses " 3.txt &&
		grep_q " claim: refused " 3.txt &&
		! grep -q " publish: " 3.txt
	'
}

# store_bad_log_story: bob's mojibake (job 5), whose build prints bytes
# that are not UTF-8 (Latin-1, a stray 0xff) and fails: its report is
# valid JSON all the same, the bytes written \xNN.
store_bad_log_story () {
	test_expect_success 'report: a build log that is not UTF-8 gives valid JSON' '
		app_source src/mojibake-1.0 mojibake 1.0 &&
		printf "\n%s\n\t%s\n" "execute_before_dh_auto_configure:" \
			"printf \"caf\\351 \\377\\n\" && false" \
			>>src/mojibake-1.0/debian/rules &&
		(cd src && dpkg-source -b mojibake-1.0 >/dev/null) &&
		sign bob src/mojibake_1.0.dsc store/incoming/mojibake_1.0.dsc &&
		cp src/mojibake_1.0.tar.xz store/incoming/ &&
		extras-store run -s store >out &&
		grep_q "^extras-store: job 5 (mojibake_1.0.dsc): build: refused$" out &&
		grep -a -q "caf$(printf "\351") $(printf "\377")" store/jobs/mojibake_1.0.dsc.*/build.log &&
		python3 - <<-\PY
		import json
		with open("store/reports/5.json", encoding="utf-8") as f:
		    r = json.load(f)
		assert r["verdict"] == "refused", r["verdict"]
		build = [s for s in r["steps"] if s["step"] == "build"][0]
		assert "caf\\xe9 \\xff\n" in build["output"], build["output"]
		with open("store/reports/5.html", encoding="utf-8") as f:
		    assert "caf\\xe9 \\xff" in f.read()
		PY
	'
}

# upload_privileged SIGNER APP VERSION PRIVILEGE: APP's source at VERSION
# declaring PRIVILEGE (debian/extras.yaml, which extras-convert keeps),
# its .desktop file its own, its .dsc signed by SIGNER, in incoming/.
upload_privileged () {
	app_source "src/$2-$3" "$2" "$3" "org.example.$2" &&
	printf "%s\n" "app: $2" "privileges:" "  - $4" \
		>"src/$2-$3/debian/extras.yaml" &&
	(cd src && dpkg-source -b "$2-$3" >/dev/null) &&
	sign "$1" "src/${2}_$3.dsc" "store/incoming/${2}_$3.dsc" &&
	cp "src/${2}_$3.tar.xz" store/incoming/
}

# published_review_command UPLOAD: the command of the review step of
# UPLOAD's job, which extras-store run's output in out says was published,
# as the job's JSON report has it.
published_review_command () {
	prc_job=$(sed -n "s/^extras-store: job \([0-9]*\) ($1): published; .*/\1/p" out) &&
	python3 - "store/reports/$prc_job.json" <<-\PY
	import json, sys
	r = json.load(open(sys.argv[1]))
	assert r["verdict"] == "published", r["verdict"]
	print([s for s in r["steps"] if s["step"] == "review"][0]["command"])
	PY
}

# store_grant_story DB: alice's gauge declares system-monitor, a reserved
# privilege: refused at review until the operator grants it
# (extras-conflicts grant) for the uploads of gauge's owner, alice; then
# published, the review step passing the grant as extras-review --grant.
# An id granted before its first upload is granted for the uploader the
# operator names: bob, uploading it first, is reviewed without it.
store_grant_story () {
	DB=$1

	test_expect_success 'run: a reserved privilege is refused at review without a grant' '
		upload_privileged alice gauge 1.0 system-monitor &&
		extras-store run -s store >out &&
		grep_q "^extras-store: job [0-9]* (gauge_1.0.dsc): build: ok$" out &&
		grep_q "^extras-store: job [0-9]* (gauge_1.0.dsc): review: refused$" out &&
		grep_q "^extras-store: job [0-9]* (gauge_1.0.dsc): review: .*privilege .system-monitor. is reserved and not allowed here$" out &&
		grep_q "^extras-store: 0 published, 1 refused$" out &&
		job=$(sed -n "s/^extras-store: job \([0-9]*\) (gauge_1.0.dsc): review: refused$/\1/p" out) &&
		python3 - "store/reports/$job.json" <<-\PY &&
		import json, sys
		r = json.load(open(sys.argv[1]))
		review = [s for s in r["steps"] if s["step"] == "review"][0]
		assert review["verdict"] == "refused", review
		assert "--grant" not in review["command"], review["command"]
		PY
		! grep -q gauge store/public/dists/extras/main/binary-*/Packages
	'

	test_expect_success 'grant: a held app.s grant is for its owner.s uploads' '
		expect_status 2 extras-conflicts grant -d "$DB" --owner bob gauge system-monitor 2>err &&
		grep_q "^extras-conflicts: error: app id .gauge. is held by alice, not bob: its grants are for its owner.s uploads$" err &&
		extras-conflicts grant -d "$DB" gauge system-monitor &&
		extras-conflicts grants -d "$DB" gauge >grants &&
		echo "gauge system-monitor alice" >expect && cmp expect grants
	'

	# Granted before the first upload, a grant names its uploader: the
	# first to upload the id holds it, without the grant.
	test_expect_success 'run: an id granted before its first upload does not grant its first taker' '
		expect_status 2 extras-conflicts grant -d "$DB" meter system-monitor 2>err &&
		grep_q "^extras-conflicts: error: app id .meter. is held by nobody yet: name the uploader whose uploads the grant is for (--owner)$" err &&
		extras-conflicts grant -d "$DB" --owner alice meter system-monitor &&
		upload_privileged bob meter 1.0 system-monitor &&
		extras-store run -s store >out &&
		grep_q "^extras-store: job [0-9]* (meter_1.0.dsc): review: grant left out: privilege system-monitor is granted to alice.s uploads, not bob.s$" out &&
		grep_q "^extras-store: job [0-9]* (meter_1.0.dsc): review: refused$" out &&
		grep_q "^extras-store: 0 published, 1 refused$" out &&
		! grep -q meter store/public/dists/extras/main/binary-*/Packages
	'

	test_expect_success 'run: granted by the operator, the next upload is published' '
		upload_privileged alice gauge 1.1 system-monitor &&
		extras-store run -s store >out &&
		grep_q "^extras-store: job [0-9]* (gauge_1.1.dsc): review: ok$" out &&
		grep_q "^extras-store: job [0-9]* (gauge_1.1.dsc): published; report " out &&
		grep_q "^extras-store: 1 published, 0 refused$" out &&
		published_review_command gauge_1.1.dsc >command &&
		grep_q " --grant system-monitor " command &&
		grep_q "^Package: extras-gauge$" store/public/dists/extras/main/binary-*/Packages
	'
}

# store_stale_grant_story DB: a grant the templates no longer hold
# reserved (here one they never had, written into the SQLite registry of DB
# directly, as a grant of a privilege whose template went) is left out of
# the review, said, and the upload published.
store_stale_grant_story () {
	DB=$1

	test_expect_success 'run: a grant the templates no longer know is left out, said, and the upload published' '
		python3 - "$DB/claims.sqlite" <<-\PY &&
		import sqlite3, sys
		db = sqlite3.connect(sys.argv[1])
		db.execute("INSERT INTO grants (app, privilege, owner, granted) VALUES (?, ?, ?, ?)",
		           ("gauge", "gone-privilege", "alice", "2026-01-01T00:00:00Z"))
		db.commit()
		PY
		extras-conflicts grants -d "$DB" gauge >grants &&
		grep_q "gone-privilege" grants &&
		upload_privileged alice gauge 1.2 system-monitor &&
		extras-store run -s store >out &&
		grep_q "^extras-store: job [0-9]* (gauge_1.2.dsc): review: grant left out: granted privilege .gone-privilege. is unknown; extras-conflicts revoke drops it$" out &&
		grep_q "^extras-store: job [0-9]* (gauge_1.2.dsc): review: ok$" out &&
		grep_q "^extras-store: 1 published, 0 refused$" out &&
		published_review_command gauge_1.2.dsc >command &&
		grep_q " --grant system-monitor " command &&
		! grep -q "gone-privilege" command
	'
}
