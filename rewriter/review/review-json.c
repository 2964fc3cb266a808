/*
 * review-json.c: the review's JSON report (shape in review.h).
 */
#include "base/json.h"
#include "review/review.h"

static struct json_object *
package_json(const struct review_package *p)
{
	struct json_object *o = json_new_object();

	json_add_text(o, "file", p->where);
	json_add_text(o, "package", p->deb.package);
	json_add_text(o, "version", p->deb.version);
	json_add_text(o, "source", p->deb.source);
	json_add_text(o, "app", p->namespace_ok ? p->ns.app : NULL);
	json_add_text(o, "root", p->namespace_ok ? p->ns.root : NULL);
	json_add_text(o, "namespace", p->namespace_ok ? p->ns.path : NULL);
	json_add_bool(o, "accepted", p->nproblems == 0);
	json_add_int(o, "problems", (long long)p->nproblems);
	return o;
}

void
review_write_json(const struct review *r, FILE *fp)
{
	struct json_object *j = json_new_object(), *a;
	size_t i;

	json_add_bool(j, "accepted", r->nproblems == 0);
	a = json_new_array();
	for (i = 0; i < r->npackages; i++)
		json_object_array_add(a, package_json(&r->packages[i]));
	json_add(j, "packages", a);
	a = json_new_array();
	for (i = 0; i < r->nproblems; i++) {
		const struct review_problem *pb = &r->problems[i];
		const struct review_package *p = &r->packages[pb->package];
		struct json_object *o = json_new_object();

		json_add_text(o, "file", p->where);
		json_add_text(o, "package", p->deb.package);
		json_add_text(o, "rule", pb->rule);
		json_add_text(o, "path", pb->path);
		json_add_text(o, "message", pb->message);
		json_object_array_add(a, o);
	}
	json_add(j, "problems", a);
	json_write(fp, j);
}
