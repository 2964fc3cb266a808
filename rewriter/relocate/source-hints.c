/*
 * source-hints.c: where the unpacked source defines a compiled-in path.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <dpkg/macros.h>

#include "base/strings.h"
#include "dh/dh-addon.h"
#include "relocate/pathmap.h"
#include "relocate/source-hints.h"

/* Bigger files are generated or data: not where a path is set. */
#define SOURCE_FILE_MAX (4 << 20)

enum kind { MAKE, C_SOURCE, AUTOCONF, MESON_OPTIONS, MESON, CMAKE, GO };

/* The files of the build systems the add-on knows (their detect and
 * sources in templates/addon/buildsystems) are read as their language. */
static const struct {
	const char *buildsystem;
	enum kind kind;
} buildsystem_kinds[] = {
	{ "makefile", MAKE }, { "autoconf", AUTOCONF }, { "meson", MESON },
	{ "cmake", CMAKE },
};

/* And these, whichever build system compiles them. */
static const struct {
	const char *pattern;	/* fnmatch() on the file name */
	enum kind kind;
} kinds[] = {
	{ "*.[ch]", C_SOURCE }, { "*.cc", C_SOURCE }, { "*.cpp", C_SOURCE },
	{ "*.cxx", C_SOURCE }, { "*.hh", C_SOURCE }, { "*.hpp", C_SOURCE },
	{ "*.h.in", C_SOURCE },
	{ "meson_options.txt", MESON_OPTIONS }, { "meson.options", MESON_OPTIONS },
	{ "*.go", GO },
};

/* The patterns, each with the name it defines in group 1. */
static const char *const patterns[] = {
	[MAKE] = "^\\s*(?:(?:export|override)\\s+)*([A-Za-z_][A-Za-z0-9_]*)"
	         "\\s*(?:\\?=|:=|::=|\\+=|=)\\s*(.*?)\\s*$",
	[C_SOURCE] = "^\\s*#\\s*define\\s+([A-Za-z_][A-Za-z0-9_]*)\\s+(.*?)\\s*$",
	[AUTOCONF] = "(?:AC_DEFINE(?:_UNQUOTED)?|AC_SUBST)\\s*\\(\\s*\\[?"
	             "([A-Za-z_][A-Za-z0-9_]*)|^\\s*([A-Za-z_][A-Za-z0-9_]*)=",
	[MESON_OPTIONS] = "option\\s*\\(\\s*'([^']+)'",
	[MESON] = "^\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*=",
	[CMAKE] = "set\\s*\\(\\s*([A-Za-z_][A-Za-z0-9_]*)",
	/* const NAME = ..., var NAME string = ..., NAME = ... in a block */
	[GO] = "^\\s*(?:(?:const|var)\\s+)?([A-Za-z_][A-Za-z0-9_]*)"
	       "(?:\\s+[A-Za-z_][A-Za-z0-9_.]*)?\\s*=\\s*(.*?)\\s*$",
};

struct search {
	const char *dir, *string, *replacement;
	const struct dh_addon *addon;
	pcre2_code *re[GO + 1];
	pcre2_match_data *md;
	struct source_hints *hints;
};

static char *
xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (p == NULL)
		abort();
	return p;
}

static char *
xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	return s;
}

/* Whether STRING occurs at S (LEN bytes) ending at a path boundary. */
static bool
at_string(const struct search *s, const char *p, const char *end)
{
	size_t n = strlen(s->string);

	return (size_t)(end - p) >= n && memcmp(p, s->string, n) == 0 &&
	       (p + n == end || !pathmap_is_name_byte((unsigned char)p[n]));
}

/* VALUE (LEN bytes) with every occurrence of the string replaced. */
static char *
replaced(const struct search *s, const char *value, size_t len)
{
	size_t n = strlen(s->string), r = strlen(s->replacement), i, o = 0;
	char *out = malloc(len * (r / n + 1) + r + 1);

	if (out == NULL)
		abort();
	for (i = 0; i < len;) {
		if (at_string(s, value + i, value + len)) {
			memcpy(out + o, s->replacement, r);
			o += r;
			i += n;
		} else {
			out[o++] = value[i++];
		}
	}
	out[o] = '\0';
	return out;
}

/* Whether TEXT has "#ifndef NAME" before offset AT. */
static bool
guarded(const char *text, size_t at, const char *name, size_t len)
{
	const char *p = text;

	while ((p = strstr(p, "#ifndef")) != NULL && (size_t)(p - text) < at) {
		p += strlen("#ifndef");
		p += strspn(p, " \t");
		if (strncmp(p, name, len) == 0 &&
		    !pathmap_is_name_byte((unsigned char)p[len]))
			return true;
	}
	return false;
}

/* The name of the Meson option whose definition holds offset AT. */
static bool
meson_option(const struct search *s, const char *text, size_t at,
             char **name)
{
	const char *p = text, *last = NULL;
	PCRE2_SIZE *ov;

	while ((p = strstr(p, "option")) != NULL && (size_t)(p - text) <= at)
		last = p++;
	if (last == NULL ||
	    pcre2_match(s->re[MESON_OPTIONS], (PCRE2_SPTR)last,
	                (size_t)(text + at - last) + 1, 0, PCRE2_ANCHORED,
	                s->md, NULL) < 0)
		return false;
	ov = pcre2_get_ovector_pointer(s->md);
	*name = xstrndup(last + ov[2], ov[3] - ov[2]);
	return true;
}

/*
 * Whether the Go line at LS (of TEXT) declares a constant ("const"), a
 * variable ("var"), or neither (NULL): by its own keyword, else by the
 * "const (" or "var (" block it is in.  gofmt's layout is assumed: a
 * block, like a function, ends with ")" or "}" at the start of a line.
 */
static const char *
go_declaration(const char *text, const char *ls)
{
	const char *p = ls + strspn(ls, " \t");

	if (strncmp(p, "const", 5) == 0 && (p[5] == ' ' || p[5] == '\t'))
		return "const";
	if (strncmp(p, "var", 3) == 0 && (p[3] == ' ' || p[3] == '\t'))
		return "var";
	while (ls > text) {
		const char *prev = ls - 1;

		while (prev > text && prev[-1] != '\n')
			prev--;
		ls = prev;
		if (*ls == ')' || *ls == '}' || strncmp(ls, "func", 4) == 0)
			return NULL;
		p = ls + strspn(ls, " \t");
		if (strncmp(p, "const", 5) == 0 &&
		    p[5 + strspn(p + 5, " \t")] == '(')
			return "const";
		if (strncmp(p, "var", 3) == 0 &&
		    p[3 + strspn(p + 3, " \t")] == '(')
			return "var";
	}
	return NULL;
}

static void
add_hint(struct search *s, const char *file, long line, char *what,
         char *fix)
{
	struct source_hints *h = s->hints;
	struct source_hint *v = realloc(h->v, (h->n + 1) * sizeof(*v));

	if (v == NULL)
		abort();
	h->v = v;
	v[h->n].file = xasprintf("%s", file);
	v[h->n].line = line;
	v[h->n].what = what;
	v[h->n].fix = fix;
	h->n++;
}

/* The quoted string of [LS, LE) that holds AT, the string replaced. */
static char *
quoted_value(const struct search *s, const char *ls, const char *le,
             const char *at)
{
	const char *b = at, *e = at;

	while (b > ls && b[-1] != '\'' && b[-1] != '"')
		b--;
	while (e < le && *e != '\'' && *e != '"')
		e++;
	return replaced(s, b, (size_t)(e - b));
}

/*
 * The hint for the line [LS, LE) of TEXT, in FILE of kind K, where the
 * string is at AT.
 */
static void
hint_line(struct search *s, const char *file, enum kind k, const char *text,
          const char *ls, const char *le, const char *at, long line)
{
	char *name = NULL, *value, *what = NULL, *fix = NULL;
	PCRE2_SIZE *ov;
	int rc;

	rc = pcre2_match(s->re[k], (PCRE2_SPTR)ls, (size_t)(le - ls), 0, 0,
	                 s->md, NULL);
	ov = pcre2_get_ovector_pointer(s->md);
	if (rc > 1 && ov[2] != PCRE2_UNSET)
		name = xstrndup(ls + ov[2], ov[3] - ov[2]);
	else if (rc > 2 && ov[4] != PCRE2_UNSET)
		name = xstrndup(ls + ov[4], ov[5] - ov[4]);
	switch (k) {
	case MAKE:
		if (name == NULL) {
			what = xasprintf("a make rule");
			fix = xasprintf("patch it (debian/patches) to use a "
			                "variable");
			break;
		}
		value = replaced(s, ls + ov[4], ov[5] - ov[4]);
		what = xasprintf("make variable %s", name);
		fix = xasprintf("pass %s=%s to dh_auto_build", name, value);
		free(value);
		break;
	case C_SOURCE:
		if (name == NULL) {
			what = xasprintf("a string in the code");
			fix = xasprintf("patch it (debian/patches) to %s",
			                s->replacement);
			break;
		}
		value = replaced(s, ls + ov[4], ov[5] - ov[4]);
		what = xasprintf("#define %s", name);
		if (guarded(text, (size_t)(ls - text), name, strlen(name)))
			fix = xasprintf("add -D%s='%s' to "
			                "DEB_CPPFLAGS_MAINT_APPEND in debian/rules",
			                name, value);
		else
			fix = xasprintf("patch it (debian/patches) to %s", value);
		free(value);
		break;
	case AUTOCONF:
		what = name ? xasprintf("%s in configure.ac", name) :
		              xasprintf("configure.ac");
		fix = xasprintf("pass the option or variable of ./configure "
		                "that sets it to dh_auto_configure, else patch "
		                "it to %s", s->replacement);
		break;
	case MESON_OPTIONS:
		free(name);
		name = NULL;
		if (meson_option(s, text, (size_t)(ls - text), &name)) {
			value = quoted_value(s, ls, le, at);
			what = xasprintf("Meson option %s", name);
			fix = xasprintf("pass -D%s=%s to dh_auto_configure",
			                name, value);
			free(value);
		} else {
			what = xasprintf("a Meson option");
		}
		break;
	case MESON:
		what = name ? xasprintf("Meson variable %s", name) :
		              xasprintf("meson.build");
		fix = xasprintf("patch it (debian/patches) to %s, or make it "
		                "an option", s->replacement);
		break;
	case CMAKE:
		what = name ? xasprintf("CMake variable %s", name) :
		              xasprintf("a CMake file");
		if (name) {
			value = quoted_value(s, ls, le, at);
			fix = xasprintf("pass -D%s=%s to dh_auto_configure",
			                name, value);
			free(value);
		}
		break;
	case GO: {
		const char *decl = name ? go_declaration(text, ls) : NULL;

		/* -ldflags=-X would set a variable, but Go's linker keeps
		 * the old string in the program beside the new one. */
		value = quoted_value(s, ls, le, at);
		what = decl ? xasprintf("Go %s %s", strcmp(decl, "const") == 0 ?
		                        "constant" : "variable", name) :
		              xasprintf("a string in the Go code");
		fix = xasprintf("patch it (debian/patches) to %s", value);
		free(value);
		break;
	}
	}
	free(name);
	add_hint(s, file, line, what, fix);
}

/* How far a C file has been read, and what the reading stands in. */
struct c_reading {
	const char *at;
	enum { C_CODE, C_LINE_COMMENT, C_BLOCK_COMMENT, C_STRING, C_CHAR } in;
};

/*
 * Whether TO, at or after where R stands in a NUL-terminated C file, lies
 * in a comment: a comment sets nothing (tar's "The man page rmt(8) for
 * /etc/rmt documents ..."), and a hint there would send the author to
 * patch prose.  Each file is read once, as its strings are found.
 */
static bool
in_c_comment(struct c_reading *r, const char *to)
{
	const char *p = r->at;

	for (; p < to; p++) {
		switch (r->in) {
		case C_CODE:
			if (p[0] == '/' && p[1] == '*')
				r->in = C_BLOCK_COMMENT, p++;
			else if (p[0] == '/' && p[1] == '/')
				r->in = C_LINE_COMMENT, p++;
			else if (*p == '"')
				r->in = C_STRING;
			else if (*p == '\'')
				r->in = C_CHAR;
			break;
		case C_LINE_COMMENT:
			if (*p == '\n')
				r->in = C_CODE;
			break;
		case C_BLOCK_COMMENT:
			if (p[0] == '*' && p[1] == '/')
				r->in = C_CODE, p++;
			break;
		case C_STRING:
		case C_CHAR:
			if (p[0] == '\\' && p[1] != '\0')
				p++;
			else if (*p == '\n' ||
			         *p == (r->in == C_STRING ? '"' : '\''))
				r->in = C_CODE;
			break;
		}
	}
	/* A two-byte token may end past TO: the next reading starts there. */
	r->at = p;
	return r->in == C_LINE_COMMENT || r->in == C_BLOCK_COMMENT;
}

static void
search_text(struct search *s, const char *file, enum kind k,
            const char *text, size_t len)
{
	const char *p = text, *end = text + len, *last_line = NULL;
	size_t n = strlen(s->string);
	struct c_reading c = { text, C_CODE };

	while (s->hints->n < SOURCE_HINTS_MAX &&
	       (p = memmem(p, (size_t)(end - p), s->string, n)) != NULL) {
		const char *ls = p, *le;
		long line = 1;
		const char *q;

		/* After a name byte it is not this path; after $(VAR) or
		 * ${VAR} it is below some other root, as an install's
		 * $(DESTDIR)/etc/app: not what the program has compiled in. */
		if (!at_string(s, p, end) ||
		    (p > text && (pathmap_is_name_byte((unsigned char)p[-1]) ||
		                  p[-1] == ')' || p[-1] == '}')) ||
		    (k == C_SOURCE && in_c_comment(&c, p))) {
			p++;
			continue;
		}
		while (ls > text && ls[-1] != '\n')
			ls--;
		le = memchr(p, '\n', (size_t)(end - p));
		if (le == NULL)
			le = end;
		if (ls != last_line) {
			for (q = text; q < ls; q++)
				line += *q == '\n';
			hint_line(s, file, k, text, ls, le, p, line);
			last_line = ls;
		}
		p = le;
	}
}

static void
search_file(struct search *s, const char *path, const char *rel, enum kind k)
{
	struct stat st;
	FILE *fp;
	char *text;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > SOURCE_FILE_MAX)
		return;
	fp = fopen(path, "r");
	if (fp == NULL)
		return;
	text = malloc((size_t)st.st_size + 1);
	if (text == NULL)
		abort();
	if (fread(text, 1, (size_t)st.st_size, fp) == (size_t)st.st_size &&
	    memchr(text, '\0', (size_t)st.st_size) == NULL) {
		text[st.st_size] = '\0';
		search_text(s, rel, k, text, (size_t)st.st_size);
	}
	free(text);
	fclose(fp);
}

/*
 * Not the source: debian/, patches' copies, version control, and build
 * trees (obj-*, dh-golang's _build, or any directory below the top that a
 * configure step filled), whose generated files only repeat what the
 * source set.
 */
static bool
skipped_dir(const char *path, const char *name)
{
	static const char *const built[] = {
		"CMakeCache.txt", "meson-private", "config.status",
		/* dh-golang's build cache, when GOCACHE is not set */
		"go-build", NULL,
	};
	char probe[8192 + 64];
	struct stat st;
	int i;

	if (strcmp(name, "debian") == 0 || strncmp(name, "obj-", 4) == 0 ||
	    name[0] == '.')
		return true;
	/* dh-golang's build directory ("--builddirectory=_build", its
	 * default): a GOPATH holding copies of the sources in src/. */
	if (strcmp(name, "_build") == 0 &&
	    (size_t)snprintf(probe, sizeof(probe), "%s/src", path) <
	    sizeof(probe) && lstat(probe, &st) == 0 && S_ISDIR(st.st_mode))
		return true;
	for (i = 0; built[i]; i++) {
		if ((size_t)snprintf(probe, sizeof(probe), "%s/%s", path,
		                     built[i]) < sizeof(probe) &&
		    lstat(probe, &st) == 0)
			return true;
	}
	return false;
}

/* The kind of file NAME is, or -1: none where a path is set. */
static int
kind_of(const struct search *s, const char *name)
{
	size_t i, j;

	for (i = 0; i < array_count(buildsystem_kinds); i++) {
		const struct dh_buildsystem *b =
			dh_addon_buildsystem(s->addon,
			                     buildsystem_kinds[i].buildsystem);

		for (j = 0; b && b->detect && b->detect[j]; j++)
			if (fnmatch(b->detect[j], name, 0) == 0)
				return buildsystem_kinds[i].kind;
		for (j = 0; b && b->sources && b->sources[j]; j++)
			if (fnmatch(b->sources[j], name, 0) == 0)
				return buildsystem_kinds[i].kind;
	}
	for (i = 0; i < array_count(kinds); i++)
		if (fnmatch(kinds[i].pattern, name, 0) == 0)
			return kinds[i].kind;
	return -1;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Visit REL (a directory, "" for the top) in bytewise order. */
static int
walk(struct search *s, const char *rel, struct dpkg_error *err)
{
	char path[8192], **names = NULL;
	size_t n = 0, i;
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s%s%s", s->dir, *rel ? "/" : "", rel);
	d = opendir(path);
	if (d == NULL) {
		if (*rel)
			return 0;
		dpkg_put_error(err, "%s: cannot read: %s", path,
		               strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		char **v;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		v = realloc(names, (n + 1) * sizeof(*v));
		if (v == NULL)
			abort();
		names = v;
		names[n++] = xasprintf("%s", de->d_name);
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n && s->hints->n < SOURCE_HINTS_MAX; i++) {
		char child[4096], full[8192 + 4096];
		struct stat st;
		int k;

		snprintf(child, sizeof(child), "%s%s%s", rel, *rel ? "/" : "",
		         names[i]);
		snprintf(full, sizeof(full), "%s/%s", s->dir, child);
		if (lstat(full, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (!skipped_dir(full, names[i]))
				walk(s, child, err);
			continue;
		}
		/* Go's tests are not compiled into the program. */
		if (fnmatch("*_test.go", names[i], 0) == 0)
			continue;
		k = kind_of(s, names[i]);
		if (k >= 0)
			search_file(s, full, child, (enum kind)k);
	}
	strings_free(names, n);
	return 0;
}

int
source_hints_find(const char *dir, const char *string,
                  const char *replacement, struct source_hints *hints,
                  struct dpkg_error *err)
{
	struct search s = { dir, string, replacement, NULL, { NULL }, NULL,
	                    hints };
	size_t k;
	int ret;

	hints->v = NULL;
	hints->n = 0;
	if (*string == '\0')
		return 0;
	s.addon = dh_addon_data(err);
	if (s.addon == NULL)
		return -1;
	for (k = 0; k < sizeof(patterns) / sizeof(patterns[0]); k++) {
		PCRE2_SIZE erroff;
		int errcode;

		s.re[k] = pcre2_compile((PCRE2_SPTR)patterns[k],
		                        PCRE2_ZERO_TERMINATED, 0, &errcode,
		                        &erroff, NULL);
		if (s.re[k] == NULL)
			abort();
	}
	s.md = pcre2_match_data_create(8, NULL);
	ret = walk(&s, "", err);
	pcre2_match_data_free(s.md);
	for (k = 0; k < sizeof(patterns) / sizeof(patterns[0]); k++)
		pcre2_code_free(s.re[k]);
	return ret;
}

void
source_hints_free(struct source_hints *hints)
{
	size_t i;

	for (i = 0; i < hints->n; i++) {
		free(hints->v[i].file);
		free(hints->v[i].what);
		free(hints->v[i].fix);
	}
	free(hints->v);
	hints->v = NULL;
	hints->n = 0;
}
