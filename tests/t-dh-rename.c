/* Facts about renaming a built package at its edge. */
#include <stdlib.h>
#include <string.h>

#include <dpkg/program.h>

#include "../tests/tap.h"
#include "dh/dh-rename.h"

static const char *const names[] = { "hello", "libhello1", "hello-data" };
static struct dh_rename_set set = { names, 3, NULL, NULL, 0 };
static char *out;

/* TEXT's control file renamed, or the error. */
static const char *
control(const char *text)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	static char msg[1024];

	free(out);
	out = NULL;
	if (dh_rename_control("DEBIAN/control", text, strlen(text),
	                      "extras-hello", &set, &out, &err) < 0) {
		snprintf(msg, sizeof(msg), "error: %s", err.str);
		dpkg_error_destroy(&err);
		return msg;
	}
	return out;
}

static const char *
files_list(const char *text)
{
	struct dpkg_error err = DPKG_ERROR_INIT;

	free(out);
	out = NULL;
	if (dh_rename_files_list("debian/files", text, strlen(text), &set,
	                         &out, &err) < 0) {
		dpkg_error_destroy(&err);
		return "error";
	}
	return out;
}

int
main(void)
{
	test_plan(17);
	dpkg_program_init("t-dh-rename");

	test_str(control("Package: hello\nSource: extras-hello\nVersion: 1\n"
	                 "Description: hi\n"), ==,
	         "Package: extras-hello\nVersion: 1\nDescription: hi\n");
	test_str(control("Package: hello-data\nSource: extras-hello\n"
	                 "Version: 1\n"), ==,
	         "Package: extras-hello-data\nSource: extras-hello\n"
	         "Version: 1\n");
	test_str(control("Package: hello\nSource: extras-hello (1.0-1)\n"
	                 "Version: 1:1.0-1\n"), ==,
	         "Package: extras-hello\nSource: extras-hello (1.0-1)\n"
	         "Version: 1:1.0-1\n");
	test_str(control("Package: extras-hello\nVersion: 1\n"), ==,
	         "Package: extras-hello\nVersion: 1\n");
	test_str(control("Package: hello\nSource: hello\nVersion: 1\n"), ==,
	         "Package: extras-hello\nVersion: 1\n");
	/* Siblings renamed, others kept, versions and arch qualifiers too. */
	test_str(control("Package: hello\nSource: extras-hello\n"
	                 "Depends: libc6 (>= 2.36), libhello1 (= 1.0-1), "
	                 "hello-data | foo, bar:any\n"
	                 "Breaks: hello-data (<< 1)\nProvides: hello-data\n"
	                 "Description: hi\n there\n"), ==,
	         "Package: extras-hello\n"
	         "Depends: libc6 (>= 2.36), extras-libhello1 (= 1.0-1), "
	         "extras-hello-data | foo, bar:any\n"
	         "Breaks: extras-hello-data (<< 1)\n"
	         "Provides: extras-hello-data\nDescription: hi\n there\n");
	/* Nothing of the source's named: the field stays as written. */
	test_str(control("Package: hello\nSource: extras-hello\n"
	                 "Depends: libc6 (>= 2.36),  zlib1g\n"), ==,
	         "Package: extras-hello\nDepends: libc6 (>= 2.36),  zlib1g\n");
	test_str(control("Package: hello-dbgsym\nSource: extras-hello\n"
	                 "Depends: hello (= 1.0)\n"), ==,
	         "Package: extras-hello-dbgsym\nSource: extras-hello\n"
	         "Depends: extras-hello (= 1.0)\n");
	test_str(control("Package: hello\nDepends: hello-data (>= \n"), ==,
	         "error: DEBIAN/control:2: 'Depends' field, reference to "
	         "'hello-data': version unterminated");
	test_str(control("Package: hello\n\nPackage: again\n"), ==,
	         "error: DEBIAN/control: holds 2 stanzas, not one binary "
	         "package's");

	/*
	 * pkg-kde-tools' ${ABI:VirtualPackage}: the library provides
	 * libhello1-22.12 and its symbols file has the program depend on
	 * it.  The archive's libhello1 provides it too: an extras package
	 * never stands in for it, and the program needs its own library.
	 */
	{
		static const char lib[] = "Package: libhello1\n"
			"Provides: libhello1-22.12\n";
		struct dpkg_error err = DPKG_ERROR_INIT;

		test_int(dh_rename_virtuals("DEBIAN/control", lib,
		                            strlen(lib), &set, &err), ==, 0);
		test_str(control(lib), ==, "Package: extras-libhello1\n"
		         "Source: extras-hello\n");
	}
	test_str(control("Package: hello\nDepends: libc6, libhello1 (>= 1), "
	                 "libhello1-22.12, libhello1-22.12 (>= 2) | x\n"
	                 "Provides: hello-data, mail-reader\n"), ==,
	         "Package: extras-hello\nDepends: libc6, extras-libhello1 "
	         "(>= 1), extras-libhello1, libhello1-22.12 (>= 2) | x\n"
	         "Provides: extras-hello-data\n");
	/* Only a need: another package's claim on it stays, for the gate. */
	test_str(control("Package: hello-data\nBreaks: libhello1-22.12\n"), ==,
	         "Package: extras-hello-data\nSource: extras-hello\n"
	         "Breaks: libhello1-22.12\n");
	test_str(control("Package: hello\nProvides: extras-hello-data\n"), ==,
	         "Package: extras-hello\nProvides: extras-hello-data\n");

	test_str(files_list("hello_1.0-1_amd64.deb utils optional\n"
	                    "hello-data_1.0-1_all.deb utils optional\n"
	                    "hello-dbgsym_1.0-1_amd64.deb debug optional "
	                    "automatic=yes\n"
	                    "other_1_all.deb utils optional\n"
	                    "extras-hello_1_amd64.buildinfo utils optional\n"),
	         ==,
	         "extras-hello_1.0-1_amd64.deb utils optional\n"
	         "extras-hello-data_1.0-1_all.deb utils optional\n"
	         "extras-hello-dbgsym_1.0-1_amd64.deb debug optional "
	         "automatic=yes\n"
	         "other_1_all.deb utils optional\n"
	         "extras-hello_1_amd64.buildinfo utils optional\n");
	test_str(files_list("hellox_1_all.deb a b\nhello\n"), ==,
	         "hellox_1_all.deb a b\nhello\n");
	free(out);
	free(set.virtuals[0]);
	free(set.providers[0]);
	free(set.virtuals);
	free(set.providers);
	return test_done();
}
