/* Facts about debian/rules rewriting: the namespace reaches the recipes. */
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/program.h>

#include "../tests/tap.h"
#include "convert/rules-rewrite.h"

static char *names[] = { "foo", "foo-data", "foo.bar" };
static struct control_info control = { "foo", names, 3 };
static char result[4096];

/* TEXT with the staged paths of its late recipes where relocation puts them. */
static const char *
late(const char *text)
{
	struct extras_namespace ns;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *out;

	if (namespace_init(&ns, "foo", NULL) != NULL)
		return "(no namespace)";
	out = rules_rewrite_late_paths("debian/rules", text, strlen(text),
	                               &control, &ns, NULL, &err);
	snprintf(result, sizeof(result), "%s", out ? out : err.str);
	free(out);
	dpkg_error_destroy(&err);
	return result;
}

static const char *
conf(const char *text)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *out = rules_rewrite_configure("debian/rules", text, strlen(text),
	                                    NULL, &err);

	snprintf(result, sizeof(result), "%s", out ? out : err.str);
	free(out);
	dpkg_error_destroy(&err);
	return result;
}

/* The helpers in a classic debian/rules, or "error: ...". */
static const char *
classic(const char *text)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *out = rules_add_helpers("debian/rules", text, strlen(text),
	                              "/opt/x/foo", NULL, &err);

	if (out == NULL)
		snprintf(result, sizeof(result), "error: %s", err.str);
	else
		snprintf(result, sizeof(result), "%s", out);
	free(out);
	dpkg_error_destroy(&err);
	return result;
}

int
main(int argc, char **argv)
{
	(void)argc;
	dpkg_program_init(argv[0]);
	test_plan(20);

	/* The build keeps the maintainer's names: only the recipes that
	 * run after the relocation see the files moved, under the package
	 * directory debhelper uses (the maintainer's name, or an extras
	 * name from an earlier conversion). */
	test_str(late("override_dh_fixperms:\n"
	              "\tchmod 0755 debian/foo/usr/bin/x\n\tdh_fixperms\n"), ==,
	         "override_dh_fixperms:\n"
	         "\tchmod 0755 debian/foo/opt/extras.ubuntu.com/foo/bin/x\n"
	         "\tdh_fixperms\n");
	test_str(late("execute_after_dh_strip:\n"
	              "\trm $(CURDIR)/debian/extras-foo-data/usr/share/foo/y\n"),
	         ==, "execute_after_dh_strip:\n"
	         "\trm $(CURDIR)/debian/extras-foo-data/"
	         "opt/extras.ubuntu.com/foo/share/foo/y\n");
	/* A package's documentation is under its extras name by then. */
	test_str(late("override_dh_compress:\n"
	              "\trm debian/foo/usr/share/doc/foo-data/A\n"), ==,
	         "override_dh_compress:\n"
	         "\trm debian/foo/usr/share/doc/extras-foo-data/A\n");
	/* usr/share/doc itself holds the exported ones: it stays. */
	test_str(late("override_dh_link:\n"
	              "\trm -rf debian/foo/usr/share/doc/\n\tdh_link\n"), ==,
	         "override_dh_link:\n"
	         "\trm -rf debian/foo/usr/share/doc/\n\tdh_link\n");
	/* A make variable set to a package's staging directory. */
	test_str(late("PKGDIR = $(CURDIR)/debian/foo.bar\n"
	              "override_dh_link:\n\tdh_link\n"
	              "\trm $(PKGDIR)/usr/lib/foo/z\n"), ==,
	         "PKGDIR = $(CURDIR)/debian/foo.bar\n"
	         "override_dh_link:\n\tdh_link\n"
	         "\trm $(PKGDIR)/opt/extras.ubuntu.com/foo/lib/foo/z\n");
	/* Before the relocation, another directory, or not a package's:
	 * left alone. */
	test_str(late("override_dh_auto_install:\n"
	              "\trm debian/foo/usr/bin/x\n"), ==,
	         "override_dh_auto_install:\n\trm debian/foo/usr/bin/x\n");
	test_str(late("override_dh_fixperms:\n\trm debian/tmp/usr/bin/x "
	              "debian/foobar/usr/bin/x mydebian/foo/usr/bin/x\n"), ==,
	         "override_dh_fixperms:\n\trm debian/tmp/usr/bin/x "
	         "debian/foobar/usr/bin/x mydebian/foo/usr/bin/x\n");
	test_str(late(""), ==, "");

	test_str(conf("override_dh_auto_configure:\n"
	              "\t./configure --with-x \\\n\t  --sysconfdir=/etc\n"), ==,
	         "override_dh_auto_configure:\n"
	         "\tdh_auto_configure -- --with-x \\\n\t  --sysconfdir=/etc\n");
	test_str(conf("\t@$(CURDIR)/configure\n\t-${CURDIR}/configure $(FLAGS)\n"),
	         ==, "\t@dh_auto_configure --\n\t-dh_auto_configure -- $(FLAGS)\n");
	/* Not a command of its own: left alone. */
	test_str(conf("\tcd b && ../configure\n\t./configure.sh\n"
	              "\tCC=x ./configure\n./configure\n"), ==,
	         "\tcd b && ../configure\n\t./configure.sh\n"
	         "\tCC=x ./configure\n./configure\n");
	/* A debian/rules without dh gets the helpers where dh-sequence-extras
	 * puts them, with each command's package options (wget's); what
	 * make install put in the namespace goes back before dh_installdocs
	 * and the like install more. */
	test_str(classic("clean:\n\tdh_clean\ninstall:\n\tdh_prep\n"
	                 "\t$(MAKE) install DESTDIR=debian/extras-foo\n"
	                 "binary-arch: install\n\tdh_installdocs -a\n"
	                 "\tdh_link -a\n\tdh_strip -a\n\tdh_installdeb -a\n"
	                 "\tdh_shlibdeps -a\n\tdh_gencontrol -a\n"
	                 "\tdh_builddeb -a\n"), ==,
	         "# dh-extras: its dh_auto_* build for the namespace, its "
	         "dh_shlibdeps finds its libraries\n"
	         "export PATH := $(or $(DH_EXTRAS_AUTODIR),"
	         "/usr/share/dh-extras/auto):$(PATH)\n"
	         "clean:\n\tdh_extras_clean\n\tdh_clean\ninstall:\n\tdh_prep\n"
	         "\tdh_extras_pkgdirs\n"
	         "\t$(MAKE) install DESTDIR=debian/extras-foo\n"
	         "binary-arch: install\n\tdh_extras_unprefix -a\n"
	         "\tdh_installdocs -a\n\tdh_extras_relocate -a\n"
	         "\tdh_extras_metainfo -a\n\tdh_extras_python -a\n"
	         "\tdh_extras_modules -a\n\tdh_extras_icons -a\n"
	         "\tdh_extras_launchers -a\n\tdh_extras_gsettings -a\n\tdh_link -a\n"
	         "\tdh_extras_links -a\n"
	         "\tdh_strip --no-automatic-dbgsym -a\n"
	         "\tdh_extras_apparmor -a\n\tdh_installdeb -a\n"
	         "\tdh_extras_declare -a\n\tdh_extras_scripts -a\n\tdh_shlibdeps -a\n"
	         "\tdh_extras_privlibs -a\n\tdh_gencontrol -a\n"
	         "\tdh_extras_rename -a\n\tdh_extras_check -a\n"
	         "\tdh_builddeb -a\n");
	/* Without dh_link: before the first command that must follow the
	 * relocation, links included; a -p option follows, and a helper
	 * after a continued line comes after its last line. */
	test_str(classic("binary:\n\t@dh_fixperms -pextras-foo\n"
	                 "\tdh_installdeb \\\n\t  -pextras-foo\n"
	                 "\tdh_clean -k\n"), ==,
	         "binary:\n\tdh_extras_unprefix -pextras-foo\n"
	         "\tdh_extras_relocate -pextras-foo\n"
	         "\tdh_extras_metainfo -pextras-foo\n"
	         "\tdh_extras_python -pextras-foo\n"
	         "\tdh_extras_modules -pextras-foo\n"
	         "\tdh_extras_icons -pextras-foo\n"
	         "\tdh_extras_launchers -pextras-foo\n"
	         "\tdh_extras_gsettings -pextras-foo\n"
	         "\tdh_extras_links -pextras-foo\n"
	         "\t@dh_fixperms -pextras-foo\n"
	         "\tdh_extras_apparmor -pextras-foo\n"
	         "\tdh_installdeb \\\n\t  -pextras-foo\n"
	         "\tdh_extras_declare -pextras-foo\n"
	         "\tdh_extras_scripts -pextras-foo\n\tdh_clean -k\n");
	/* The recipes build for the namespace: whole words only, also on a
	 * continued line; a dependency's /usr stays. */
	test_str(classic("build:\n\tcd b && ../configure --prefix=/usr \\\n"
	                 "\t  --sysconfdir=/etc --with-idn=/usr "
	                 "--prefix=/usrx\n\t$(MAKE) prefix=/usr\n"
	                 "x: PREFIX=/usr\nbinary:\n\tdh_builddeb\n"), ==,
	         "build:\n\tcd b && ../configure --prefix=/opt/x/foo \\\n"
	         "\t  --sysconfdir=/opt/x/foo/etc --with-idn=/usr "
	         "--prefix=/usrx\n\t$(MAKE) prefix=/opt/x/foo\n"
	         "x: PREFIX=/usr\nbinary:\n"
	         "\tdh_extras_unprefix\n\tdh_extras_relocate\n"
	         "\tdh_extras_metainfo\n\tdh_extras_python\n"
	         "\tdh_extras_modules\n\tdh_extras_icons\n"
	         "\tdh_extras_launchers\n\tdh_extras_gsettings\n\tdh_extras_links\n"
	         "\tdh_extras_check\n\tdh_builddeb\n");
	test_str(classic("%:\n\tdh $@\noverride_dh_auto_configure:\n"
	                 "\t./configure --prefix=/usr\n"), ==,
	         "%:\n\tdh $@\noverride_dh_auto_configure:\n"
	         "\t./configure --prefix=/usr\n");
	/* dh_auto_* run by the recipes are the add-on's, through PATH. */
	test_str(classic("#!/usr/bin/make -f\nbuild:\n\tdh_auto_configure\n"
	                 "binary:\n\tdh_builddeb\n"), ==,
	         "#!/usr/bin/make -f\n"
	         "# dh-extras: its dh_auto_* build for the namespace, its "
	         "dh_shlibdeps finds its libraries\n"
	         "export PATH := $(or $(DH_EXTRAS_AUTODIR),"
	         "/usr/share/dh-extras/auto):$(PATH)\n"
	         "build:\n\tdh_auto_configure\nbinary:\n"
	         "\tdh_extras_unprefix\n\tdh_extras_relocate\n"
	         "\tdh_extras_metainfo\n\tdh_extras_python\n"
	         "\tdh_extras_modules\n\tdh_extras_icons\n"
	         "\tdh_extras_launchers\n\tdh_extras_gsettings\n\tdh_extras_links\n"
	         "\tdh_extras_check\n\tdh_builddeb\n");
	/* A rules that runs dh is left to the add-on. */
	test_str(classic("%:\n\tdh $@\noverride_dh_link:\n\tdh_link -X x\n"),
	         ==, "%:\n\tdh $@\noverride_dh_link:\n\tdh_link -X x\n");
	test_str(classic("binary binary-arch:\n\tdh binary-arch --with foo\n"
	                 "\tdh_link\n"), ==,
	         "binary binary-arch:\n\tdh binary-arch --with foo\n"
	         "\tdh_link\n");
	/* Neither dh nor a command to go next to; CDBS. */
	test_str(classic("binary:\n\tdh_installdocs\n\tdpkg-deb -b x\n"), ==,
	         "error: debian/rules: runs neither dh nor dh_link, "
	         "dh_fixperms, dh_installdeb or dh_builddeb, next to which the "
	         "extras helpers would run: build with dh (%: dh $@), then "
	         "convert");
	test_str(classic("include /usr/share/cdbs/1/rules/debhelper.mk\n"), ==,
	         "error: debian/rules: builds with CDBS, whose rules the extras "
	         "add-on does not reach: build with dh (%: dh $@), then convert");

	return test_done();
}
