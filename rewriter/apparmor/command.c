/*
 * command.c: what extras-profile prints (see command.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>

#include "apparmor/command.h"
#include "apparmor/profile.h"
#include "base/datadir.h"
#include "namespace/declaration.h"
#include "namespace/namespace.h"
#include "scripts/maintscript-generate.h"

int
profile_list_command(struct dpkg_error *err)
{
	struct profile_privilege *list;
	size_t n, i;

	if (profile_privileges(NULL, &list, &n, err) < 0)
		return PROFILE_FAILED;
	for (i = 0; i < n; i++)
		printf("%s\t%s\t%s\n", list[i].name,
		       list[i].reserved ? "reserved" : "common",
		       list[i].grants);
	profile_privileges_free(list, n);
	return 0;
}

/*
 * An option and the declaration may both name the app or the root; when
 * they disagree, neither is trusted.  *VALUE the one agreed on, or -1
 * with ERR.
 */
static int
agree(const struct declaration *d, const char *key,
      const struct declaration_value *declared, const char *option,
      const char **value, struct dpkg_error *err)
{
	*value = option;
	if (option == NULL) {
		*value = declared->value;
		return 0;
	}
	if (declared->value != NULL && strcmp(declared->value, option) != 0)
		return dpkg_put_error(err, "%s:%lu: %s '%s' does not match "
		                      "--%s '%s'", d->path, declared->line,
		                      key, declared->value, key, option);
	return 0;
}

/* The namespace of D's app, as C's options agree with D: 0, or a
 * PROFILE_ status with ERR. */
static int
app_namespace(const struct profile_command *c, const struct declaration *d,
              struct extras_namespace *ns, struct dpkg_error *err)
{
	const char *app, *root, *why;

	if (agree(d, "app", &d->app, c->app, &app, err) < 0 ||
	    agree(d, "root", &d->root, c->root, &root, err) < 0)
		return PROFILE_FAILED;
	if (app == NULL) {
		dpkg_put_error(err, "--app is required: %s names no app",
		               d->path);
		return PROFILE_USAGE;
	}
	if (namespace_check_app(app) != NULL)
		return dpkg_put_error(err, "--app '%s' %s", app,
		                      namespace_check_app(app));
	if (root != NULL && namespace_check_root(root) != NULL)
		return dpkg_put_error(err, "--root '%s' %s", root,
		                      namespace_check_root(root));
	why = namespace_init(ns, app, root);
	if (why != NULL)
		return dpkg_put_error(err, "namespace of '%s' %s", app, why);
	return 0;
}

/*
 * The maintainer script C->script of C->package when it ships the profile
 * of namespace NS: what dh_extras_scripts writes and the gate expects
 * (nothing when the package has no such script).
 */
static int
print_script(const struct profile_command *c,
             const struct extras_namespace *ns, struct dpkg_error *err)
{
	char name[PROFILE_NAME_MAX + 1], templates[4096];
	struct maintscripts s;
	int k, rc = 0;

	if (c->package == NULL) {
		dpkg_put_error(err, "--script needs --package");
		return PROFILE_USAGE;
	}
	for (k = 0; k < MAINTSCRIPT_KINDS; k++)
		if (strcmp(maintscript_names[k], c->script) == 0)
			break;
	if (k == MAINTSCRIPT_KINDS) {
		dpkg_put_error(err, "--script '%s' is not a maintainer script",
		               c->script);
		return PROFILE_USAGE;
	}
	if (profile_name(ns, name, sizeof(name)) < 0)
		return dpkg_put_error(err, "namespace %s is too long for a "
		                      "profile name", ns->path);
	snprintf(templates, sizeof(templates), "%s/templates",
	         dh_extras_datadir());
	if (maintscripts_generate(&s, templates, c->package, name, err) < 0)
		return PROFILE_FAILED;
	if (s.text[k] != NULL &&
	    (fputs(s.text[k], stdout) < 0 || fflush(stdout) != 0))
		rc = dpkg_put_error(err, "cannot write the script: %s",
		                    strerror(errno));
	maintscripts_free(&s);
	return rc;
}

/* The profile of namespace NS from the declaration D and C's options. */
static int
print_profile(const struct profile_command *c,
              const struct extras_namespace *ns, const struct declaration *d,
              struct dpkg_error *err)
{
	struct profile_request req = { 0 };
	char *text;
	size_t len;
	int rc = 0;

	req.ns = ns;
	req.declaration = d;
	req.executables = c->executables;
	req.n_executables = c->n_executables;
	req.allow_reserved = c->allow_reserved;
	req.granted = c->granted;
	req.n_granted = c->n_granted;
	if (profile_generate(&req, &text, &len, err) < 0)
		return PROFILE_FAILED;
	if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0)
		rc = dpkg_put_error(err, "cannot write the profile: %s",
		                    strerror(errno));
	free(text);
	return rc;
}

int
profile_print_command(const struct profile_command *c,
                      const char *declaration, struct dpkg_error *err)
{
	struct extras_namespace ns;
	struct declaration d;
	int rc;

	/* Released either way, a failed load too. */
	if (declaration_load(&d, declaration, err) < 0)
		rc = PROFILE_FAILED;
	else
		rc = app_namespace(c, &d, &ns, err);
	if (rc == 0 && c->script != NULL)
		rc = print_script(c, &ns, err);
	else if (rc == 0)
		rc = print_profile(c, &ns, &d, err);
	declaration_free(&d);
	return rc;
}
