/*
 * report.c: what a rewrite did and what it could not do.
 */
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "relocate/report.h"

void
report_init(struct report *r)
{
	memset(r, 0, sizeof(*r));
}

void
report_free(struct report *r)
{
	size_t i;

	for (i = 0; i < r->n_moves; i++) {
		free(r->moves[i].from);
		free(r->moves[i].to);
	}
	for (i = 0; i < r->n_exports; i++) {
		free(r->exports[i].from);
		free(r->exports[i].to);
	}
	for (i = 0; i < r->n_patches; i++) {
		free(r->patches[i].file);
		free(r->patches[i].old);
		free(r->patches[i].new);
	}
	for (i = 0; i < r->n_unpatched; i++) {
		free(r->unpatched[i].file);
		free(r->unpatched[i].string);
		free(r->unpatched[i].reason);
	}
	for (i = 0; i < r->n_accepted; i++) {
		free(r->accepted[i].file);
		free(r->accepted[i].string);
		free(r->accepted[i].reason);
	}
	for (i = 0; i < r->n_flags; i++)
		free(r->flags[i].file);
	free(r->moves);
	free(r->exports);
	free(r->patches);
	free(r->unpatched);
	free(r->accepted);
	free(r->flags);
	report_init(r);
}

/* Make room for one more element; returns it zeroed, or NULL. */
static void *
grow(void **v, size_t *n, size_t *alloc, size_t size)
{
	char *p;

	if (*n == *alloc) {
		size_t a = *alloc ? *alloc * 2 : 16;
		void *nv = realloc(*v, a * size);

		if (nv == NULL)
			return NULL;
		*v = nv;
		*alloc = a;
	}
	p = (char *)*v + (*n)++ * size;
	memset(p, 0, size);
	return p;
}

#define GROW(r, name) \
	grow((void **)&(r)->name, &(r)->n_##name, &(r)->alloc_##name, \
	     sizeof(*(r)->name))

static char *
dup_or_flag(struct report *r, const char *s, size_t len)
{
	char *d = strndup(s, len);

	if (d == NULL)
		r->oom = true;
	return d;
}

/* Fill M (NULL: the array could not grow) with copies of FROM and TO. */
static void
set_move(struct report *r, struct report_move *m, const char *from,
         const char *to)
{
	if (m == NULL) {
		r->oom = true;
		return;
	}
	m->from = dup_or_flag(r, from, strlen(from));
	m->to = dup_or_flag(r, to, strlen(to));
}

void
report_move(struct report *r, const char *from, const char *to)
{
	set_move(r, GROW(r, moves), from, to);
}

void
report_export(struct report *r, const char *from, const char *to)
{
	set_move(r, GROW(r, exports), from, to);
}

void
report_patch(struct report *r, const char *file, const char *kind,
             long line, long long offset, const char *old, size_t oldlen,
             const char *new)
{
	struct report_patch *p = GROW(r, patches);

	if (p == NULL) {
		r->oom = true;
		return;
	}
	p->file = dup_or_flag(r, file, strlen(file));
	p->kind = kind;
	p->line = line;
	p->offset = offset;
	p->old = dup_or_flag(r, old, oldlen);
	p->new = dup_or_flag(r, new, strlen(new));
}

void
report_unpatched(struct report *r, const char *file, long long offset,
                 const char *string, size_t len, const char *reason)
{
	struct report_unpatched *u = GROW(r, unpatched);

	if (u == NULL) {
		r->oom = true;
		return;
	}
	u->file = dup_or_flag(r, file, strlen(file));
	u->offset = offset;
	u->string = dup_or_flag(r, string, len);
	u->reason = dup_or_flag(r, reason, strlen(reason));
}

void
report_flag(struct report *r, const char *file, const char *flag)
{
	struct report_flag *f = GROW(r, flags);

	if (f == NULL) {
		r->oom = true;
		return;
	}
	f->file = dup_or_flag(r, file, strlen(file));
	f->flag = flag;
}

/*
 * Whether the reference STRING of FILE is accepted: its file (or a
 * directory above it, "DIR/") is listed alone, or with that very string
 * ("FILE STRING"), so that another path in the same file still fails.
 */
static bool
is_accepted(const char *file, const char *string,
            const char *const *accepted, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *space = strchr(accepted[i], ' ');
		size_t len = space ? (size_t)(space - accepted[i])
		                   : strlen(accepted[i]);

		if (space != NULL && strcmp(space + 1, string) != 0)
			continue;
		if ((strlen(file) == len &&
		     strncmp(file, accepted[i], len) == 0) ||
		    (len > 0 && accepted[i][len - 1] == '/' &&
		     strncmp(file, accepted[i], len) == 0))
			return true;
	}
	return false;
}

void
report_accept(struct report *r, const char *const *accepted,
              size_t n_accepted)
{
	size_t i, kept = 0;

	for (i = 0; i < r->n_unpatched; i++) {
		struct report_unpatched *u = &r->unpatched[i];

		if (!is_accepted(u->file, u->string, accepted, n_accepted)) {
			r->unpatched[kept++] = *u;
			continue;
		}
		struct report_unpatched *a = GROW(r, accepted);

		if (a == NULL) {
			r->oom = true;
			r->unpatched[kept++] = *u;
			continue;
		}
		*a = *u;
	}
	r->n_unpatched = kept;
}

static int
append(void **into, size_t *n, size_t *alloc, void **from, size_t *fn,
       size_t *falloc, size_t size)
{
	if (*fn == 0)
		return 0;
	if (*n + *fn > *alloc) {
		size_t a = *n + *fn;
		void *v = realloc(*into, a * size);

		if (v == NULL)
			return -1;
		*into = v;
		*alloc = a;
	}
	memcpy((char *)*into + *n * size, *from, *fn * size);
	*n += *fn;
	free(*from);
	*from = NULL;
	*fn = *falloc = 0;
	return 0;
}

#define TAKE(into, from, name) \
	append((void **)&(into)->name, &(into)->n_##name, \
	       &(into)->alloc_##name, (void **)&(from)->name, \
	       &(from)->n_##name, &(from)->alloc_##name, sizeof(*(into)->name))

void
report_take(struct report *into, struct report *from)
{
	if (TAKE(into, from, moves) < 0 || TAKE(into, from, exports) < 0 ||
	    TAKE(into, from, patches) < 0 || TAKE(into, from, unpatched) < 0 ||
	    TAKE(into, from, accepted) < 0 ||
	    TAKE(into, from, flags) < 0)
		into->oom = true;
	if (from->oom)
		into->oom = true;
	into->n_rpath_patchelf += from->n_rpath_patchelf;
	report_free(from);
}

static struct json_object *
json_moves(const struct report_move *m, size_t n)
{
	struct json_object *a = json_new_array();
	size_t i;

	for (i = 0; i < n; i++) {
		struct json_object *o = json_new_object();

		json_add_text(o, "from", m[i].from);
		json_add_text(o, "to", m[i].to);
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *
json_unpatched(const struct report_unpatched *u, size_t n)
{
	struct json_object *a = json_new_array();
	size_t i;

	for (i = 0; i < n; i++) {
		struct json_object *o = json_new_object();

		json_add_text(o, "file", u[i].file);
		json_add_int(o, "offset", u[i].offset);
		json_add_text(o, "string", u[i].string);
		json_add_text(o, "reason", u[i].reason);
		json_object_array_add(a, o);
	}
	return a;
}

void
report_write_json(const struct report *r, const struct extras_namespace *ns,
                  bool dry_run, FILE *fp)
{
	struct json_object *j = json_new_object(), *a, *sum;
	size_t i;

	json_add_text(j, "app", ns->app);
	json_add_text(j, "root", ns->root);
	json_add_text(j, "namespace", ns->path);
	json_add_bool(j, "dry_run", dry_run);
	json_add(j, "moves", json_moves(r->moves, r->n_moves));
	json_add(j, "exports", json_moves(r->exports, r->n_exports));

	a = json_new_array();
	for (i = 0; i < r->n_patches; i++) {
		const struct report_patch *p = &r->patches[i];
		struct json_object *o = json_new_object();

		json_add_text(o, "file", p->file);
		json_add_text(o, "kind", p->kind);
		if (p->line > 0)
			json_add_int(o, "line", p->line);
		if (p->offset >= 0)
			json_add_int(o, "offset", p->offset);
		json_add_text(o, "old", p->old);
		json_add_text(o, "new", p->new);
		json_object_array_add(a, o);
	}
	json_add(j, "patches", a);

	json_add(j, "unpatched", json_unpatched(r->unpatched, r->n_unpatched));
	json_add(j, "accepted", json_unpatched(r->accepted, r->n_accepted));

	a = json_new_array();
	for (i = 0; i < r->n_flags; i++) {
		struct json_object *o = json_new_object();

		json_add_text(o, "file", r->flags[i].file);
		json_add_text(o, "flag", r->flags[i].flag);
		json_object_array_add(a, o);
	}
	json_add(j, "flags", a);

	sum = json_new_object();
	json_add_int(sum, "moves", (long long)r->n_moves);
	json_add_int(sum, "exports", (long long)r->n_exports);
	json_add_int(sum, "patches", (long long)r->n_patches);
	json_add_int(sum, "unpatched", (long long)r->n_unpatched);
	json_add_int(sum, "accepted", (long long)r->n_accepted);
	json_add_int(sum, "flags", (long long)r->n_flags);
	json_add_int(sum, "rpath_patchelf", (long long)r->n_rpath_patchelf);
	json_add(j, "summary", sum);
	json_write(fp, j);
}

void
report_write_summary(const struct report *r, const char *progname,
                     bool dry_run, FILE *fp)
{
	size_t i;

	fprintf(fp, "%s: %s%zu moved, %zu exported, %zu patched, "
	        "%zu flagged, %zu unpatched", progname,
	        dry_run ? "dry run: " : "", r->n_moves, r->n_exports,
	        r->n_patches, r->n_flags, r->n_unpatched);
	if (r->n_accepted > 0)
		fprintf(fp, " (%zu more accepted)", r->n_accepted);
	if (r->n_rpath_patchelf > 0)
		fprintf(fp, "; %zu RUNPATH%s set by patchelf (no room in the "
		        "file)", r->n_rpath_patchelf,
		        r->n_rpath_patchelf == 1 ? "" : "s");
	fputc('\n', fp);
	for (i = 0; i < r->n_unpatched; i++) {
		const struct report_unpatched *u = &r->unpatched[i];

		fprintf(fp, "%s: error: %s: offset %lld: '", progname, u->file,
		        u->offset);
		json_put_escaped(fp, u->string);
		fprintf(fp, "': %s\n", u->reason);
	}
}
