/*
 * extras-profile: print the AppArmor profile of an app from its
 * declaration (debian/extras.yaml).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>
#include <dpkg/options.h>
#include <dpkg/program.h>

#include "base/version.h"
#include "namespace/declaration.h"
#include "namespace/namespace.h"
#include "apparmor/profile.h"
#include "base/datadir.h"
#include "scripts/maintscript-generate.h"

#include "extras-profile.usage.h"

static void
list_privileges(void)
{
	struct profile_privilege *list;
	struct dpkg_error err = DPKG_ERROR_INIT;
	size_t n, i;

	if (profile_privileges(NULL, &list, &n, &err) < 0)
		ohshit("%s", err.str);
	for (i = 0; i < n; i++)
		printf("%s\t%s\t%s\n", list[i].name,
		       list[i].reserved ? "reserved" : "common",
		       list[i].grants);
	profile_privileges_free(list, n);
}

/*
 * An option and the declaration may both name the app or the root; when
 * they disagree, neither is trusted.
 */
static const char *
agree(const struct declaration *d, const char *key,
      const struct declaration_value *declared, const char *option)
{
	if (option == NULL)
		return declared->value;
	if (declared->value != NULL && strcmp(declared->value, option) != 0)
		ohshit("%s:%lu: %s '%s' does not match --%s '%s'", d->path,
		       declared->line, key, declared->value, key, option);
	return option;
}

static const char *app, *root, *script, *package;
static int allow_reserved, list;
static const char **executables;
static size_t n_executables;

static void
add_executable(const struct cmdinfo *ci, const char *value)
{
	(void)ci;
	executables = m_realloc(executables,
	                        (n_executables + 1) * sizeof(*executables));
	executables[n_executables++] = value;
}

static const char **granted;
static size_t n_granted;

static void
add_grant(const struct cmdinfo *ci, const char *value)
{
	(void)ci;
	granted = m_realloc(granted, (n_granted + 1) * sizeof(*granted));
	granted[n_granted++] = value;
}

static const struct cmdinfo cmdinfos[] = {
	{ "app", 0, 1, NULL, &app, NULL, 0, NULL, NULL },
	{ "root", 0, 1, NULL, &root, NULL, 0, NULL, NULL },
	{ "allow-reserved", 0, 0, &allow_reserved, NULL, NULL, 1, NULL, NULL },
	{ "grant", 0, 1, NULL, NULL, add_grant, 0, NULL, NULL },
	{ "executable", 0, 1, NULL, NULL, add_executable, 0, NULL, NULL },
	{ "list-privileges", 0, 0, &list, NULL, NULL, 1, NULL, NULL },
	{ "script", 0, 1, NULL, &script, NULL, 0, NULL, NULL },
	{ "package", 0, 1, NULL, &package, NULL, 0, NULL, NULL },
	{ "help", 'h', 0, NULL, NULL, help_action, 0, (void *)help_text, NULL },
	{ "version", 0, 0, NULL, NULL, version_action, 0, NULL, NULL },
	{ NULL, 0, 0, NULL, NULL, NULL, 0, NULL, NULL },
};

/*
 * The maintainer script SCRIPT of PACKAGE when it ships the profile of
 * namespace NS: what dh_extras_scripts writes and the gate expects
 * (nothing when the package has no such script).
 */
static void
print_script(const struct extras_namespace *ns)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	char name[PROFILE_NAME_MAX + 1], templates[4096];
	struct maintscripts s;
	int k;

	if (package == NULL)
		badusage("--script needs --package");
	for (k = 0; k < MAINTSCRIPT_KINDS; k++)
		if (strcmp(maintscript_names[k], script) == 0)
			break;
	if (k == MAINTSCRIPT_KINDS)
		badusage("--script '%s' is not a maintainer script", script);
	if (profile_name(ns, name, sizeof(name)) < 0)
		ohshit("namespace %s is too long for a profile name", ns->path);
	snprintf(templates, sizeof(templates), "%s/templates",
	         dh_extras_datadir());
	if (maintscripts_generate(&s, templates, package, name, &err) < 0)
		ohshit("%s", err.str);
	if (s.text[k] != NULL &&
	    (fputs(s.text[k], stdout) < 0 || fflush(stdout) != 0))
		ohshite("cannot write the script");
	maintscripts_free(&s);
}

int
main(int argc, char **argv)
{
	const char *const *argp = (const char *const *)argv;
	struct profile_request req = { 0 };
	struct extras_namespace ns;
	struct declaration d;
	const char *why;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *text;
	size_t len;

	(void)argc;
	dpkg_program_init("extras-profile");
	dpkg_options_parse(&argp, cmdinfos, "Use --help for help.");
	if (list) {
		if (*argp != NULL)
			badusage("--list-privileges takes no argument");
		list_privileges();
		return 0;
	}
	if (argp[0] == NULL || argp[1] != NULL)
		badusage("expected one DECLARATION.yaml");

	if (declaration_load(&d, argp[0], &err) < 0)
		ohshit("%s", err.str);
	app = agree(&d, "app", &d.app, app);
	root = agree(&d, "root", &d.root, root);
	if (app == NULL)
		badusage("--app is required: %s names no app", d.path);
	if (namespace_check_app(app) != NULL)
		ohshit("--app '%s' %s", app, namespace_check_app(app));
	if (root != NULL && namespace_check_root(root) != NULL)
		ohshit("--root '%s' %s", root, namespace_check_root(root));
	why = namespace_init(&ns, app, root);
	if (why != NULL)
		ohshit("namespace of '%s' %s", app, why);

	if (script != NULL) {
		print_script(&ns);
		declaration_free(&d);
		dpkg_program_done();
		return 0;
	}
	req.ns = &ns;
	req.declaration = &d;
	req.executables = executables;
	req.n_executables = n_executables;
	req.allow_reserved = allow_reserved;
	req.granted = granted;
	req.n_granted = n_granted;
	if (profile_generate(&req, &text, &len, &err) < 0)
		ohshit("%s", err.str);
	if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0)
		ohshite("cannot write the profile");
	free(text);
	free(executables);
	declaration_free(&d);
	dpkg_program_done();
	return 0;
}
