/* Facts about reading binary packages and .changes files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tests/tap.h"
#include "debian/changes.h"
#include "debian/debfile.h"

static char dir[] = "/tmp/t-debfile.XXXXXX";

static void
sh(const char *fmt, const char *arg)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "cd %s && ", dir);
	snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), fmt, arg);
	if (system(cmd) != 0) {
		printf("Bail out! %s\n", cmd);
		exit(1);
	}
}

static const struct debfile_member *
member(const struct debfile *deb, const char *path)
{
	size_t i;

	for (i = 0; i < deb->nmembers; i++)
		if (strcmp(deb->members[i].path, path) == 0)
			return &deb->members[i];
	return NULL;
}

/* The error reading NAME (in the scratch directory), or NULL. */
static char *
read_error(const char *name, bool changes)
{
	static char msg[1024];
	struct dpkg_error err = DPKG_ERROR_INIT;
	char path[256];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (changes) {
		struct changes ch;

		ret = changes_read(&ch, path, &err);
		if (ret == 0)
			changes_destroy(&ch);
	} else {
		struct debfile deb;

		ret = debfile_read(&deb, path, &err);
		if (ret == 0)
			debfile_destroy(&deb);
	}
	if (ret == 0)
		return NULL;
	/* Drop the scratch directory from the message. */
	snprintf(msg, sizeof(msg), "%s", err.str + strlen(dir) + 1);
	dpkg_error_destroy(&err);
	return msg;
}

static const char control[] =
	"Package: extras-foo\n"
	"Source: extras-foo-src (1:2.0-1)\n"
	"Version: 1:2.0-1+b1\n"
	"Architecture: amd64\n"
	"Maintainer: A <a@example.org>\n"
	"Depends: libc6 (>= 2.36),\n"
	" extras-foo-data (= 1:2.0-1+b1)\n"
	"Description: foo\n"
	" the foo app\n";

static const char changes_script[] =
	"md5=$(md5sum good.deb | cut -d' ' -f1)\n"
	"sha=$(sha256sum good.deb | cut -d' ' -f1)\n"
	"size=$(stat -c %s good.deb)\n"
	"cat > good.changes <<EOF\n"
	"-----BEGIN PGP SIGNED MESSAGE-----\n"
	"Hash: SHA512\n"
	"\n"
	"Format: 1.8\n"
	"Source: extras-foo-src\n"
	"Version: 1:2.0-1\n"
	"Files:\n"
	" $md5 $size misc optional good.deb\n"
	"Checksums-Sha256:\n"
	" $sha $size good.deb\n"
	"-----BEGIN PGP SIGNATURE-----\n"
	"\n"
	"xx\n"
	"-----END PGP SIGNATURE-----\n"
	"EOF\n"
	"sed 's/good.deb/..\\/good.deb/' good.changes > escape.changes\n"
	"sed '/^Checksums-Sha256/,/^-----BEGIN PGP SIGNATURE/{/^-----/!d}' "
	"good.changes > nosha.changes\n"
	"sed \"s/ $sha / $(echo $sha | tr 0-9 1-90) /\" good.changes "
	"> badsum.changes\n"
	"sed 's/^Format:/Source: x\\nFormat:/' good.changes > dup.changes\n"
	"sed '/BEGIN PGP SIGNATURE/,$d' good.changes > unsigned.changes\n";

/* What debfile_path makes of NAME: the path, or "(refused)". */
static const char *
path_of(const char *name)
{
	static char buf[256];
	const char *reason = NULL;
	char *p = debfile_path(name, &reason);

	snprintf(buf, sizeof(buf), "%s", p ? p : "(refused)");
	free(p);
	return buf;
}

static void
build_fixtures(void)
{
	FILE *fp;
	char path[256];

	sh("mkdir -p t/DEBIAN t/opt/extras.ubuntu.com/foo/bin "
	   "t/usr/share/applications%s", "");
	snprintf(path, sizeof(path), "%s/t/DEBIAN/control", dir);
	fp = fopen(path, "w");
	fputs(control, fp);
	fclose(fp);
	sh("printf '#!/bin/sh\\nexit 0\\n' > t/DEBIAN/postinst && "
	   "chmod 755 t/DEBIAN/postinst%s", "");
	sh("echo hi > t/opt/extras.ubuntu.com/foo/bin/foo && "
	   "chmod 4755 t/opt/extras.ubuntu.com/foo/bin/foo && "
	   "touch 't/usr/share/applications/extras-foo a.desktop' && "
	   "ln -s ../../../opt/extras.ubuntu.com/foo/bin/foo "
	   "t/usr/share/applications/link%s", "");
	sh("dpkg-deb --root-owner-group -Zxz --build t good.deb >/dev/null%s",
	   "");
	sh("head -c $(($(stat -c %%s good.deb) / 2)) good.deb > truncated.deb && "
	   "head -c $(($(stat -c %%s good.deb) - 40)) good.deb > short.deb && "
	   "echo 'not a package' > text.deb && : > empty.deb%s", "");
	/* Corrupt a byte in the middle of data.tar.xz. */
	sh("cp good.deb corrupt.deb && size=$(stat -c %%s good.deb) && "
	   "printf 'XXXXXXXX' | dd of=corrupt.deb bs=1 "
	   "seek=$((size - 60)) conv=notrunc 2>/dev/null 2>&1%s", "");
	sh("sed -i '/^Version:/d' t/DEBIAN/control && "
	   "dpkg-deb --root-owner-group --nocheck --build t noversion.deb "
	   ">/dev/null 2>&1%s", "");
	sh("sed -i 's/^Package: .*/Package: b@d/; "
	   "s/^Architecture:/Version: 1.0\\nArchitecture:/' t/DEBIAN/control && "
	   "dpkg-deb --root-owner-group --nocheck --build t badname.deb "
	   ">/dev/null 2>&1%s", "");
	/* A .changes listing good.deb, clear-signed, and broken ones. */
	snprintf(path, sizeof(path), "%s/changes.sh", dir);
	fp = fopen(path, "w");
	fputs(changes_script, fp);
	fclose(fp);
	sh("sh changes.sh%s", "");
}

int
main(void)
{
	struct debfile deb;
	struct changes ch;
	struct dpkg_error err = DPKG_ERROR_INIT;
	const struct debfile_member *m;
	const struct debfile_control_member *c;
	char path[256];

	if (mkdtemp(dir) == NULL)
		return 1;
	build_fixtures();
	test_plan(54);

	/* Every spelling dpkg takes for one path reads as one. */
	test_str(path_of("./usr/bin/x"), ==, "usr/bin/x");
	test_str(path_of("usr/bin/x"), ==, "usr/bin/x");
	test_str(path_of("/usr/bin/x"), ==, "usr/bin/x");
	test_str(path_of("//usr/bin/x"), ==, "usr/bin/x");
	test_str(path_of("./././usr/bin/x"), ==, "usr/bin/x");
	test_str(path_of("/.//./usr/bin/x/"), ==, "usr/bin/x");
	test_str(path_of("usr/bin/x//./"), ==, "usr/bin/x");
	test_str(path_of("./"), ==, "");
	test_str(path_of("."), ==, "");
	test_str(path_of("usr//bin/x"), ==, "(refused)");
	test_str(path_of("usr/./bin/x"), ==, "(refused)");
	test_str(path_of("usr/../etc/shadow"), ==, "(refused)");

	snprintf(path, sizeof(path), "%s/good.deb", dir);
	test_int(debfile_read(&deb, path, &err), ==, 0);
	test_str(deb.format, ==, "2.0");
	test_str(deb.control_tar, ==, "control.tar.xz");
	test_str(deb.data_tar, ==, "data.tar.xz");
	test_str(deb.package, ==, "extras-foo");
	test_str(deb.version, ==, "1:2.0-1+b1");
	test_str(deb.architecture, ==, "amd64");
	test_str(deb.source, ==, "extras-foo-src");
	test_str(deb.source_version, ==, "1:2.0-1");
	test_str(debfile_field(&deb, "Depends"), ==,
	         "libc6 (>= 2.36),\n extras-foo-data (= 1:2.0-1+b1)");
	test_ok(debfile_field(&deb, "Pre-Depends") == NULL);
	c = debfile_control_member(&deb, "postinst");
	test_ok(c != NULL && c->data != NULL);
	test_str(c ? c->data : NULL, ==, "#!/bin/sh\nexit 0\n");
	test_int(c ? c->mode : 0, ==, 0755);
	test_ok(debfile_control_member(&deb, "preinst") == NULL);
	test_ok(debfile_is_maintainer_script("postrm"));
	test_ok(!debfile_is_maintainer_script("control"));
	m = member(&deb, "opt/extras.ubuntu.com/foo/bin/foo");
	test_ok(m != NULL && m->type == DEBFILE_REGULAR);
	test_int(m ? m->mode : 0, ==, 04755);
	test_int(m ? m->size : 0, ==, 3);
	test_str(m ? m->owner : NULL, ==, "root");
	m = member(&deb, "usr/share/applications");
	test_ok(m != NULL && m->type == DEBFILE_DIRECTORY);
	test_ok(member(&deb, "usr/share/applications/extras-foo a.desktop"));
	m = member(&deb, "usr/share/applications/link");
	test_ok(m != NULL && m->type == DEBFILE_SYMLINK);
	test_str(m ? m->target : NULL, ==,
	         "../../../opt/extras.ubuntu.com/foo/bin/foo");
	test_ok(member(&deb, "") == NULL);
	debfile_destroy(&deb);

	test_str(read_error("truncated.deb", false), !=, NULL);
	test_str(read_error("short.deb", false), !=, NULL);
	test_str(read_error("corrupt.deb", false), !=, NULL);
	test_str(read_error("text.deb", false), ==,
	         "text.deb: not an ar archive");
	test_str(read_error("empty.deb", false), !=, NULL);
	test_str(read_error("missing.deb", false), !=, NULL);
	test_str(read_error("noversion.deb", false), ==,
	         "noversion.deb: control: missing Version field");
	test_str(read_error("badname.deb", false), ==, "badname.deb: control: "
	         "Package 'b@d': character '@' not allowed (only letters, "
	         "digits and characters '-+._')");

	snprintf(path, sizeof(path), "%s/good.changes", dir);
	test_int(changes_read(&ch, path, &err), ==, 0);
	test_int(ch.nfiles, ==, 1);
	test_ok(ch.nfiles == 1 && changes_file_is_deb(&ch.files[0]));
	changes_destroy(&ch);
	test_str(read_error("escape.changes", true), ==,
	         "escape.changes: file name '../good.deb' is not a plain file "
	         "name");
	test_str(read_error("badsum.changes", true), ==,
	         "badsum.changes: checksum mismatch for 'good.deb'");
	test_str(read_error("nosha.changes", true), ==,
	         "nosha.changes: missing Checksums-Sha256 field");
	test_str(read_error("dup.changes", true), ==,
	         "dup.changes: duplicate field Source");
	test_str(read_error("unsigned.changes", true), ==,
	         "unsigned.changes:10: malformed OpenPGP signed message: no "
	         "signature after the signed text");

	if (getenv("KEEP_TRASH") == NULL)
		sh("cd / && rm -rf %s", dir);
	return test_done();
}
