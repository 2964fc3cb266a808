/* Facts about the add-on's data: dh's places of the helpers, the build
 * systems, and a malformed line refused with its file and line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/program.h>

#include "../tests/tap.h"
#include "dh/dh-addon.h"

static char result[1024];

/* The names around COMMAND, the command itself in brackets. */
static const char *
around(const struct dh_addon *a, const char *command)
{
	const struct dh_addon_place *p = dh_addon_place(a, command,
	                                                strlen(command));
	size_t i, n = 0;

	if (p == NULL)
		return "(none)";
	result[0] = '\0';
	for (i = 0; i < p->nnames; i++)
		n += snprintf(result + n, sizeof(result) - n, "%s%s%s%s",
		              i ? " " : "", i == p->at ? "[" : "",
		              p->names[i], i == p->at ? "]" : "");
	return result;
}

/* The error loading SEQUENCE and BUILDSYSTEMS, or "ok". */
static const char *
load(const char *sequence, const char *buildsystems)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct dh_addon a;
	char dir[] = "/tmp/t-dh-addon.XXXXXX";
	const char *text[] = { sequence, buildsystems };
	const char *name[] = { "sequence", "buildsystems" };
	int i;

	if (mkdtemp(dir) == NULL)
		return "(no directory)";
	for (i = 0; i < 2; i++) {
		char *path = str_fmt("%s/%s", dir, name[i]);
		FILE *fp = fopen(path, "w");

		fputs(text[i], fp);
		fclose(fp);
		free(path);
	}
	if (dh_addon_load(&a, dir, &err) < 0) {
		/* Without the temporary directory's name. */
		snprintf(result, sizeof(result), "%s",
		         err.str + strlen(dir) + 1);
	} else {
		snprintf(result, sizeof(result), "ok");
		dh_addon_free(&a);
	}
	dpkg_error_destroy(&err);
	for (i = 0; i < 2; i++) {
		char *path = str_fmt("%s/%s", dir, name[i]);

		unlink(path);
		free(path);
	}
	rmdir(dir);
	return result;
}

int
main(int argc, char **argv)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	const struct dh_addon *a;
	const struct dh_buildsystem *b;

	(void)argc;
	dpkg_program_init(argv[0]);
	test_plan(21);

	/* templates/addon/, as dh --with extras runs it. */
	a = dh_addon_data(&err);
	test_ok(a != NULL);
	if (a == NULL) {
		fprintf(stderr, "%s\n", err.str);
		return 1;
	}
	test_str(around(a, "dh_link"), ==, "dh_extras_relocate "
	         "dh_extras_metainfo dh_extras_python dh_extras_modules "
	         "dh_extras_icons dh_extras_launchers dh_extras_gsettings "
	         "[dh_link] dh_extras_links");
	test_str(around(a, "dh_installdeb"), ==, "dh_extras_apparmor "
	         "[dh_installdeb] dh_extras_declare dh_extras_scripts");
	test_str(around(a, "dh_prep"), ==, "[dh_prep] dh_extras_pkgdirs");
	test_str(around(a, "dh_clean"), ==, "dh_extras_clean [dh_clean]");
	test_str(around(a, "dh_extras_relocate"), ==, "(none)");
	test_str(around(a, "dh_install"), ==, "(none)");
	test_ok(a->nremoved == 1 && strcmp(a->removed[0], "dh_dwz") == 0);
	b = dh_addon_buildsystem(a, "autoconf");
	test_ok(b && strcmp(b->detect[0], "configure.ac") == 0 &&
	        strcmp(b->detect[1], "configure.in") == 0 && !b->detect[2]);
	b = dh_addon_buildsystem(a, "makefile");
	test_ok(b && strcmp(b->params[DH_STEP_BUILD][0], "prefix=%NS%") == 0 &&
	        b->params[DH_STEP_CONFIGURE] == NULL);
	test_ok(dh_addon_buildsystem(a, "cmake+ninja") == NULL);

	/* insert_after of two helpers after one command: the last first,
	 * as dh does. */
	test_str(load("insert dh_extras_a after dh_x\n"
	              "insert dh_extras_b after dh_x\n"
	              "insert dh_extras_c before dh_extras_b\n", ""), ==, "ok");

	/* Each malformed line, by its number, comments counted. */
	test_str(load("# a comment\n\ninsert dh_extras_a beside dh_link\n",
	              ""), ==, "sequence:3: not 'insert HELPER before|after "
	         "COMMAND'");
	test_str(load("insert dh_extras_a after dh_extras_b\n", ""), ==,
	         "sequence:1: dh_extras_b is not in the sequence yet");
	test_str(load("insert dh_extras_a after dh_link\n"
	              "insert dh_extras_a before dh_clean\n", ""), ==,
	         "sequence:2: dh_extras_a is inserted twice");
	test_str(load("insert make after dh_link\n", ""), ==,
	         "sequence:1: 'make' is not a dh_extras_* helper");
	test_str(load("option dh_strip no-dbgsym\n", ""), ==,
	         "sequence:1: 'no-dbgsym' is not an option");
	test_str(load("drop dh_dwz\n", ""), ==,
	         "sequence:1: 'drop' is none of insert, option, remove");
	test_str(load("", "cmake configure -DCMAKE_INSTALL_PREFIX=/usr\n"), ==,
	         "buildsystems:1: '-DCMAKE_INSTALL_PREFIX=/usr' is not "
	         "NAME=%NS% or NAME=%NS%/DIR");
	test_str(load("", "meson detect meson.build\nmeson detect x\n"), ==,
	         "buildsystems:2: a second 'meson detect' line");
	test_str(load("", "qmake configure\n"), ==, "buildsystems:1: not "
	         "'BUILDSYSTEM STEP|detect|sources WORD...'");

	return test_done();
}
