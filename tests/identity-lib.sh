# identity-lib.sh: one identity from upload to claim, told against one
# registry.  Source it after conflicts-lib.sh (make_deb, make_changes,
# upload, source_upload, sign) and convert-fixture.sh (make_fixture);
# identity.t runs the story against a directory (SQLite), conflicts-pg.t
# against PostgreSQL.
# The keys are accept_fixtures' (alice and bob registered, mallory not).

# The source alice uploads, a real one (greet, greet-data), signed.
identity_fixtures () {
	make_fixture greet-tree "3.0 (quilt)" &&
	mkdir -p greet && cp -a greet-tree greet/greet-1.0 &&
	tar -C greet --exclude=greet-1.0/debian -czf greet/greet_1.0.orig.tar.gz \
		greet-1.0 &&
	(cd greet && dpkg-source -b greet-1.0 >/dev/null 2>&1) &&
	mv greet/greet_1.0-1.dsc greet/plain.dsc &&
	sign alice greet/plain.dsc greet/greet_1.0-1.dsc &&
	ns=opt/extras.ubuntu.com/greet &&
	make_deb greet.deb extras-greet extras-greet $ns/bin/greet \
		usr/share/applications/extras-greet.desktop \
		usr/share/dbus-1/services/org.example.Greet.service \
		usr/share/doc/extras-greet/copyright &&
	make_deb greet-data.deb extras-greet-data extras-greet \
		$ns/share/greet/greeting.txt &&
	make_deb greet-other.deb extras-greet-other extras-greet \
		$ns/share/greet/other &&
	make_deb greet-wrong-source.deb extras-greet-data extras-bobapp \
		$ns/share/greet/greeting.txt
}

# identity_story DB: a second uploader tries to take a first uploader's
# app, package names, exported path and bus name; each is refused at the
# earliest step that can know it, naming the holder.
identity_story () {
	DB=$1

	test_expect_success 'identity: uploaders and an archive' '
		extras-conflicts index --archive bookworm -d "$DB" \
			Contents-bookworm >/dev/null &&
		extras-conflicts uploader add -d "$DB" --fingerprint "$alice" alice &&
		extras-conflicts uploader add -d "$DB" --fingerprint "$bob" bob
	'

	test_expect_success 'identity: a source-only accept claims the app and its package names' '
		extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			--identity greet.id --json greet.json greet/greet_1.0-1.dsc >out &&
		grep_q "accepted: greet 1.0-1 (app greet) from alice" out &&
		python3 -c "
import json
r = json.load(open(\"greet.json\"))
assert r[\"packages\"] == [\"extras-greet\", \"extras-greet-data\"], r
assert r[\"identity\"] == {\"app\": \"greet\", \"source\": \"extras-greet\",
    \"version\": \"1.0-1\", \"uploader\": \"alice\",
    \"packages\": [\"extras-greet\", \"extras-greet-data\"]}, r
" &&
		printf "%s\n" "App: greet" "Source: extras-greet" "Version: 1.0-1" \
			"Uploader: alice" "Packages: extras-greet, extras-greet-data" >expect &&
		diff -u expect greet.id &&
		extras-conflicts list -d "$DB" >out &&
		grep_q "^greet	alice	" out &&
		grep_q "^	package	extras-greet$" out &&
		grep_q "^	package	extras-greet-data$" out
	'

	test_expect_success 'identity: a refused upload writes no identity' '
		expect_status 1 extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			--identity again.id greet/greet_1.0-1.dsc >out &&
		test ! -e again.id
	'

	test_expect_success 'identity: convert takes the accepted source' '
		extras-convert -q --identity greet.id -o greet-out \
			greet/greet_1.0-1.dsc &&
		grep_q "^Binary: extras-greet, extras-greet-data$" \
			greet-out/extras-greet_1.0-1.dsc
	'

	test_expect_success 'identity: convert refuses another package, app or version' '
		cp -a greet-tree t1 &&
		printf "\nPackage: greet-extra\nArchitecture: all\nDescription: x\n more\n" \
			>>t1/debian/control &&
		cp -a t1 t1.before &&
		expect_status 2 extras-convert --identity greet.id t1 2>err &&
		grep_q "^extras-convert: error: debian/control: package extras-greet-extra is not one of app greet.s packages in greet.id$" err &&
		diff -r t1.before t1 &&
		sed "s/^App: greet/App: other/; s/^Source: extras-greet/Source: extras-other/" \
			greet.id >other.id &&
		expect_status 2 extras-convert --identity other.id -o o2 \
			greet/greet_1.0-1.dsc 2>err &&
		grep_q "debian/control: source greet is not app other of other.id$" err &&
		test ! -e o2 &&
		sed "s/^Version: .*/Version: 2.0-1/" greet.id >v2.id &&
		expect_status 2 extras-convert --identity v2.id -o o3 \
			greet/greet_1.0-1.dsc 2>err &&
		grep_q "debian/changelog: version 1.0-1 is not 2.0-1, the version accepted in v2.id$" err
	'

	test_expect_success 'identity: claim takes the identity, refuses what is not in it' '
		expect_status 1 extras-conflicts claim -d "$DB" --identity greet.id \
			greet.deb greet-other.deb 2>err &&
		grep_q "^greet: package extras-greet-other is not one of app greet.s packages in greet.id$" err &&
		expect_status 1 extras-conflicts claim -d "$DB" --identity greet.id \
			greet.deb greet-wrong-source.deb 2>err &&
		grep_q "^greet: greet-wrong-source.deb is built from source extras-bobapp, not extras-greet$" err &&
		expect_status 2 extras-conflicts claim -d "$DB" --identity greet.id \
			--owner bob greet.deb &&
		extras-conflicts claim -d "$DB" --identity greet.id greet.deb \
			greet-data.deb >out &&
		grep_q "^greet: claimed by alice (2 package(s), 3 exported path(s))$" out
	'

	test_expect_success 'identity: bob cannot take alice.s app id' '
		sed "s/^Version: 1.0-1$/Version: 1.0-2/" greet/plain.dsc \
			>greet/plain2.dsc &&
		sign bob greet/plain2.dsc greet/greet_1.0-2.dsc &&
		expect_status 1 extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			greet/greet_1.0-2.dsc >out &&
		grep_q "^greet/greet_1.0-2.dsc: refused: app id greet is owned by alice$" out
	'

	test_expect_success 'identity: bob cannot take alice.s package name' '
		source_upload b1 bob bobapp 1.0-1 bobapp greet-data &&
		expect_status 1 extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			--identity b1.id b1/bobapp_1.0-1.dsc >out &&
		grep_q "^b1/bobapp_1.0-1.dsc: refused: package name extras-greet-data is claimed by app greet (owner alice)$" out &&
		test $(grep -c refused out) = 1 &&
		test ! -e b1.id &&
		extras-conflicts list -d "$DB" >out &&
		! grep -q "^bobapp" out
	'

	test_expect_success 'identity: bob cannot take an app id sharing alice.s export names' '
		source_upload b2 bob greet-extra 1.0-1 greet-extra &&
		expect_status 1 extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			b2/greet-extra_1.0-1.dsc >out &&
		grep_q "^b2/greet-extra_1.0-1.dsc: refused: app id greet-extra would share exported names (extras-greet-extra\*) with app greet (owner alice)$" out &&
		source_upload b3 bob greet.x 1.0-1 greet.x &&
		expect_status 1 extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			b3/greet.x_1.0-1.dsc >out &&
		grep_q "refused: app id greet.x would share exported names (extras-greet.x\*) with app greet (owner alice)$" out &&
		source_upload b4 bob greeter 1.0-1 greeter &&
		extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			b4/greeter_1.0-1.dsc >out &&
		grep_q "accepted: greeter 1.0-1 (app greeter) from bob" out
	'

	test_expect_success 'identity: nor the other way round: a shorter id of bob.s names' '
		source_upload b5 bob chime-bell 1.0-1 chime-bell &&
		extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			b5/chime-bell_1.0-1.dsc >/dev/null &&
		source_upload a5 alice chime 1.0-1 chime &&
		expect_status 1 extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			a5/chime_1.0-1.dsc >out &&
		grep_q "refused: app id chime would share exported names (extras-chime-bell\*) with app chime-bell (owner bob)$" out
	'

	test_expect_success 'identity: claim refuses an app id sharing another owner.s names' '
		make_deb greet-z.deb extras-greet-z extras-greet-z \
			opt/extras.ubuntu.com/greet-z/bin/z &&
		expect_status 1 extras-conflicts claim -d "$DB" --owner bob \
			greet-z.deb 2>err &&
		grep_q "^greet-z: app id greet-z would share exported names (extras-greet-z\*) with app greet (owner alice)$" err &&
		extras-conflicts list -d "$DB" >out &&
		! grep -q "^greet-z" out
	'

	test_expect_success 'identity: two apps sharing export names accepted at once, one wins' '
		source_upload r1 alice duo 1.0-1 duo &&
		source_upload r2 bob duo-x 1.0-1 duo-x || return 1
		( st=0; extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			r1/duo_1.0-1.dsc >a.out 2>&1 || st=$?; echo $st >a.st ) &
		( st=0; extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			r2/duo-x_1.0-1.dsc >b.out 2>&1 || st=$?; echo $st >b.st ) &
		wait &&
		{ test "$(cat a.st)$(cat b.st)" = 01 ||
			test "$(cat a.st)$(cat b.st)" = 10 ||
			{ cat a.out b.out; false; }; } &&
		grep -q "refused: app id duo.* would share exported names (extras-duo-x\*)" a.out b.out
	'

	test_expect_success 'identity: bob cannot take alice.s exported path and bus name' '
		ns=opt/extras.ubuntu.com/bobapp &&
		make_deb bobapp.deb extras-bobapp extras-bobapp $ns/bin/bobapp \
			usr/share/dbus-1/services/org.example.Greet.service \
			usr/share/applications/extras-greet-bob.desktop \
			usr/share/applications/extras-greet.desktop &&
		upload b6 bob extras-bobapp 1.0-1 bobapp.deb &&
		expect_status 1 extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			b6/b6.changes >out &&
		grep_q "^b6/b6.changes: refused: file /usr/share/dbus-1/services/org.example.Greet.service is claimed by app greet (owner alice)$" out &&
		grep_q "^b6/b6.changes: refused: file /usr/share/applications/extras-greet.desktop is claimed by app greet (owner alice)$" out &&
		grep_q "^b6/b6.changes: refused: file /usr/share/applications/extras-greet-bob.desktop lies in the export names of app greet (owner alice)$" out &&
		test $(grep -c refused out) = 3 &&
		expect_status 1 extras-conflicts claim -d "$DB" --owner bob \
			bobapp.deb 2>err &&
		grep_q "^bobapp: file /usr/share/applications/extras-greet-bob.desktop lies in the export names of app greet (owner alice)$" err
	'

	test_expect_success 'identity: archive names are not the store.s to give' '
		source_upload b7 bob sl 1.0-1 sl-extra &&
		expect_status 1 extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			b7/sl_1.0-1.dsc >out &&
		grep_q "refused: app id sl is a package in archive bookworm$" out &&
		source_upload b8 bob bobfig 1.0-1 bobfig figlet &&
		expect_status 1 extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			b8/bobfig_1.0-1.dsc >out &&
		grep_q "refused: package name figlet exists in archive bookworm$" out &&
		test $(grep -c refused out) = 1
	'

	test_expect_success 'identity: an ordinary archive package is no upgrade' '
		make_deb hello-up.deb hello hello usr/bin/hello &&
		upload b9 bob hello 9.0-1 hello-up.deb &&
		expect_status 1 extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			b9/b9.changes >out &&
		grep_q "refused: package name hello exists in archive bookworm$" out &&
		grep_q "refused: file /usr/bin/hello is shipped by hello,hello-traditional in archive bookworm$" out &&
		grep_q "refused: app id hello is a package in archive bookworm$" out &&
		expect_status 1 extras-conflicts check -d "$DB" hello-up.deb >out &&
		grep_q "^hello-up.deb: file /usr/bin/hello is shipped by hello-traditional in archive bookworm$" out &&
		test $(wc -l <out) = 1
	'

	test_expect_success 'identity: a source-only .changes names its packages too' '
		mkdir -p b12 && echo x >b12/bobsrc_1.0.orig.tar.xz &&
		(cd b12 && SOURCE=bobsrc VERSION=1.0-1 make_changes plain.changes \
			bobsrc_1.0.orig.tar.xz) &&
		sign bob b12/plain.changes b12/none.changes &&
		expect_status 2 extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			b12/none.changes 2>err &&
		grep_q "b12/none.changes: lists no binary package and names none in Binary" err &&
		sed -i "s/^Version: 1.0-1$/&\nBinary: bobsrc greet/" b12/plain.changes &&
		sign bob b12/plain.changes b12/bobsrc_1.0-1_source.changes &&
		expect_status 1 extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			--identity b12.id b12/bobsrc_1.0-1_source.changes >out &&
		grep_q "refused: package name extras-greet is claimed by app greet (owner alice)$" out &&
		test ! -e b12.id
	'

	test_expect_success 'identity: Binary and Package-List must agree' '
		PACKAGE_LIST="lister other" source_upload b10 bob lister 1.0-1 lister &&
		expect_status 2 extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			b10/lister_1.0-1.dsc 2>err &&
		grep_q "^extras-conflicts: error: b10/lister_1.0-1.dsc:[0-9]*: Package-List names extras-other, Binary does not$" err &&
		PACKAGE_LIST= source_upload b11 bob lister 1.0-1 "Bad_Name" &&
		expect_status 2 extras-conflicts accept -d "$DB" --keyring keyring.gpg \
			b11/lister_1.0-1.dsc 2>err &&
		grep_q "Binary: package name .Bad_Name.: " err
	'
}
