/*
 * convert.c: convert an unpacked source tree into an extras source tree.
 */
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>

#include "convert/changelog-rewrite.h"
#include "convert/control-rewrite.h"
#include "convert/convert.h"
#include "convert/debian-files.h"
#include "convert/declaration-write.h"
#include "base/json.h"
#include "namespace/namespace.h"
#include "convert/rules-rewrite.h"

/* The source as debian/ says it is, against the store's identity. */
static int
check_identity(const struct convert_options *opt,
               const struct control_info *control,
               const struct changelog_info *changelog,
               struct dpkg_error *err)
{
	const struct identity *id = opt->identity;
	char *renamed;
	int i, ret = 0;

	if (id == NULL)
		return 0;
	if (strcmp(control->app, id->app) != 0)
		return put_error_at(err, "debian/control", 0, "source %s is "
		                    "not app %s of %s", control->app, id->app,
		                    opt->identity_file);
	if (strcmp(changelog->version, id->version) != 0)
		return put_error_at(err, "debian/changelog", 0, "version %s "
		                    "is not %s, the version accepted in %s",
		                    changelog->version, id->version,
		                    opt->identity_file);
	for (i = 0; i < control->npackages && ret == 0; i++) {
		renamed = identity_renamed(control->packages[i]);
		if (!identity_has_package(id, renamed))
			ret = put_error_at(err, "debian/control", 0, "package "
			                   "%s is not one of app %s's packages "
			                   "in %s", renamed, id->app,
			                   opt->identity_file);
		free(renamed);
	}
	return ret;
}

int
convert_tree(const char *dir, const struct convert_options *opt,
             struct convert_plan *plan, struct convert_result *res,
             struct dpkg_error *err)
{
	struct declaration_options decl = {
		.root = opt->root, .privileges = opt->privileges,
		.bus_names = opt->bus_names, .ids = opt->ids,
	};
	struct control_info control;
	struct changelog_info changelog;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	convert_plan_init(plan, dir);
	if (control_rewrite(plan, &control, err) < 0) {
		control_info_free(&control);
		return -1;
	}
	if (changelog_rewrite(plan, control.app, &changelog, err) < 0 ||
	    check_identity(opt, &control, &changelog, err) < 0)
		goto out;
	if (debian_files_rewrite(plan, &control, err) < 0 ||
	    rules_rewrite(plan, &control, opt->root, opt->autoconf, err) < 0 ||
	    declaration_write(plan, control.app, &decl, err) < 0)
		goto out;
	if (convert_plan_apply(plan, err) < 0)
		goto out;
	res->app = m_strdup(control.app);
	res->source = m_malloc(strlen(EXTRAS_PREFIX) + strlen(control.app) + 1);
	sprintf(res->source, "%s%s", EXTRAS_PREFIX, control.app);
	res->version = m_strdup(changelog.version);
	res->timestamp = changelog.timestamp;
	ret = 0;
out:
	changelog_info_free(&changelog);
	control_info_free(&control);
	return ret;
}

void
convert_result_free(struct convert_result *res)
{
	free(res->app);
	free(res->source);
	free(res->version);
	memset(res, 0, sizeof(*res));
}

void
convert_report_json(FILE *fp, const struct convert_result *res,
                    const struct convert_plan *plan)
{
	struct json_object *j = json_new_object(), *a;
	int i;

	json_add_text(j, "app", res->app);
	json_add_text(j, "source", res->source);
	json_add_text(j, "version", res->version);
	a = json_new_array();
	for (i = 0; i < plan->nnotes; i++) {
		struct json_object *o = json_new_object();

		json_add_text(o, "file", plan->notes[i].file);
		json_add_int(o, "line", plan->notes[i].line);
		json_add_text(o, "message", plan->notes[i].what);
		json_object_array_add(a, o);
	}
	json_add(j, "notes", a);
	a = json_new_array();
	for (i = 0; i < plan->nops; i++) {
		const struct convert_op *op = &plan->ops[i];
		struct json_object *o = json_new_object();

		json_add_text(o, "op", op->kind == CONVERT_WRITE ? "write" :
		              op->kind == CONVERT_RENAME ? "rename" : "remove");
		json_add_text(o, "file", op->path);
		if (op->to)
			json_add_text(o, "to", op->to);
		json_object_array_add(a, o);
	}
	json_add(j, "changes", a);
	json_write(fp, j);
}
