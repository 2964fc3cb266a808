/*
 * review-json.c: the review's JSON report (shape in review.h).
 */
#include "base/json.h"
#include "review/review.h"

static void
member_string_or_null(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	if (s != NULL)
		json_string(j, s);
	else
		json_null(j);
}

static void
write_package(struct json *j, const struct review_package *p)
{
	json_object_begin(j);
	json_member_string(j, "file", p->where);
	json_member_string(j, "package", p->deb.package);
	json_member_string(j, "version", p->deb.version);
	json_member_string(j, "source", p->deb.source);
	member_string_or_null(j, "app", p->namespace_ok ? p->ns.app : NULL);
	member_string_or_null(j, "root", p->namespace_ok ? p->ns.root : NULL);
	member_string_or_null(j, "namespace",
	                      p->namespace_ok ? p->ns.path : NULL);
	json_member_bool(j, "accepted", p->nproblems == 0);
	json_member_int(j, "problems", (long long)p->nproblems);
	json_object_end(j);
}

void
review_write_json(const struct review *r, FILE *fp)
{
	struct json j;
	size_t i;

	json_init(&j, fp);
	json_object_begin(&j);
	json_member_bool(&j, "accepted", r->nproblems == 0);
	json_key(&j, "packages");
	json_array_begin(&j);
	for (i = 0; i < r->npackages; i++)
		write_package(&j, &r->packages[i]);
	json_array_end(&j);
	json_key(&j, "problems");
	json_array_begin(&j);
	for (i = 0; i < r->nproblems; i++) {
		const struct review_problem *pb = &r->problems[i];
		const struct review_package *p = &r->packages[pb->package];

		json_object_begin(&j);
		json_member_string(&j, "file", p->where);
		json_member_string(&j, "package", p->deb.package);
		json_member_string(&j, "rule", pb->rule);
		member_string_or_null(&j, "path", pb->path);
		json_member_string(&j, "message", pb->message);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	fputc('\n', fp);
}
