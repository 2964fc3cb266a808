/*
 * A Contents index, plain or compressed, read from a file by two workers,
 * and what they hand on compared with a plain reading of the same lines:
 * the parser takes short cuts (a line in the previous one's directory, the
 * previous line's package list), and they must not change what it finds.
 */
#include "fuzz.h"
#include "base/decompress.h"
#include "conflicts/contents.h"

/* One entry: a path and its list ("" for a directory). */
struct item {
	char *path, *list;
};

struct items {
	struct item *v;
	size_t n, cap;
};

static void
add_item(struct items *s, const char *path, size_t pathlen,
         const char *list, size_t listlen)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (s->v == NULL)
			abort();
	}
	s->v[s->n].path = strndup(path, pathlen);
	s->v[s->n].list = strndup(list, listlen);
	if (s->v[s->n].path == NULL || s->v[s->n].list == NULL)
		abort();
	s->n++;
}

static void
free_items(struct items *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].path);
		free(s->v[i].list);
	}
	free(s->v);
}

static int
compare_items(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	return c != 0 ? c : strcmp(x->list, y->list);
}

/* Sorted; directories once each (a worker may hand one on twice). */
static void
normalize(struct items *s)
{
	size_t i, n = 0;

	if (s->n == 0)
		return;
	qsort(s->v, s->n, sizeof(*s->v), compare_items);
	for (i = 0; i < s->n; i++) {
		if (n > 0 && s->v[i].list[0] == '\0' &&
		    compare_items(&s->v[n - 1], &s->v[i]) == 0) {
			free(s->v[i].path);
			free(s->v[i].list);
			continue;
		}
		s->v[n++] = s->v[i];
	}
	s->n = n;
}

static void
entry(void *ctx, const char *path, size_t pathlen, uint64_t hash,
      const char *packages, size_t pkglen)
{
	struct items *s = ctx;
	size_t i, namelen;

	if (hash != contents_hash(path, pathlen))
		abort();
	/* A line with a NUL is a bad one, never an entry. */
	if (memchr(path, '\0', pathlen) != NULL)
		abort();
	/* Every item of the package list names a package. */
	for (i = 0; packages != NULL && i < pkglen;) {
		const char *item = packages + i;
		const char *comma = memchr(item, ',', pkglen - i);
		size_t len = comma ? (size_t)(comma - item) : pkglen - i;

		(void)contents_item_package(item, len, &namelen);
		if (namelen > len)
			abort();
		i += len + 1;
	}
	add_item(s, path, pathlen, packages ? packages : "", pkglen);
}

static bool
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool
list_byte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '+' || c == '-' || c == '.' || c == '/' || c == ',';
}

/* Where the old free-text header ends ("FILE  LOCATION"), as documented
 * in contents.h; 0 without one. */
static size_t
header_length(const char *data, size_t size)
{
	size_t start = 0;
	int n;

	for (n = 0; n < 200 && start < size; n++) {
		const char *line = data + start;
		const char *nl = memchr(line, '\n', size - start);
		/* A last line without its newline is a line. */
		size_t len = nl ? (size_t)(nl - line) : size - start, i = 4;

		if (len > 12 && memcmp(line, "FILE", 4) == 0 &&
		    blank(line[4])) {
			while (i < len && blank(line[i]))
				i++;
			if (len - i >= 8 && memcmp(line + i, "LOCATION", 8) == 0) {
				i += 8;
				while (i < len && blank(line[i]))
					i++;
				if (i == len)
					return start + len + (nl != NULL);
			}
		}
		start += len + 1;
	}
	return 0;
}

/* The entries of DATA, one line at a time, as contents.h defines them. */
static void
read_plainly(const char *data, size_t size, struct items *s)
{
	size_t start = header_length(data, size);

	while (start < size) {
		const char *line = data + start;
		const char *nl = memchr(line, '\n', size - start);
		size_t len = nl ? (size_t)(nl - line) : size - start;
		size_t end = len, pkgs, path = 0, k;

		start += len + 1;
		if (memchr(line, '\0', len) != NULL)
			continue;
		while (end > 0 && blank(line[end - 1]))
			end--;
		for (pkgs = end; pkgs > 0 && !blank(line[pkgs - 1]); pkgs--)
			continue;
		if (pkgs == end || pkgs == 0 || line[pkgs] == ',' ||
		    line[end - 1] == ',' || line[pkgs] == '/')
			continue;
		for (k = pkgs; k < end && list_byte(line[k]); k++)
			continue;
		if (k < end)
			continue;
		for (k = pkgs; k > 0 && blank(line[k - 1]); k--)
			continue;
		while (path < k && line[path] == '/')
			path++;
		if (k - path >= 2 && line[path] == '.' && line[path + 1] == '/')
			path += 2;
		if (path == k)
			continue;
		add_item(s, line + path, k - path, line + pkgs, end - pkgs);
		for (end = path + 1; end < k; end++)
			if (line[end] == '/')
				add_item(s, line + path, end - path, "", 0);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct items seen[2] = { { 0 }, { 0 } }, all = { 0 }, plain = { 0 };
	void *const ctx[2] = { &seen[0], &seen[1] };
	const char *files[1];
	struct contents_stats stats;
	struct dpkg_error err = DPKG_ERROR_INIT;
	size_t i, w;
	int ret;

	memset(&stats, 0, sizeof(stats));
	files[0] = fuzz_file("Contents-amd64", data, size);
	ret = contents_read(files, 1, 2, entry, ctx, &stats, &err);
	dpkg_error_destroy(&err);
	if (ret == 0 && decompress_type_sniff(data, size) == DECOMPRESS_NONE) {
		for (w = 0; w < 2; w++)
			for (i = 0; i < seen[w].n; i++)
				add_item(&all, seen[w].v[i].path,
				         strlen(seen[w].v[i].path),
				         seen[w].v[i].list,
				         strlen(seen[w].v[i].list));
		read_plainly((const char *)data, size, &plain);
		normalize(&all);
		normalize(&plain);
		if (all.n != plain.n)
			abort();
		for (i = 0; i < all.n; i++)
			if (compare_items(&all.v[i], &plain.v[i]) != 0)
				abort();
	}
	free_items(&seen[0]);
	free_items(&seen[1]);
	free_items(&all);
	free_items(&plain);
	return 0;
}
