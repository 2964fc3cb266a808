/*
 * code-paths.c: paths a program builds from instruction immediates.
 */
#include <stdlib.h>
#include <string.h>

#include "base/strings.h"
#include "relocate/code-paths.h"
#include "relocate/elf-read.h"

#define MAX_CODE_SECTIONS 16

static void
add(struct code_paths *cp, const char *dir, size_t len)
{
	size_t i;
	char **v;

	for (i = 0; i < cp->n; i++)
		if (strlen(cp->v[i]) == len && memcmp(cp->v[i], dir, len) == 0)
			return;
	v = realloc(cp->v, (cp->n + 1) * sizeof(*v));
	if (v == NULL || (v[cp->n] = strndup(dir, len)) == NULL)
		abort();
	cp->v = v;
	cp->n++;
}

void
code_paths_add_dirs(struct code_paths *cp, const char *path)
{
	const char *slash;

	for (slash = strchr(path + 1, '/'); slash != NULL;
	     slash = strchr(slash + 1, '/'))
		if ((size_t)(slash - path) >= CODE_PATHS_IMMEDIATE)
			add(cp, path, (size_t)(slash - path));
}

void
code_paths_free(struct code_paths *cp)
{
	strings_free(cp->v, cp->n);
	cp->v = NULL;
	cp->n = 0;
}

/* Whether S is a whole NUL-terminated string of RANGE in BUF. */
static bool
whole_string(const unsigned char *buf, const struct elf_range *r,
             const char *s)
{
	size_t n = strlen(s) + 1;
	const unsigned char *p = buf + r->off, *end = buf + r->off + r->size;

	while ((size_t)(end - p) >= n &&
	       (p = memmem(p, (size_t)(end - p), s, n)) != NULL) {
		if (p == buf + r->off || p[-1] == '\0')
			return true;
		p++;
	}
	return false;
}

bool
code_paths_in_rodata(const unsigned char *buf, size_t len, const char *path)
{
	struct elf_range ro;

	return elf_section_find(buf, len, ".rodata", &ro) &&
	       whole_string(buf, &ro, path);
}

bool
code_paths_in_code(const unsigned char *buf, size_t len, const char *needle,
                   size_t *at)
{
	struct elf_range code[MAX_CODE_SECTIONS];
	size_t n, i;

	n = elf_code_sections(buf, len, code, MAX_CODE_SECTIONS);
	for (i = 0; i < n; i++) {
		const unsigned char *hit = memmem(buf + code[i].off,
		                                  code[i].size, needle,
		                                  CODE_PATHS_IMMEDIATE);

		if (hit != NULL) {
			*at = (size_t)(hit - buf);
			return true;
		}
	}
	return false;
}
