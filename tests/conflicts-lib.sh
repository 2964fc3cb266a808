# conflicts-lib.sh: the extras-conflicts story, told against one registry.
#
# Source it after lib.sh, then call conflicts_story DB: conflicts.t runs
# it against a directory (SQLite and index files), conflicts-pg.t against
# a PostgreSQL server it starts.

# make_deb FILE PACKAGE SOURCE PATH...: a binary package shipping empty
# files at each PATH ("PATH->TARGET" makes a symlink).
make_deb () {
	out=$1 package=$2 source=$3
	shift 3 &&
	tree=$(mktemp -d "$TRASH/tree.XXXXXX") &&
	mkdir -p "$tree/DEBIAN" &&
	cat > "$tree/DEBIAN/control" <<-EOF &&
	Package: $package
	Source: $source
	Version: 1.0-1
	Architecture: all
	Maintainer: Test <test@example.org>
	Description: a test package
	EOF
	# More control fields ("Replaces: figlet"), one a line.
	if [ -n "${DEB_FIELDS:-}" ]; then
		printf '%s\n' "$DEB_FIELDS" >> "$tree/DEBIAN/control"
	fi &&
	# The declaration, as dh_extras_declare installs it.
	if [ -n "${DEB_DECLARATION:-}" ]; then
		printf '%s\n' "$DEB_DECLARATION" > "$tree/DEBIAN/extras.yaml"
	fi &&
	for p in "$@"; do
		case $p in
		*'->'*)
			link=${p%%->*}
			mkdir -p "$tree/$(dirname "$link")" &&
			ln -s "${p#*->}" "$tree/$link" ;;
		*)
			mkdir -p "$tree/$(dirname "$p")" &&
			: > "$tree/$p" ;;
		esac || return 1
	done &&
	dpkg-deb --root-owner-group --build "$tree" "$out" >/dev/null 2>&1 &&
	rm -rf "$tree"
}

# make_changes FILE DEB...: a .changes listing the DEBs (beside it), of
# source $SOURCE (extras-foo) version $VERSION (1.0-1).
make_changes () {
	out=$1
	shift &&
	{
		printf 'Format: 1.8\nSource: %s\nVersion: %s\n' \
			"${SOURCE:-extras-foo}" "${VERSION:-1.0-1}" &&
		printf 'Files:\n' &&
		for d in "$@"; do
			printf ' %s %s misc optional %s\n' \
				"$(md5sum < "$d" | cut -d' ' -f1)" \
				"$(stat -c %s "$d")" "$(basename "$d")" || return 1
		done &&
		printf 'Checksums-Sha256:\n' &&
		for d in "$@"; do
			printf ' %s %s %s\n' \
				"$(sha256sum < "$d" | cut -d' ' -f1)" \
				"$(stat -c %s "$d")" "$(basename "$d")" || return 1
		done
	} > "$out"
}

# The fixtures every story uses.
conflicts_fixtures () {
	cat > Contents-main <<-'EOF' &&
	This file maps each file available in the archive system to
	the package from which it originates.

	FILE                                                    LOCATION
	usr/bin/hello                                           devel/hello
	usr/share/doc/hello/copyright                           devel/hello,universe/devel/hello-traditional
	usr/share/applications/extras-taken.desktop             x11/not-extras
	usr/share/dbus-1/services/My Service.service            universe/misc/mine-service
	usr/share/doc/extras-hello/copyright                    misc/extras-hello
	lonelyword
	usr/bin/x                                               Not!A/Package
	EOF
	printf '%s\t%s\n' \
		usr/share/icons/hicolor/48x48/apps/extras-bar.png graphics/icons-bar \
		usr/share/metainfo/org.example.Archived.metainfo.xml x11/archived \
		usr/share/applications/viewer.desktop x11/viewer \
		> Contents-extra &&

	ns=opt/extras.ubuntu.com &&
	make_deb foo.deb extras-foo extras-foo \
		$ns/foo/bin/foo $ns/foo/share/foo/data \
		usr/share/applications/extras-foo.desktop \
		usr/share/doc/extras-foo/changelog.gz \
		"usr/bin/extras-foo->/$ns/foo/bin/foo" &&
	make_deb foo-data.deb extras-foo-data extras-foo \
		$ns/foo/share/foo/more usr/share/doc/extras-foo-data/copyright &&
	make_deb clash.deb extras-clash extras-clash \
		$ns/clash/bin/clash usr/bin/hello \
		"usr/share/dbus-1/services/My Service.service" \
		usr/share/applications/extras-taken.desktop &&
	make_deb hello.deb extras-hello extras-hello $ns/hello/bin/hello \
		usr/share/doc/extras-hello/copyright &&
	make_deb bar.deb extras-bar extras-bar $ns/bar/bin/bar \
		usr/share/applications/extras-foo.desktop \
		usr/share/icons/hicolor/48x48/apps/extras-bar.png &&
	make_deb rooted.deb extras-baz extras-baz \
		usr/lib/extras/baz/bin/baz usr/lib/extras/baz/lib/x.so \
		usr/share/applications/extras-baz.desktop \
		usr/share/doc/extras-hello/copyright &&
	make_changes foo.changes foo.deb foo-data.deb
}

# conflicts_story DB: index, check, claim, release and list against DB.
conflicts_story () {
	DB=$1

	test_expect_success 'index: header, sections, spaces, bad lines' '
		extras-conflicts index --archive main -d "$DB" Contents-main >out &&
		grep_q "^main: 5 paths indexed from 1 file(s), 2 line(s) ignored" out
	'

	test_expect_success 'index: a second archive, label from the file name' '
		gzip -k Contents-extra &&
		extras-conflicts index -d "$DB" Contents-extra.gz >out &&
		grep_q "^Contents-extra: 3 paths indexed" out
	'

	test_expect_success 'check: a package without conflicts' '
		extras-conflicts check -d "$DB" foo-data.deb >out &&
		test ! -s out
	'

	test_expect_success 'check: names and files of archive packages (not its own)' '
		expect_status 1 extras-conflicts check -d "$DB" clash.deb \
			hello.deb >out &&
		grep_q "^clash.deb: file /usr/share/dbus-1/services/My Service.service is shipped by mine-service in archive main$" out &&
		grep_q "^clash.deb: file /usr/share/applications/extras-taken.desktop is shipped by not-extras in archive main$" out &&
		grep_q "^hello.deb: package name extras-hello exists in archive main$" out &&
		grep_q "^hello.deb: package name hello exists in archive main$" out &&
		grep_q "^clash.deb: file /usr/bin/hello is shipped by hello in archive main$" out &&
		test $(wc -l < out) = 5
	'

	test_expect_success 'check: every file, and a file where a directory is' '
		printf "usr/bin/only-here\tutils/lonely\nusr/share/doc/hello/x\tdoc/lonely\n" \
			> Contents-lonely &&
		extras-conflicts index --archive lonely -d "$DB" Contents-lonely >out &&
		grep_q "^lonely: 2 paths indexed from 1 file(s), 0 line(s) ignored$" out &&
		make_deb lonely.deb extras-lonely extras-lonely \
			usr/bin/only-here usr/share/doc/hello &&
		expect_status 1 extras-conflicts check -d "$DB" lonely.deb >out &&
		grep_q "^lonely.deb: package name lonely exists in archive lonely$" out &&
		grep_q "^lonely.deb: file /usr/bin/only-here is shipped by lonely in archive lonely$" out &&
		grep_q "^lonely.deb: file /usr/share/doc/hello is a directory in archive lonely$" out &&
		grep_q "^lonely.deb: file /usr/share/doc/hello is a directory in archive main$" out &&
		test $(wc -l < out) = 4
	'

	test_expect_success 'check: the root is found from the files' '
		expect_status 1 extras-conflicts check -d "$DB" rooted.deb >out &&
		grep_q "^rooted.deb: file /usr/share/doc/extras-hello/copyright is shipped by extras-hello in archive main$" out &&
		test $(wc -l < out) = 1 &&
		expect_status 1 extras-conflicts claim -d "$DB" --owner carol \
			rooted.deb 2>err &&
		grep_q "^baz: file /usr/share/doc/extras-hello/copyright is shipped by extras-hello in archive main$" err &&
		make_deb rooted-own.deb extras-baz extras-baz \
			usr/lib/extras/baz/bin/baz usr/lib/extras/baz/lib/x.so \
			usr/share/applications/extras-baz.desktop &&
		extras-conflicts claim -d "$DB" --owner carol rooted-own.deb >out &&
		grep_q "^baz: claimed by carol (1 package(s), 1 exported path(s))" out &&
		extras-conflicts claim -d "$DB" --owner carol \
			--root /opt/extras.ubuntu.com rooted-own.deb >out &&
		grep_q "^baz: claimed by carol (1 package(s), 3 exported path(s))" out &&
		extras-conflicts release -d "$DB" --owner carol baz
	'

	test_expect_success 'check --json: the report' '
		expect_status 1 extras-conflicts check -d "$DB" --json report.json \
			clash.deb >/dev/null &&
		python3 -c "
import json, sys
r = json.load(open(\"report.json\"))
assert [(p[\"package\"], p[\"app\"], p[\"root\"]) for p in r[\"packages\"]] == \\
    [(\"extras-clash\", \"clash\", \"/opt/extras.ubuntu.com\")], r
d = \"/usr/share/applications/extras-taken.desktop\"
c = [x for x in r[\"conflicts\"] if x[\"name\"] == d][0]
assert c == {\"file\": \"clash.deb\", \"package\": \"extras-clash\",
             \"kind\": \"file\", \"name\": d,
             \"archive\": \"main\", \"other\": \"not-extras\", \"owner\": None,
             \"message\": \"file \" + d + \" is shipped by not-extras in archive main\"}, c
"
	'

	test_expect_success 'check: a .changes and its packages' '
		expect_status 0 extras-conflicts check -d "$DB" foo.changes
	'

	test_expect_success 'claim: first come' '
		extras-conflicts claim -d "$DB" --owner alice foo.changes >out &&
		grep_q "^foo: claimed by alice (2 package(s), 4 exported path(s))" out
	'

	test_expect_success 'claim: the same owner again replaces the claim' '
		extras-conflicts claim -d "$DB" --owner alice foo.deb >out &&
		grep_q "^foo: claimed by alice (1 package(s), 3 exported path(s))" out &&
		extras-conflicts claim -d "$DB" --owner alice foo.changes
	'

	test_expect_success 'claim: another owner is refused, nothing recorded' '
		expect_status 1 extras-conflicts claim -d "$DB" --owner bob \
			foo.deb 2>err &&
		grep_q "^foo: app id foo is owned by alice$" err &&
		extras-conflicts list -d "$DB" >out &&
		grep_q "^foo	alice	" out &&
		! grep -q bob out
	'

	test_expect_success 'check: the app id of another owner' '
		expect_status 1 extras-conflicts check -d "$DB" --owner bob \
			foo-data.deb >out &&
		grep_q "^foo-data.deb: app id foo is owned by alice$" out &&
		expect_status 0 extras-conflicts check -d "$DB" --owner alice \
			foo.changes
	'

	test_expect_success 'check and claim: a file another app claimed' '
		expect_status 1 extras-conflicts check -d "$DB" --owner bob \
			bar.deb >out &&
		grep_q "^bar.deb: file /usr/share/applications/extras-foo.desktop is claimed by app foo (owner alice)$" out &&
		grep_q "^bar.deb: file /usr/share/icons/hicolor/48x48/apps/extras-bar.png is shipped by icons-bar in archive Contents-extra$" out &&
		expect_status 1 extras-conflicts claim -d "$DB" --owner bob \
			bar.deb 2>err &&
		grep_q "^bar: file /usr/share/applications/extras-foo.desktop is claimed by app foo (owner alice)$" err &&
		extras-conflicts list -d "$DB" >out &&
		! grep -q "^bar" out
	'

	test_expect_success 'list: claims with packages and files' '
		extras-conflicts list -d "$DB" --owner alice >out &&
		grep_q "^	package	extras-foo-data$" out &&
		grep_q "^	file	/usr/bin/extras-foo$" out &&
		grep_q "^	file	/usr/share/doc/extras-foo-data/copyright$" out &&
		! grep -q "opt/extras" out
	'

	test_expect_success 'release: only by the owner; the app.s grants go with it' '
		extras-conflicts grant -d "$DB" foo user-files &&
		expect_status 1 extras-conflicts release -d "$DB" --owner bob foo &&
		extras-conflicts grants -d "$DB" >out &&
		echo "foo user-files alice" >expect &&
		diff -u expect out &&
		extras-conflicts release -d "$DB" --owner alice foo &&
		extras-conflicts list -d "$DB" >out &&
		test ! -s out &&
		extras-conflicts grants -d "$DB" >out &&
		test ! -s out &&
		expect_status 0 extras-conflicts check -d "$DB" --owner bob \
			foo-data.deb
	'

	test_expect_success 'claim: two owners at once, one wins' '
		for i in 1 2 3 4 5; do
			make_deb race$i.deb extras-race$i extras-race$i \
				opt/extras.ubuntu.com/race$i/x usr/share/applications/extras-race$i.desktop ||
				return 1
			( st=0; extras-conflicts claim -d "$DB" --owner alice \
				race$i.deb >/dev/null 2>a.err || st=$?; echo $st > a.st ) &
			( st=0; extras-conflicts claim -d "$DB" --owner bob \
				race$i.deb >/dev/null 2>b.err || st=$?; echo $st > b.st ) &
			wait &&
			test "$(cat a.st)$(cat b.st)" = 01 ||
				test "$(cat a.st)$(cat b.st)" = 10 ||
				{ cat a.err b.err; exit 1; } &&
			grep -q "app id race$i is owned by" a.err b.err &&
			extras-conflicts list -d "$DB" > out &&
			test $(grep -c "^race$i	" out) = 1 || return 1
		done
	'

	test_expect_success 'claim: two apps, one exported file, one wins' '
		make_deb one.deb extras-one extras-one usr/share/applications/shared.desktop &&
		make_deb two.deb extras-two extras-two usr/share/applications/shared.desktop ||
			return 1
		( st=0; extras-conflicts claim -d "$DB" --owner alice one.deb \
			>/dev/null 2>a.err || st=$?; echo $st > a.st ) &
		( st=0; extras-conflicts claim -d "$DB" --owner bob two.deb \
			>/dev/null 2>b.err || st=$?; echo $st > b.st ) &
		wait &&
		test "$(cat a.st)$(cat b.st)" = 01 || test "$(cat a.st)$(cat b.st)" = 10 &&
		test $(extras-conflicts list -d "$DB" | grep -c shared.desktop) = 1
	'

	# extras-review names a session service's file after its bus name:
	# the name is held with the path, first come, first served.
	test_expect_success 'claim: a bus name another app holds' '
		make_deb tool.deb extras-tool extras-tool \
			usr/share/dbus-1/services/org.example.Tool.service &&
		make_deb squat.deb extras-squat extras-squat \
			usr/share/dbus-1/services/org.example.Tool.service &&
		extras-conflicts claim -d "$DB" --owner alice tool.deb &&
		expect_status 1 extras-conflicts check -d "$DB" --owner bob \
			squat.deb >out &&
		grep_q "^squat.deb: file /usr/share/dbus-1/services/org.example.Tool.service is claimed by app tool (owner alice)$" out &&
		expect_status 1 extras-conflicts claim -d "$DB" --owner bob \
			squat.deb 2>err &&
		! extras-conflicts list -d "$DB" | grep -q "^squat"
	'

	# extras-review lets an app use a name it declares: one another
	# app's export or an archive's file holds is refused here.
	test_expect_success 'check: declared names held by an archive or another app' '
		DEB_DECLARATION="$(printf "app: decl\nbus-names: [org.example.Tool, org.example.Free]\nids: [org.example.Archived, org.example.Free, viewer.desktop]")" \
			make_deb decl.deb extras-decl extras-decl \
			opt/extras.ubuntu.com/decl/bin/decl &&
		expect_status 1 extras-conflicts check -d "$DB" --owner bob \
			--json decl.json decl.deb >out &&
		grep_q "^decl.deb: declared name org.example.Tool is held by /usr/share/dbus-1/services/org.example.Tool.service of app tool (owner alice)$" out &&
		grep_q "^decl.deb: declared name org.example.Archived is held by /usr/share/metainfo/org.example.Archived.metainfo.xml, shipped by archived in archive Contents-extra$" out &&
		grep_q "^decl.deb: declared name viewer.desktop is held by /usr/share/applications/viewer.desktop, shipped by viewer in archive Contents-extra$" out &&
		test "$(grep -c "declared name" out)" = 3 &&
		grep_q "\"kind\":\"name\"" decl.json &&
		grep_q "\"path\":\"/usr/share/dbus-1/services/org.example.Tool.service\"" decl.json &&
		expect_status 1 extras-conflicts claim -d "$DB" --owner bob decl.deb 2>err &&
		DEB_DECLARATION="$(printf "app: decl\nbus-names: [org.example.Free]\nids: [org.example.Free]")" \
			make_deb decl.deb extras-decl extras-decl \
			opt/extras.ubuntu.com/decl/bin/decl &&
		extras-conflicts check -d "$DB" --owner bob decl.deb
	'

	test_expect_success 'index: re-indexing a label replaces it' '
		printf "usr/share/doc/extras-other/copyright\tutils/other\n" | xz > Contents-new.xz &&
		extras-conflicts index --archive main -d "$DB" Contents-new.xz &&
		expect_status 0 extras-conflicts check -d "$DB" hello.deb &&
		make_deb other.deb extras-other extras-other \
			usr/share/doc/extras-other/copyright &&
		expect_status 1 extras-conflicts check -d "$DB" other.deb >out &&
		grep_q "is shipped by other in archive main" out
	'

	test_expect_success 'bad input: one line naming the file, status 2' '
		head -c 300 foo.deb > cut.deb &&
		expect_status 2 extras-conflicts check -d "$DB" cut.deb 2>err &&
		test $(wc -l < err) = 1 && grep_q "^extras-conflicts: error: cut.deb: " err &&
		mkdir -p upload && cp foo.changes foo-data.deb upload/ &&
		cp cut.deb upload/foo.deb &&
		expect_status 2 extras-conflicts check -d "$DB" upload/foo.changes 2>err &&
		grep_q "^extras-conflicts: error: upload/foo.changes: size of .foo.deb. is not " err &&
		expect_status 2 extras-conflicts check -d "$DB" nonexistent.deb &&
		gzip -c Contents-main | head -c 60 > bad.gz &&
		expect_status 2 extras-conflicts index -d "$DB" --archive x bad.gz 2>err &&
		grep_q "^extras-conflicts: error: bad.gz: " err &&
		expect_status 2 extras-conflicts index -d "$DB" --archive "a/b" \
			Contents-main &&
		expect_status 2 extras-conflicts claim -d "$DB" foo.deb &&
		expect_status 2 extras-conflicts frobnicate
	'
}

# The keys of the upload story: alice and bob in the store's keyring,
# mallory not; all made here, in the scratch directory.
accept_fixtures () {
	GNUPGHOME=$TRASH/gnupg &&
	export GNUPGHOME &&
	mkdir -m 700 "$GNUPGHOME" &&
	for who in alice bob mallory; do
		gpg --batch --passphrase '' --quick-gen-key \
			"$who <$who@example.org>" default default never \
			>/dev/null 2>&1 || return 1
	done &&
	gpg --batch --export alice@example.org bob@example.org > keyring.gpg &&
	alice=$(fpr alice) bob=$(fpr bob) &&

	# Real Contents lines: a slice of the system's bookworm Contents
	# when apt-file fetched them, else the same slice kept in the tree.
	lists=$(ls /var/lib/apt/lists/*_dists_bookworm_main_Contents-all.lz4 \
		/var/lib/apt/lists/*_dists_bookworm_main_Contents-amd64.lz4 \
		2>/dev/null || true) &&
	if [ -n "$lists" ]; then
		lz4cat $lists | grep -E \
			'[ ,/](figlet|toilet|hello|sl)(,|$)' > Contents-bookworm ||
			test $? = 1
	fi &&
	if ! grep -q "^usr/bin/figlet-figlet " Contents-bookworm 2>/dev/null; then
		cp "$TOP/tests/fixtures/contents/bookworm-slice" Contents-bookworm
	fi &&

	ns=opt/extras.ubuntu.com &&
	make_deb birds.deb extras-birds extras-birds $ns/birds/bin/birds \
		usr/share/applications/extras-birds.desktop &&
	make_deb swift.deb extras-swift extras-swift $ns/swift/bin/swift &&
	make_deb myfiglet.deb myfiglet myfiglet usr/bin/figlet-figlet \
		usr/share/doc/myfiglet/copyright &&
	DEB_FIELDS="Replaces: figlet" make_deb myfiglet-r.deb myfiglet \
		myfiglet usr/bin/figlet-figlet usr/share/doc/myfiglet/copyright
}

# fpr WHO: the primary key fingerprint of WHO's key.
fpr () {
	gpg --batch --with-colons --list-keys "$1@example.org" 2>/dev/null |
		awk -F: '/^fpr/ { print $10; exit }'
}

# upload NAME SIGNER SOURCE VERSION DEB...: NAME.changes signed by SIGNER
# (none: unsigned), in a directory of its own with its packages.
upload () {
	name=$1 signer=$2 src=$3 ver=$4
	shift 4 &&
	mkdir -p "$name" &&
	for d in "$@"; do cp "$d" "$name/" || return 1; done &&
	(cd "$name" && SOURCE=$src VERSION=$ver make_changes plain.changes \
		$(for d in "$@"; do basename "$d"; done)) &&
	sign "$signer" "$name/plain.changes" "$name/$name.changes"
}

# source_upload DIR SIGNER SOURCE VERSION BINARY...: DIR/SOURCE_VERSION.dsc,
# a source-only upload signed by SIGNER naming BINARY packages in Binary
# and Package-List ($PACKAGE_LIST overrides the latter's names).
source_upload () {
	dir=$1 signer=$2 src=$3 ver=$4
	shift 4 &&
	mkdir -p "$dir" &&
	t=${src}_${ver%-*}.orig.tar.xz &&
	echo "$src" > "$dir/$t" &&
	{
		printf "Format: 3.0 (quilt)\nSource: %s\nVersion: %s\n" "$src" "$ver" &&
		printf "Binary: %s\n" "$(echo "$@" | sed "s/ /, /g")" &&
		printf "Package-List:\n" &&
		for b in ${PACKAGE_LIST:-$@}; do
			printf " %s deb misc optional arch=any\n" "$b" || return 1
		done &&
		printf "Files:\n %s %s %s\n" "$(md5sum < "$dir/$t" | cut -d" " -f1)" \
			"$(stat -c %s "$dir/$t")" "$t" &&
		printf "Checksums-Sha256:\n %s %s %s\n" \
			"$(sha256sum < "$dir/$t" | cut -d" " -f1)" "$(stat -c %s "$dir/$t")" "$t"
	} > "$dir/plain.dsc" &&
	sign "$signer" "$dir/plain.dsc" "$dir/${src}_$ver.dsc" &&
	rm "$dir/plain.dsc"
}

# sign SIGNER IN OUT: clear-sign IN as SIGNER into OUT (none: copy).
sign () {
	if [ "$1" = none ]; then
		cp "$2" "$3"
	else
		gpg --batch --yes --local-user "$1@example.org" --clearsign \
			-o "$3" "$2"
	fi
}

# accept_story DB: uploaders, signatures, ownership, replays.
accept_story () {
	DB=$1

	test_expect_success 'accept: index real Contents' '
		extras-conflicts index --archive bookworm -d "$DB" \
			--json index.json Contents-bookworm >out &&
		grep_q "^bookworm: [0-9]* paths indexed from 1 file(s), 0 line(s) ignored$" out &&
		python3 -c "
import json
r = json.load(open(\"index.json\"))
assert r[\"archive\"] == \"bookworm\" and r[\"paths\"] >= 150, r
assert r[\"directories\"] > 10 and r[\"ignored\"] == 0, r
assert r[\"files\"] == [\"Contents-bookworm\"], r
"
	'

	test_expect_success 'uploader add and list' '
		extras-conflicts uploader add -d "$DB" --fingerprint "$alice" alice >out &&
		grep_q "^alice: key $alice registered$" out &&
		lower=$(echo "$bob" | tr A-F a-f) &&
		extras-conflicts uploader add -d "$DB" --fingerprint "$lower" bob &&
		extras-conflicts uploader add -d "$DB" --fingerprint "$alice" alice &&
		expect_status 1 extras-conflicts uploader add -d "$DB" \
			--fingerprint "$alice" mallory 2>err &&
		grep_q "key already registered to alice" err &&
		expect_status 2 extras-conflicts uploader add -d "$DB" \
			--fingerprint 1234 x &&
		extras-conflicts uploader list -d "$DB" --json uploaders.json >out &&
		grep_q "^alice	$alice	" out &&
		grep_q "^bob	$bob	" out &&
		test $(wc -l < out) = 2 &&
		python3 -c "
import json
u = json.load(open(\"uploaders.json\"))
assert [x[\"name\"] for x in u] == [\"alice\", \"bob\"], u
"
	'

	test_expect_success 'accept: first come, first served' '
		upload a1 alice extras-birds 1.0-1 birds.deb &&
		extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			a1/a1.changes >out &&
		grep_q "^a1/a1.changes: accepted: extras-birds 1.0-1 (app birds) from alice, key $alice$" out &&
		extras-conflicts list -d "$DB" --json list.json >out &&
		grep_q "^birds	alice	" out &&
		grep_q "^	file	/usr/share/applications/extras-birds.desktop$" out &&
		python3 -c "
import json
c = [x for x in json.load(open(\"list.json\")) if x[\"app\"] == \"birds\"][0]
assert c[\"owner\"] == \"alice\" and c[\"packages\"] == [\"extras-birds\"], c
assert c[\"files\"] == [\"/usr/share/applications/extras-birds.desktop\"], c
"
	'

	test_expect_success 'accept: a replayed upload is refused' '
		expect_status 1 extras-conflicts accept -d "$DB" \
			--keyring keyring.gpg a1/a1.changes >out &&
		grep_q "^a1/a1.changes: refused: version 1.0-1 of birds is not newer than 1.0-1, the last accepted$" out &&
		upload a0 alice extras-birds 1.0~rc1-1 birds.deb &&
		expect_status 1 extras-conflicts accept -d "$DB" \
			--keyring keyring.gpg a0/a0.changes >out &&
		grep_q "refused: version 1.0~rc1-1 of birds is not newer than 1.0-1" out
	'

	test_expect_success 'accept: a name another uploader holds is refused' '
		upload b1 bob extras-birds 2.0-1 birds.deb &&
		expect_status 1 extras-conflicts accept -d "$DB" \
			--keyring keyring.gpg --json b1.json b1/b1.changes >out &&
		grep_q "^b1/b1.changes: refused: app id birds is owned by alice$" out &&
		python3 -c "
import json
r = json.load(open(\"b1.json\"))
assert r[\"accepted\"] is False and r[\"signature\"] is True, r
assert r[\"uploader\"] == \"bob\" and r[\"app\"] == \"birds\", r
assert r[\"fingerprint\"] == \"$bob\", r
assert r[\"packages\"] == [\"extras-birds\"], r
assert \"app id birds is owned by alice\" in r[\"reasons\"], r
assert r[\"identity\"] is None, r
" &&
		extras-conflicts list -d "$DB" >out &&
		grep_q "^birds	alice	" out
	'

	test_expect_success 'accept: a bad signature is refused' '
		upload bad alice extras-birds 3.0-1 birds.deb &&
		sed -i "s/^Version: 3.0-1$/Version: 9.0-1/" bad/bad.changes &&
		expect_status 1 extras-conflicts accept -d "$DB" \
			--keyring keyring.gpg bad/bad.changes >out &&
		grep_q "^bad/bad.changes: refused: bad signature$" out
	'

	test_expect_success 'accept: an unsigned upload is refused' '
		upload none none extras-birds 3.0-1 birds.deb &&
		expect_status 1 extras-conflicts accept -d "$DB" \
			--keyring keyring.gpg --json none.json none/none.changes >out &&
		grep_q "^none/none.changes: refused: not signed$" out &&
		python3 -c "
import json
r = json.load(open(\"none.json\"))
assert r[\"signature\"] is False and r[\"source\"] is None, r
"
	'

	test_expect_success 'accept: a key outside the keyring is refused' '
		upload m mallory extras-birds 3.0-1 birds.deb &&
		expect_status 1 extras-conflicts accept -d "$DB" \
			--keyring keyring.gpg m/m.changes >out &&
		grep_q "^m/m.changes: refused: signed by a key not in the keyring$" out
	'

	test_expect_success 'accept: a plain package clashing on a real path' '
		upload f1 bob myfiglet 1.0-1 myfiglet.deb &&
		expect_status 1 extras-conflicts accept -d "$DB" \
			--keyring keyring.gpg f1/f1.changes >out &&
		grep_q "^f1/f1.changes: refused: file /usr/bin/figlet-figlet is shipped by figlet in archive bookworm$" out &&
		test $(wc -l < out) = 1 &&
		expect_status 1 extras-conflicts check -d "$DB" myfiglet.deb >out &&
		grep_q "^myfiglet.deb: file /usr/bin/figlet-figlet is shipped by figlet in archive bookworm$" out
	'

	test_expect_success 'accept: Replaces lets a package take a file over' '
		upload f2 bob myfiglet 1.0-2 myfiglet-r.deb &&
		extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			f2/f2.changes >out &&
		grep_q "accepted: myfiglet 1.0-2 (app myfiglet) from bob" out
	'

	test_expect_success 'accept: a source-only upload keeps the claim' '
		mkdir -p s && echo data > s/extras-birds_2.0.orig.tar.xz &&
		t=extras-birds_2.0.orig.tar.xz &&
		{
			printf "Format: 3.0 (quilt)\nSource: extras-birds\nBinary: birds\nVersion: 2.0-1\n" &&
			printf "Files:\n %s %s %s\n" "$(md5sum < s/$t | cut -d" " -f1)" \
				"$(stat -c %s s/$t)" "$t" &&
			printf "Checksums-Sha256:\n %s %s %s\n" \
				"$(sha256sum < s/$t | cut -d" " -f1)" "$(stat -c %s s/$t)" "$t"
		} > s/plain.dsc &&
		sign alice s/plain.dsc s/extras-birds_2.0-1.dsc &&
		extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			s/extras-birds_2.0-1.dsc >out &&
		grep_q "accepted: extras-birds 2.0-1 (app birds) from alice" out &&
		extras-conflicts list -d "$DB" >out &&
		grep_q "^	package	extras-birds$" out &&
		expect_status 1 extras-conflicts accept -d "$DB" \
			--keyring keyring.gpg s/extras-birds_2.0-1.dsc
	'

	test_expect_success 'accept: an app id naming another program.s files' '
		source_upload p alice extras-showfigfonts 1.0-1 showfigfonts &&
		expect_status 1 extras-conflicts accept -d "$DB" \
			--keyring keyring.gpg p/extras-showfigfonts_1.0-1.dsc >out &&
		grep_q "refused: app id showfigfonts is the name of /usr/bin/showfigfonts in archive bookworm: that program.s files in the user.s home (~/.showfigfonts, ~/.config/showfigfonts ...) would be in its profile.s reach$" out &&
		source_upload e alice extras-emacs 1.0-1 emacs &&
		expect_status 1 extras-conflicts accept -d "$DB" --json e.json \
			--keyring keyring.gpg e/extras-emacs_1.0-1.dsc >out &&
		grep_q "refused: app id emacs is the name of /usr/share/emacs in archive bookworm" out &&
		source_upload c alice extras-config 1.0-1 config &&
		expect_status 1 extras-conflicts accept -d "$DB" \
			--keyring keyring.gpg c/extras-config_1.0-1.dsc >out &&
		grep_q "refused: app id config is reserved: the name holds the XDG configuration directory (~/.config) (templates/identity/reserved-apps)$" out &&
		source_upload g alice extras-google-chrome 1.0-1 google-chrome &&
		expect_status 1 extras-conflicts accept -d "$DB" \
			--keyring keyring.gpg g/extras-google-chrome_1.0-1.dsc >out &&
		grep_q "refused: app id google-chrome is reserved: the name holds Google Chrome.s profile" out &&
		extras-conflicts list -d "$DB" >out &&
		! grep -e "^showfigfonts	" -e "^emacs	" -e "^config	" \
			-e "^google-chrome	" out &&
		python3 -c "
import json
r = json.load(open(\"e.json\"))
assert r[\"accepted\"] is False, r
assert [c[\"kind\"] for c in r[\"conflicts\"]] == [\"app\"], r
"
	'

	test_expect_success 'accept: a key in the keyring but no uploader' '
		gpg --batch --export mallory@example.org >> keyring.gpg &&
		expect_status 1 extras-conflicts accept -d "$DB" \
			--keyring keyring.gpg m/m.changes >out &&
		grep_q "^m/m.changes: refused: key $(fpr mallory) is not registered to an uploader$" out
	'

	# race A B: accept A and B at the same moment; one is accepted.
	race () {
		( st=0; extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			$1 >a.out 2>&1 || st=$?; echo $st > a.st ) &
		( st=0; extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			$2 >b.out 2>&1 || st=$?; echo $st > b.st ) &
		wait &&
		test "$(cat a.st)$(cat b.st)" = 01 ||
			test "$(cat a.st)$(cat b.st)" = 10 ||
			{ cat a.out b.out; return 1; }
	}

	test_expect_success 'accept: two uploads at once, one wins' '
		upload r1 alice extras-swift 1.0-1 swift.deb &&
		upload r2 bob extras-swift 1.0-1 swift.deb &&
		race r1/r1.changes r2/r2.changes &&
		cat a.out b.out >both.out &&
		grep_q "refused: app id swift is owned by" both.out &&
		if [ "$(cat a.st)" = 0 ]; then winner=alice; else winner=bob; fi &&
		upload r3 $winner extras-swift 1.1-1 swift.deb &&
		race r3/r3.changes r3/r3.changes &&
		cat a.out b.out >both.out &&
		grep_q "refused: version 1.1-1 of swift is not newer than 1.1-1" both.out
	'

	test_expect_success 'uploader remove: a key, then the uploader; the names stay held' '
		spare=$(printf "%040d" 42) &&
		extras-conflicts uploader add -d "$DB" --fingerprint "$spare" alice &&
		expect_status 1 extras-conflicts uploader remove -d "$DB" \
			--fingerprint "$spare" bob 2>err &&
		grep_q "^bob: key $spare is not registered to bob$" err &&
		extras-conflicts uploader remove -d "$DB" --fingerprint "$spare" alice >out &&
		grep_q "^alice: key $spare removed$" out &&
		grep_q "^alice: still holds .*birds" out &&
		extras-conflicts uploader list -d "$DB" >out &&
		grep_q "^alice	$alice	" out &&
		! grep -q "$spare" out &&
		extras-conflicts uploader remove -d "$DB" alice >out &&
		grep_q "^alice: 1 key removed$" out &&
		grep_q "^alice: still holds .*birds.*: nobody else may claim them; .extras-conflicts release --owner alice APP. frees one$" out &&
		extras-conflicts uploader list -d "$DB" >out &&
		! grep -q "^alice	" out &&
		grep_q "^bob	$bob	" out &&
		expect_status 1 extras-conflicts uploader remove -d "$DB" alice 2>err &&
		grep_q "^alice: no key is registered to alice$" err &&
		upload gone alice extras-birds 7.0-1 birds.deb &&
		expect_status 1 extras-conflicts accept -d "$DB" \
			--keyring keyring.gpg gone/gone.changes >out &&
		grep_q "refused: key $alice is not registered to an uploader$" out &&
		upload take bob extras-birds 7.0-1 birds.deb &&
		expect_status 1 extras-conflicts accept -d "$DB" \
			--keyring keyring.gpg take/take.changes >out &&
		grep_q "refused: app id birds is owned by alice$" out &&
		extras-conflicts uploader add -d "$DB" --fingerprint "$alice" alice &&
		extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			gone/gone.changes >out &&
		grep_q "accepted: extras-birds 7.0-1 (app birds) from alice" out &&
		expect_status 2 extras-conflicts uploader remove -d "$DB" &&
		expect_status 2 extras-conflicts uploader remove -d "$DB" \
			--fingerprint 1234 alice
	'

	# sql STATEMENT: run it on the registry's database.
	sql () {
		case $DB in
		postgres*) psql -q "$DB" -c "$1" ;;
		*) sqlite3 "$DB/claims.sqlite" "$1" ;;
		esac
	}

	test_expect_success 'grant: a registry made before grants gains them' '
		sql "DROP TABLE grants" &&
		extras-conflicts grants -d "$DB" >out &&
		test ! -s out &&
		extras-conflicts grant -d "$DB" --owner alice htop system-monitor >out &&
		grep_q "^htop: privilege system-monitor granted$" out
	'

	# Before grants had an owner: opened, each grant is its app's
	# owner's, an unclaimed app's for nobody until granted again.
	old_grant="INSERT INTO grants (app, privilege, granted) VALUES ('birds', 'user-files', 'then')"
	test_expect_success 'grant: a registry of grants without an owner gains one' '
		sql "ALTER TABLE grants DROP COLUMN owner" &&
		sql "$old_grant" &&
		extras-conflicts grants -d "$DB" >out &&
		printf "%s\n" "birds user-files alice" "htop system-monitor -" >expect &&
		diff -u expect out &&
		sql "DELETE FROM grants"
	'

	test_expect_success 'grant: reserved privileges, to claimed and unclaimed apps' '
		extras-conflicts grant -d "$DB" birds user-files &&
		extras-conflicts grant -d "$DB" --owner alice birds desktop-names &&
		expect_status 2 extras-conflicts grant -d "$DB" --owner bob birds desktop-names 2>err &&
		grep_q "^extras-conflicts: error: app id .birds. is held by alice, not bob: its grants are for its owner.s uploads$" err &&
		expect_status 2 extras-conflicts grant -d "$DB" htop system-monitor 2>err &&
		grep_q "^extras-conflicts: error: app id .htop. is held by nobody yet: name the uploader whose uploads the grant is for (--owner)$" err &&
		extras-conflicts grant -d "$DB" --owner carol htop system-monitor &&
		extras-conflicts grants -d "$DB" --json grants.json >out &&
		printf "%s\n" "birds desktop-names alice" "birds user-files alice" \
			"htop system-monitor carol" >expect &&
		diff -u expect out &&
		extras-conflicts grants -d "$DB" birds >out &&
		printf "%s\n" "birds desktop-names alice" "birds user-files alice" >expect &&
		diff -u expect out &&
		extras-conflicts grants -d "$DB" nobody >out &&
		test ! -s out &&
		python3 -c "
import json, re
g = json.load(open(\"grants.json\"))
assert [(x[\"app\"], x[\"privilege\"], x[\"owner\"]) for x in g] == [
    (\"birds\", \"desktop-names\", \"alice\"), (\"birds\", \"user-files\", \"alice\"),
    (\"htop\", \"system-monitor\", \"carol\")], g
assert all(re.match(r\"^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$\", x[\"granted\"]) for x in g), g
"
	'

	test_expect_success 'grant: an unknown or common privilege, a bad app id: one line, status 2' '
		expect_status 2 extras-conflicts grant -d "$DB" birds netwrok 2>err &&
		grep_q "^extras-conflicts: error: granted privilege .netwrok. is unknown$" err &&
		test $(wc -l <err) = 1 &&
		expect_status 2 extras-conflicts grant -d "$DB" birds network 2>err &&
		grep_q "^extras-conflicts: error: granted privilege .network. is not reserved: any app may declare it$" err &&
		test $(wc -l <err) = 1 &&
		expect_status 2 extras-conflicts grant -d "$DB" birds User-Files 2>err &&
		grep_q "^extras-conflicts: error: privilege .User-Files. may hold only a-z, 0-9 and .-.$" err &&
		test $(wc -l <err) = 1 &&
		expect_status 2 extras-conflicts grant -d "$DB" extras-birds user-files 2>err &&
		grep_q "^extras-conflicts: error: app id .extras-birds. must not itself start with .extras-.$" err &&
		test $(wc -l <err) = 1 &&
		expect_status 2 extras-conflicts grants -d "$DB" Birds 2>err &&
		test $(wc -l <err) = 1 &&
		expect_status 2 extras-conflicts grant -d "$DB" birds &&
		expect_status 2 extras-conflicts grant -d "$DB" birds user-files x &&
		expect_status 2 extras-conflicts grant birds user-files &&
		expect_status 2 extras-conflicts grants -d "$DB" birds htop &&
		extras-conflicts grants -d "$DB" >out &&
		test $(wc -l <out) = 3
	'

	test_expect_success 'revoke: a grant goes; one that does not exist is refused' '
		extras-conflicts revoke -d "$DB" birds user-files >out &&
		grep_q "^birds: privilege user-files revoked$" out &&
		expect_status 1 extras-conflicts revoke -d "$DB" birds user-files 2>err &&
		grep_q "^birds: privilege user-files is not granted$" err &&
		test $(wc -l <err) = 1 &&
		expect_status 1 extras-conflicts revoke -d "$DB" htop user-files 2>err &&
		grep_q "^htop: privilege user-files is not granted$" err &&
		expect_status 2 extras-conflicts revoke -d "$DB" htop &&
		expect_status 2 extras-conflicts revoke -d "$DB" htop Bad 2>err &&
		test $(wc -l <err) = 1 &&
		extras-conflicts grants -d "$DB" >out &&
		printf "%s\n" "birds desktop-names alice" "htop system-monitor carol" >expect &&
		diff -u expect out
	'

	test_expect_success 'accept: bad input' '
		expect_status 2 extras-conflicts accept -d "$DB" \
			--keyring nokeyring.gpg a1/a1.changes 2>err &&
		grep_q "nokeyring.gpg: cannot read keyring" err &&
		upload cut alice extras-birds 5.0-1 birds.deb &&
		echo more >> cut/birds.deb &&
		expect_status 2 extras-conflicts accept -d "$DB" \
			--keyring keyring.gpg cut/cut.changes 2>err &&
		grep_q "^extras-conflicts: error: cut/cut.changes: size of .birds.deb. is not " err &&
		expect_status 2 extras-conflicts accept -d "$DB" a1/a1.changes &&
		expect_status 2 extras-conflicts accept -d "$DB" \
			--keyring keyring.gpg birds.deb
	'
}

# Stop the gpg-agent the story started.
accept_done () {
	gpgconf --kill gpg-agent 2>/dev/null
}
