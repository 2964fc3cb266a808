/*
 * review-links.c: symbolic links resolved as installed, through every
 * link of the upload.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review/review.h"

/* Bound the symbolic links followed while resolving one, as the kernel. */
#define SYMLINK_HOPS 40

static void
add_links(struct review_links *l, const struct debfile *deb, bool previous)
{
	size_t i;

	for (i = 0; i < deb->nmembers; i++) {
		if (deb->members[i].type != DEBFILE_SYMLINK)
			continue;
		l->links = realloc(l->links, (l->n + 1) * sizeof(*l->links));
		if (l->links == NULL)
			abort();
		l->links[l->n].member = &deb->members[i];
		l->links[l->n].deb = deb;
		l->links[l->n++].previous = previous;
	}
}

static int
compare_links(const void *a, const void *b)
{
	const struct review_link *x = a, *y = b;
	int c = strcmp(x->member->path, y->member->path);

	/* The upload's link first: dpkg replaces the old one with it. */
	return c ? c : x->previous - y->previous;
}

void
review_links_init(struct review_links *l, const struct review *r)
{
	size_t i;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < r->npackages; i++)
		add_links(l, &r->packages[i].deb, false);
	for (i = 0; i < r->nprevious; i++)
		add_links(l, &r->previous[i], true);
	if (l->n > 0)
		qsort(l->links, l->n, sizeof(*l->links), compare_links);
}

void
review_links_free(struct review_links *l)
{
	free(l->links);
	memset(l, 0, sizeof(*l));
}

const struct review_link *
review_links_find(const struct review_links *l, const char *path)
{
	size_t lo = 0, hi = l->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(l->links[mid].member->path, path) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->n && strcmp(l->links[lo].member->path, path) == 0 ?
	       &l->links[lo] : NULL;
}

/* The length of PATH's directory part ("a/b" of "a/b/c", 0 for "c"). */
static int
dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (int)(slash - path) : 0;
}

/* DIR (its first DIRLEN bytes) joined with TARGET and REST. */
static char *
join(const char *dir, int dirlen, const char *target, const char *rest)
{
	char *s;

	if (target[0] == '/')
		dirlen = 0;
	if (asprintf(&s, "%.*s/%s/%s", dirlen, dir, target, rest) < 0)
		abort();
	return s;
}

char *
review_links_resolve(const struct review_links *l,
                     const struct debfile_member *m)
{
	char *todo = join(m->path, dir_len(m->path), m->target, "");
	int hops = 0;

	for (;;) {
		char *out = calloc(1, strlen(todo) + 1), *p = todo, *next;
		const struct review_link *link = NULL;
		size_t len = 0;

		if (out == NULL)
			abort();
		while (*p && link == NULL) {
			size_t n = strcspn(p, "/");

			if (n == 2 && p[0] == '.' && p[1] == '.') {
				char *last = strrchr(out, '/');

				len = last ? (size_t)(last - out) : 0;
				out[len] = '\0';
			} else if (n > 0 && !(n == 1 && p[0] == '.')) {
				if (len > 0)
					out[len++] = '/';
				memcpy(out + len, p, n);
				len += n;
				out[len] = '\0';
				link = review_links_find(l, out);
			}
			p += n + (p[n] == '/');
		}
		if (link == NULL) {
			free(todo);
			return out;
		}
		/* OUT is a link of the upload: go on from its target. */
		next = ++hops > SYMLINK_HOPS ? NULL :
		       join(out, dir_len(out), link->member->target, p);
		free(todo);
		free(out);
		if (next == NULL)
			return NULL;
		todo = next;
	}
}

char *
review_resolve_link(const struct debfile *deb, const struct debfile_member *m)
{
	struct review_links l = { 0 };
	char *s;

	add_links(&l, deb, false);
	if (l.n > 0)
		qsort(l.links, l.n, sizeof(*l.links), compare_links);
	s = review_links_resolve(&l, m);
	review_links_free(&l);
	return s;
}
