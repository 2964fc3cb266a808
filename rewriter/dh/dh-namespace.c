/*
 * dh-namespace.c: the namespace of the source package being built.
 */
#include <stdio.h>

#include "dh/dh-namespace.h"

int
dh_namespace_find(const char *source, struct declaration *decl,
                  struct extras_namespace *ns, struct dpkg_error *err)
{
	const char *app, *why;

	if (declaration_load(decl, DH_DECLARATION, err) < 0)
		return -1;
	app = decl->app.value ? decl->app.value :
	      namespace_app_of_package(source);
	why = namespace_init(ns, app, decl->root.value);
	if (why == NULL)
		return 0;
	if (namespace_check_app(app) == NULL)
		dpkg_put_error(err, "%s:%lu: root '%s' %s", DH_DECLARATION,
		               decl->root.line, decl->root.value, why);
	else if (decl->app.value != NULL)
		dpkg_put_error(err, "%s:%lu: app id '%s' %s", DH_DECLARATION,
		               decl->app.line, app, why);
	else
		dpkg_put_error(err, "debian/control: app id '%s' (the source "
		               "name without '%s') %s", app, EXTRAS_PREFIX,
		               why);
	return -1;
}
