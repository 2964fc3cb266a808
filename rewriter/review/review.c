/*
 * review.c: the review gate: packages in, problems out.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>

#include "base/strings.h"
#include "review/review.h"

static void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (p == NULL)
		abort();
	return p;
}


void
review_init(struct review *r, const struct review_options *opt)
{
	memset(r, 0, sizeof(*r));
	if (opt != NULL)
		r->opt = *opt;
}

void
review_free(struct review *r)
{
	size_t i;

	for (i = 0; i < r->npackages; i++) {
		free(r->packages[i].where);
		debfile_destroy(&r->packages[i].deb);
		declaration_free(&r->packages[i].decl);
	}
	free(r->packages);
	for (i = 0; i < r->nproblems; i++) {
		free(r->problems[i].rule);
		free(r->problems[i].path);
		free(r->problems[i].message);
	}
	free(r->problems);
	strings_free(r->changes, r->nchanges);
	for (i = 0; i < r->nprevious; i++)
		debfile_destroy(&r->previous[i]);
	free(r->previous);
	memset(r, 0, sizeof(*r));
}

struct review_package *
review_add_package(struct review *r, const char *where)
{
	struct review_package *p;

	r->packages = xrealloc(r->packages,
	                       (r->npackages + 1) * sizeof(*r->packages));
	p = &r->packages[r->npackages];
	memset(p, 0, sizeof(*p));
	p->where = m_strdup(where);
	return p;
}

bool
review_same_source(const struct review_package *a,
                   const struct review_package *b)
{
	return strcmp(a->deb.source, b->deb.source) == 0;
}

void
review_problem(struct review *r, size_t p, const char *rule,
               const char *path, const char *fmt, ...)
{
	struct review_problem *pb;
	va_list ap;

	r->problems = xrealloc(r->problems,
	                       (r->nproblems + 1) * sizeof(*r->problems));
	pb = &r->problems[r->nproblems++];
	pb->package = p;
	pb->rule = m_strdup(rule);
	pb->path = path ? m_strdup(path) : NULL;
	va_start(ap, fmt);
	if (vasprintf(&pb->message, fmt, ap) < 0)
		abort();
	va_end(ap);
	r->packages[p].nproblems++;
}

/*
 * The namespace of each package: APP from the declaration it carries,
 * else from its source name; the root is the store's (the options'), never
 * the package's: a declaration naming another root is refused.
 */
static void
find_namespaces(struct review *r)
{
	const char *root = review_root(r);
	size_t i;

	for (i = 0; i < r->npackages; i++) {
		struct review_package *p = &r->packages[i];
		const struct debfile_control_member *c;
		const char *app, *why;
		struct dpkg_error derr = DPKG_ERROR_INIT;
		char name[4096 + 32];

		c = debfile_control_member(&p->deb, REVIEW_DECLARATION);
		snprintf(name, sizeof(name), "%s", REVIEW_DECLARATION);
		if (c != NULL && c->type != DEBFILE_REGULAR) {
			review_problem(r, i, "declaration", NULL, "control "
			               "member %s is not a regular file",
			               REVIEW_DECLARATION);
			continue;
		}
		if (c != NULL &&
		    declaration_load_buffer(&p->decl, name, c->data, c->size,
		                            &derr) < 0) {
			review_problem(r, i, "declaration", NULL, "%s",
			               derr.str);
			dpkg_error_destroy(&derr);
			continue;
		}
		if (p->decl.root.value != NULL &&
		    strcmp(p->decl.root.value, root) != 0) {
			review_problem(r, i, "declaration", NULL, "%s:%lu: root "
			               "'%s' is not the store's namespace root "
			               "%s: the store decides the root, not the "
			               "package", REVIEW_DECLARATION,
			               p->decl.root.line, p->decl.root.value,
			               root);
			continue;
		}
		if (r->opt.identity != NULL && p->decl.app.value != NULL &&
		    strcmp(p->decl.app.value, r->opt.identity->app) != 0) {
			review_problem(r, i, "identity", NULL, "%s:%lu: app "
			               "'%s' is not %s, the app the store "
			               "decided", REVIEW_DECLARATION,
			               p->decl.app.line, p->decl.app.value,
			               r->opt.identity->app);
			continue;
		}
		app = r->opt.identity ? r->opt.identity->app :
		      p->decl.app.value ? p->decl.app.value :
		      namespace_app_of_package(p->deb.source);
		why = namespace_init(&p->ns, app, root);
		if (why != NULL) {
			review_problem(r, i, "declaration", NULL, "namespace of "
			               "app '%s' and root '%s': %s", app, root,
			               why);
			continue;
		}
		if (profile_name(&p->ns, p->profile_name,
		                 sizeof(p->profile_name)) < 0) {
			review_problem(r, i, "declaration", NULL, "namespace %s "
			               "is too long for a profile name",
			               p->ns.path);
			continue;
		}
		p->namespace_ok = true;
	}
}

/*
 * Whether P went through extras-convert: an extras- name, or the
 * declaration the add-on ships.  A package with neither breaks every rule
 * for that one reason, which is the only one worth telling its author.
 */
static bool
is_extras_package(const struct review_package *p)
{
	size_t n = strlen(EXTRAS_PREFIX);

	return (p->deb.package != NULL &&
	        strncmp(p->deb.package, EXTRAS_PREFIX, n) == 0) ||
	       (p->deb.source != NULL &&
	        strncmp(p->deb.source, EXTRAS_PREFIX, n) == 0) ||
	       debfile_control_member(&p->deb, REVIEW_DECLARATION) != NULL;
}

/* One problem for each package that is not an extras package; how many. */
static size_t
refuse_unconverted(struct review *r)
{
	size_t i, refused = 0;

	for (i = 0; i < r->npackages; i++) {
		const struct review_package *p = &r->packages[i];
		const char *name = p->deb.source ? p->deb.source :
		                   p->deb.package ? p->deb.package : "NAME";

		if (is_extras_package(p))
			continue;
		review_problem(r, i, "converted", NULL, "not an extras "
		               "package: no %s name and no %s, so its source "
		               "was not converted: run extras-convert on the "
		               "source (extras-convert --privileges LIST DIR, "
		               "or -o OUTDIR FILE.dsc), build it, and review "
		               "the %s%s packages", EXTRAS_PREFIX,
		               REVIEW_DECLARATION, EXTRAS_PREFIX, name);
		refused++;
	}
	return refused;
}

const char *
review_root(const struct review *r)
{
	return r->opt.root != NULL ? r->opt.root : EXTRAS_DEFAULT_ROOT;
}

int
review_run(struct review *r, struct dpkg_error *err)
{
	/* Every other rule would only restate that it was not converted. */
	if (refuse_unconverted(r) > 0)
		return 0;
	find_namespaces(r);
	review_identity(r);
	review_members(r);
	review_control(r);
	review_files(r);
	review_conffiles(r);
	if (review_scripts(r, err) < 0 ||
	    review_works(r, err) < 0)
		return -1;
	return review_profile(r, err);
}

/* S with control characters as \xNN: one problem, one line. */
static void
put_clean(FILE *fp, const char *s)
{
	for (; *s; s++) {
		unsigned char c = *s;

		if (c < 0x20 || c == 0x7f)
			fprintf(fp, "\\x%02x", c);
		else
			fputc(c, fp);
	}
}

void
review_print(const struct review *r, const char *prefix, FILE *fp)
{
	size_t i;

	for (i = 0; i < r->nproblems; i++) {
		const struct review_problem *pb = &r->problems[i];

		fputs(prefix, fp);
		put_clean(fp, r->packages[pb->package].where);
		fprintf(fp, ": %s: ", pb->rule);
		if (pb->path != NULL) {
			put_clean(fp, pb->path);
			fputs(": ", fp);
		}
		put_clean(fp, pb->message);
		fputc('\n', fp);
	}
}
