/* Facts about debian/control rewriting: the diff is only what must change. */
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/program.h>

#include "../tests/tap.h"
#include "convert/control-rewrite.h"

static char result[4096];

/* The rewritten TEXT, or the error. */
static const char *
rw(const char *text)
{
	struct control_info info;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *out;

	if (control_rewrite_text("debian/control", text, strlen(text), &info,
	                         &out, NULL, &err) < 0) {
		control_info_free(&info);
		snprintf(result, sizeof(result), "%s", err.str);
		dpkg_error_destroy(&err);
		return result;
	}
	snprintf(result, sizeof(result), "%s", out);
	free(out);
	control_info_free(&info);
	return result;
}

/* A debian/control of N binary packages (a static buffer). */
static const char *
many_packages(int n)
{
	static char text[64 * 1024];
	size_t len;
	int i;

	len = (size_t)snprintf(text, sizeof(text), "Source: a1\n");
	for (i = 0; i < n && len < sizeof(text) - 32; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
		                        "\nPackage: a1-p%d\n", i);
	return text;
}

int
main(int argc, char **argv)
{
	(void)argc;
	dpkg_program_init(argv[0]);
	test_plan(29);

	/* Build-Depends gets the add-on in the style it is written. */
	test_str(rw("Source: a1\nBuild-Depends: debhelper-compat (= 13)\n\n"
	            "Package: a1\n"), ==,
	         "Source: extras-a1\nBuild-Depends: debhelper-compat (= 13), "
	         "dh-sequence-extras\n\nPackage: a1\n");
	test_str(rw("Source: a1\nBuild-Depends:\n debhelper-compat (= 13),\n"
	            " pkgconf,\n\nPackage: a1\n"), ==,
	         "Source: extras-a1\nBuild-Depends:\n debhelper-compat (= 13),\n"
	         " pkgconf,\n dh-sequence-extras,\n\nPackage: a1\n");
	test_str(rw("Source: a1\nBuild-Depends: debhelper-compat (= 13),\n"
	            "               pkgconf\n\nPackage: a1\n"), ==,
	         "Source: extras-a1\nBuild-Depends: debhelper-compat (= 13),\n"
	         "               pkgconf,\n               dh-sequence-extras\n"
	         "\nPackage: a1\n");
	test_str(rw("Source: a1\nSection: x\n\nPackage: a1\n"), ==,
	         "Source: extras-a1\nSection: x\nBuild-Depends: "
	         "dh-sequence-extras\n\nPackage: a1\n");

	/* Comments and unknown fields stay where they are. */
	test_str(rw("# top\nSource: a1\n# between\nBuild-Depends: b,\n"
	            "# inside\n c\nX-Foo: bar\n\n# before\nPackage: a1\n"
	            "Depends: a1-data, c\n\nPackage: a1-data\n"), ==,
	         "# top\nSource: extras-a1\n# between\nBuild-Depends: b,\n"
	         "# inside\n c,\n dh-sequence-extras\nX-Foo: bar\n\n# before\n"
	         "Package: a1\nDepends: a1-data, c\n\n"
	         "Package: a1-data\n");

	/* A field left empty goes, with its line. */
	test_str(rw("Source: a1\nBuild-Depends: b\n\nPackage: a1\n"
	            "Conflicts: x\nProvides: y\nDescription: d\n"), ==,
	         "Source: extras-a1\nBuild-Depends: b, dh-sequence-extras\n\n"
	         "Package: a1\nDescription: d\n");
	/* Build-Conflicts on other packages stay: they only shape the build. */
	test_str(rw("Source: a1\nBuild-Depends: b\nBuild-Conflicts: x\n\n"
	            "Package: a1\n"), ==,
	         "Source: extras-a1\nBuild-Depends: b, dh-sequence-extras\n"
	         "Build-Conflicts: x\n\nPackage: a1\n");

	/* A second run changes nothing. */
	test_str(rw("Source: extras-a1\nBuild-Depends: b, dh-sequence-extras\n\n"
	            "Package: extras-a1\nDepends: extras-a1-data\n\n"
	            "Package: extras-a1-data\nBreaks: extras-a1 (<< 2)\n"), ==,
	         "Source: extras-a1\nBuild-Depends: b, dh-sequence-extras\n\n"
	         "Package: extras-a1\nDepends: extras-a1-data\n\n"
	         "Package: extras-a1-data\nBreaks: extras-a1 (<< 2)\n");

	/* dh-cargo finds its crate by the name the source had. */
	test_str(rw("Source: rust-fd-find\n\nPackage: fd-find\n"), ==,
	         "Source: extras-rust-fd-find\nX-Cargo-Crate: fd-find\n"
	         "Build-Depends: dh-sequence-extras\n\nPackage: fd-find\n");
	test_str(rw("Source: rust-clap-2.33\nSection: x\n\nPackage: a1\n"), ==,
	         "Source: extras-rust-clap-2.33\nX-Cargo-Crate: clap\n"
	         "Section: x\nBuild-Depends: dh-sequence-extras\n\n"
	         "Package: a1\n");
	test_str(rw("Source: rust-x\nX-Cargo-Crate: y\n\nPackage: a1\n"), ==,
	         "Source: extras-rust-x\nX-Cargo-Crate: y\n"
	         "Build-Depends: dh-sequence-extras\n\nPackage: a1\n");
	test_str(rw("Source: rusty-1\n\nPackage: a1\n"), ==,
	         "Source: extras-rusty-1\nBuild-Depends: dh-sequence-extras\n"
	         "\nPackage: a1\n");

	/* Refusals, with the line. */
	test_str(rw("Source: a1\n\n"), ==, "debian/control: needs a source "
	         "stanza and at least one binary package stanza");
	test_str(rw("Section: x\n\nPackage: a1\n"), ==,
	         "debian/control:1: the first stanza has no Source field");
	test_str(rw("Source: a1\n\nArchitecture: all\n"), ==,
	         "debian/control:3: binary package stanza has no Package field");
	test_str(rw("Source: a1\n\nPackage: a1\n\nPackage: a1\n"), ==,
	         "debian/control:5: package 'a1' is listed twice");
	test_str(rw("Source: A1\n\nPackage: a1\n"), ==,
	         "debian/control:1: invalid source name 'A1': must be lowercase");
	test_str(rw("Source: a\n\nPackage: a\n"), ==,
	         "debian/control:1: source name 'a' cannot name an extras app: "
	         "it is shorter than 2 characters");
	test_str(rw("Source: a1\n\nPackage: a1\nDepends: b (>= !)\n"), ==,
	         "debian/control:4: invalid version '!' in Depends: version "
	         "number does not start with digit");
	test_str(rw("Source: a1\n\nPackage: a1\nDepends: b,\n\n c\n"), ==,
	         "debian/control:6: empty field name");
	/* libdpkg would end the first stanza at ^Z, dpkg-source not. */
	test_str(rw("Source: a1\nSection: x\032\nPackage: a1\n"), ==,
	         "debian/control:2: contains byte 0x1a (^Z), which libdpkg "
	         "reads as the end of a stanza and dpkg-source does not");

	/* Field names are case-insensitive: one field given twice. */
	test_str(rw("Source: a1\n\nPackage: a1\npackage: evil\n"), ==,
	         "debian/control:4: field 'package' repeats 'Package' of line 3 "
	         "(field names are case-insensitive)");
	test_str(rw("Source: a1\nsource: b1\n\nPackage: a1\n"), ==,
	         "debian/control:2: field 'source' repeats 'Source' of line 1 "
	         "(field names are case-insensitive)");
	/* So many binary packages are no app. */
	/* A folded Priority is rewritten whole, and the result is stable. */
	test_str(rw("Source: a1\nPriority:\n extra\nSection: x\n\nPackage: a1\n"),
	         ==, "Source: extras-a1\nPriority: optional\nSection: x\n"
	         "Build-Depends: dh-sequence-extras\n\nPackage: a1\n");
	test_str(rw("Source: a1\nPriority: extra\n\nPackage: a1\n"), ==,
	         "Source: extras-a1\nPriority: optional\n"
	         "Build-Depends: dh-sequence-extras\n\nPackage: a1\n");
	/* Essential and Protected go (sed is Essential); "no" stays. */
	test_str(rw("Source: a1\n\nPackage: a1\nEssential: yes\n"
	            "Protected: yes\nDescription: x\n\n"
	            "Package: a1-b\nEssential: no\n"), ==,
	         "Source: extras-a1\nBuild-Depends: dh-sequence-extras\n\n"
	         "Package: a1\nDescription: x\n\n"
	         "Package: a1-b\nEssential: no\n");
	/* Pre-Depends joins Depends (gawk), or becomes it (sed's has its
	 * own substvar, which dpkg-gencontrol fills there as well). */
	test_str(rw("Source: a1\n\nPackage: a1\nPre-Depends: ${shlibs:Depends}\n"
	            "Depends: ${misc:Depends},\n b1\nDescription: x\n"), ==,
	         "Source: extras-a1\nBuild-Depends: dh-sequence-extras\n\n"
	         "Package: a1\n"
	         "Depends: ${misc:Depends},\n b1, ${shlibs:Depends}\n"
	         "Description: x\n");
	test_str(rw("Source: a1\n\nPackage: a1\n"
	            "Pre-Depends: ${shlibs:Pre-Depends}\nDescription: x\n"), ==,
	         "Source: extras-a1\nBuild-Depends: dh-sequence-extras\n\n"
	         "Package: a1\nDepends: ${shlibs:Pre-Depends}\n"
	         "Description: x\n");
	test_str(rw(many_packages(CONTROL_PACKAGES_MAX + 1)), ==,
	         "debian/control:2003: binary package 1001 of 1001: more than "
	         "the 1000 an extras source may build");

	return test_done();
}
