/*
 * declaration-write.c: debian/extras.yaml written by extras-convert.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/varbuf.h>

#include "apparmor/profile.h"
#include "convert/declaration-write.h"
#include "namespace/declaration.h"
#include "namespace/namespace.h"

/*
 * Whether the catalogue has privilege NAME: refused here, at conversion,
 * rather than when dh_extras_apparmor builds the profile.
 */
static int
check_known(const char *name, struct dpkg_error *err)
{
	struct profile_privilege *list;
	const char *nearest;
	size_t n, i;
	int ret = -1;

	if (profile_privileges(NULL, &list, &n, err) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (strcmp(list[i].name, name) == 0)
			ret = 0;
	nearest = profile_privilege_nearest(list, n, name);
	if (ret < 0 && nearest)
		put_error_at(err, "--privileges", 0, "unknown privilege '%s': "
		             "did you mean '%s'? (extras-profile "
		             "--list-privileges lists them)", name, nearest);
	else if (ret < 0)
		put_error_at(err, "--privileges", 0, "unknown privilege '%s' "
		             "(extras-profile --list-privileges lists them)",
		             name);
	profile_privileges_free(list, n);
	return ret;
}

/*
 * Append KEY's list from the comma-separated LIST given as OPTION, each
 * name passing CHECK, to VB.  Returns 0, or -1 with ERR.
 */
static int
write_list(struct varbuf *vb, const char *key, const char *list,
           const char *option, const char *(*check)(const char *),
           struct dpkg_error *err)
{
	const char *p, *why;
	int n = 0;

	for (p = list ? list : ""; *p; ) {
		size_t len = strcspn(p, ",");
		char name[256];

		if (len == 0 || len >= sizeof(name))
			return put_error_at(err, option, 0, "bad list '%s'",
			                    list);
		memcpy(name, p, len);
		name[len] = '\0';
		if ((why = check(name)) != NULL)
			return put_error_at(err, option, 0, "'%s' %s", name,
			                    why);
		varbuf_printf(vb, "%s  - %s\n", n++ ? "" : key, name);
		p += len + (p[len] == ',');
	}
	return 0;
}

char *
declaration_text(const char *app, const struct declaration_options *o,
                 struct dpkg_error *err)
{
	struct varbuf vb = VARBUF_INIT;
	const char *why, *p;
	int n = 0;

	if ((why = namespace_check_app(app)) != NULL) {
		put_error_at(err, "--privileges", 0, "app '%s' %s", app, why);
		return NULL;
	}
	varbuf_printf(&vb, "# What the extras app may do beyond its own files; "
	              "see extras-convert(1).\napp: %s\n", app);
	if (o->root && strcmp(o->root, EXTRAS_DEFAULT_ROOT) != 0) {
		if ((why = namespace_check_root(o->root)) != NULL) {
			put_error_at(err, "--root", 0, "'%s' %s", o->root, why);
			varbuf_destroy(&vb);
			return NULL;
		}
		varbuf_printf(&vb, "root: %s\n", o->root);
	}
	for (p = o->privileges ? o->privileges : ""; *p; ) {
		size_t len = strcspn(p, ",");
		char name[DECLARATION_PRIVILEGE_MAX + 1];

		if (len == 0 || len > DECLARATION_PRIVILEGE_MAX) {
			put_error_at(err, "--privileges", 0, "bad privilege list "
			             "'%s'", o->privileges);
			varbuf_destroy(&vb);
			return NULL;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		if ((why = declaration_check_privilege_name(name)) != NULL) {
			put_error_at(err, "--privileges", 0, "privilege '%s' %s",
			             name, why);
			varbuf_destroy(&vb);
			return NULL;
		}
		if (check_known(name, err) < 0) {
			varbuf_destroy(&vb);
			return NULL;
		}
		varbuf_printf(&vb, "%s  - %s\n", n++ ? "" : "privileges:\n", name);
		p += len + (p[len] == ',');
	}
	if (n == 0)
		varbuf_add_str(&vb, "privileges: []\n");
	if (write_list(&vb, "bus-names:\n", o->bus_names, "--bus-names",
	               declaration_check_bus_name, err) < 0 ||
	    write_list(&vb, "ids:\n", o->ids, "--ids",
	               declaration_check_component_id, err) < 0) {
		varbuf_destroy(&vb);
		return NULL;
	}
	varbuf_end_str(&vb);
	return varbuf_detach(&vb);
}

int
declaration_write(struct convert_plan *plan, const char *app,
                  const struct declaration_options *o, struct dpkg_error *err)
{
	char *old = NULL, *text;
	size_t len;
	int ret;

	ret = convert_read(plan, DECLARATION_FILE, &old, &len, NULL, true, err);
	if (ret < 0)
		return -1;
	if (ret == 0 && o->privileges == NULL && o->root == NULL &&
	    o->bus_names == NULL && o->ids == NULL) {
		struct declaration d;

		/* The author's own declaration stays, if it is one. */
		if (declaration_load_buffer(&d, DECLARATION_FILE, old, len,
		                            err) < 0) {
			free(old);
			return -1;
		}
		if (d.app.value && strcmp(d.app.value, app) != 0) {
			ret = put_error_at(err, DECLARATION_FILE, d.app.line,
			                   "declares app '%s', but the source is "
			                   "'%s'", d.app.value, app);
			declaration_free(&d);
			free(old);
			return ret;
		}
		declaration_free(&d);
		free(old);
		return 0;
	}
	text = declaration_text(app, o, err);
	if (text == NULL) {
		free(old);
		return -1;
	}
	if (old == NULL || strcmp(old, text) != 0) {
		convert_plan_write(plan, DECLARATION_FILE, text, strlen(text), 0644);
		convert_plan_note(plan, DECLARATION_FILE, 0, "%s", old ?
		                  "rewritten from the options" :
		                  "written");
	}
	free(old);
	free(text);
	return 0;
}
