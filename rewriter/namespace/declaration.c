/*
 * declaration.c: debian/extras.yaml, what an app declares about itself.
 *
 * libyaml's event parser does the YAML; this file only walks the events of
 * one mapping and refuses every construct the declaration has no use for,
 * so that no YAML feature (aliases, tags, merges) can smuggle in a value
 * the checks below did not see.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml.h>

#include <dpkg/fdio.h>

#include "namespace/declaration.h"
#include "namespace/namespace.h"

enum key_type {
	KEY_STRING,
	KEY_STRING_LIST,
};

struct key {
	const char *name;
	enum key_type type;
	/* The string check for KEY_STRING, each item's for KEY_STRING_LIST. */
	const char *(*check)(const char *value);
	/* Where a KEY_STRING goes (a struct declaration_value), or a
	 * KEY_STRING_LIST's array of them. */
	size_t offset;
	/* A KEY_STRING_LIST's count, and what one item is called. */
	size_t count_offset;
	const char *item;
};

static const struct key keys[] = {
	{ "app", KEY_STRING, namespace_check_app,
	  offsetof(struct declaration, app), 0, NULL },
	{ "root", KEY_STRING, namespace_check_root,
	  offsetof(struct declaration, root), 0, NULL },
	{ "privileges", KEY_STRING_LIST, declaration_check_privilege_name,
	  offsetof(struct declaration, privileges),
	  offsetof(struct declaration, n_privileges), "privilege" },
	{ "unpatched", KEY_STRING_LIST, declaration_check_unpatched_path,
	  offsetof(struct declaration, unpatched),
	  offsetof(struct declaration, n_unpatched), "path" },
	{ "bus-names", KEY_STRING_LIST, declaration_check_bus_name,
	  offsetof(struct declaration, bus_names),
	  offsetof(struct declaration, n_bus_names), "bus name" },
	{ "ids", KEY_STRING_LIST, declaration_check_component_id,
	  offsetof(struct declaration, ids),
	  offsetof(struct declaration, n_ids), "id" },
};

#define N_KEYS (sizeof(keys) / sizeof(keys[0]))

struct loader {
	yaml_parser_t parser;
	yaml_event_t event;
	bool have_event;
	const char *name;
	const char *buf;
	size_t len;
	struct dpkg_error *err;
	struct declaration *d;
	/* The line each key was first seen on, 0 if not yet. */
	unsigned long seen[N_KEYS];
};

static int
fail(struct loader *l, unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
fail(struct loader *l, unsigned long line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dpkg_error_destroy(l->err);
	if (line > 0)
		return dpkg_put_error(l->err, "%s:%lu: %s", l->name, line, msg);
	return dpkg_put_error(l->err, "%s: %s", l->name, msg);
}

/* libyaml reports reader errors (bad encoding) by byte offset only. */
static unsigned long
line_of_offset(const struct loader *l, size_t offset)
{
	unsigned long line = 1;
	size_t i;

	for (i = 0; i < offset && i < l->len; i++)
		if (l->buf[i] == '\n')
			line++;
	return line;
}

static unsigned long
event_line(const struct loader *l)
{
	return (unsigned long)l->event.start_mark.line + 1;
}

static int
yaml_failure(struct loader *l)
{
	const yaml_parser_t *p = &l->parser;
	const char *problem = p->problem ? p->problem : "invalid YAML";

	switch (p->error) {
	case YAML_READER_ERROR:
		return fail(l, line_of_offset(l, p->problem_offset),
		            "%s (not UTF-8 text)", problem);
	case YAML_SCANNER_ERROR:
	case YAML_PARSER_ERROR:
		return fail(l, (unsigned long)p->problem_mark.line + 1,
		            "%s", problem);
	case YAML_MEMORY_ERROR:
		return fail(l, 0, "out of memory");
	default:
		return fail(l, 0, "%s", problem);
	}
}

/*
 * Fetch the next event, refusing the YAML features a declaration never
 * needs: an alias or anchor could repeat a value past the duplicate
 * checks, a tag could change what a value means.
 */
static int
next_event(struct loader *l)
{
	const char *anchor = NULL, *tag = NULL;

	if (l->have_event)
		yaml_event_delete(&l->event);
	l->have_event = false;
	if (!yaml_parser_parse(&l->parser, &l->event))
		return yaml_failure(l);
	l->have_event = true;

	switch (l->event.type) {
	case YAML_ALIAS_EVENT:
		return fail(l, event_line(l), "aliases are not allowed");
	case YAML_SCALAR_EVENT:
		anchor = (const char *)l->event.data.scalar.anchor;
		tag = (const char *)l->event.data.scalar.tag;
		break;
	case YAML_SEQUENCE_START_EVENT:
		anchor = (const char *)l->event.data.sequence_start.anchor;
		tag = (const char *)l->event.data.sequence_start.tag;
		break;
	case YAML_MAPPING_START_EVENT:
		anchor = (const char *)l->event.data.mapping_start.anchor;
		tag = (const char *)l->event.data.mapping_start.tag;
		break;
	case YAML_DOCUMENT_START_EVENT:
		if (l->event.data.document_start.version_directive != NULL ||
		    l->event.data.document_start.tag_directives.start !=
		    l->event.data.document_start.tag_directives.end)
			return fail(l, event_line(l),
			            "YAML directives are not allowed");
		break;
	default:
		break;
	}
	if (anchor != NULL)
		return fail(l, event_line(l), "anchors are not allowed");
	if (tag != NULL)
		return fail(l, event_line(l), "tags are not allowed");
	return 0;
}

static const char *
event_kind(const yaml_event_t *e)
{
	switch (e->type) {
	case YAML_SCALAR_EVENT:
		return "a string";
	case YAML_SEQUENCE_START_EVENT:
		return "a list";
	case YAML_MAPPING_START_EVENT:
		return "a mapping";
	default:
		return "nothing";
	}
}

static bool
utf8_valid(const unsigned char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned char c = s[i];
		size_t n, k;
		unsigned long cp;

		if (c < 0x80) {
			i++;
			continue;
		} else if (c >= 0xc2 && c <= 0xdf) {
			n = 1;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			n = 2;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			n = 3;
			cp = c & 0x07;
		} else {
			return false;
		}
		for (k = 1; k <= n; k++) {
			if (i + k >= len || (s[i + k] & 0xc0) != 0x80)
				return false;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		/* Overlong forms, surrogates and beyond U+10FFFF. */
		if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
			return false;
		i += n + 1;
	}
	return true;
}

/*
 * The scalar of the current event as a string, after the checks every
 * value passes whatever its key: bounded, no NUL (a "\0" escape would cut
 * the string short of what was checked), no control character, UTF-8.
 */
static int
scalar_value(struct loader *l, const char *what, char **out)
{
	const unsigned char *v = l->event.data.scalar.value;
	size_t len = l->event.data.scalar.length, i;

	if (len > DECLARATION_VALUE_MAX)
		return fail(l, event_line(l), "%s is longer than %d bytes",
		            what, DECLARATION_VALUE_MAX);
	if (memchr(v, '\0', len) != NULL)
		return fail(l, event_line(l), "%s contains a NUL byte", what);
	for (i = 0; i < len; i++)
		if (v[i] < 0x20 || v[i] == 0x7f)
			return fail(l, event_line(l),
			            "%s contains a control character", what);
	if (!utf8_valid(v, len))
		return fail(l, event_line(l), "%s is not valid UTF-8", what);
	*out = strndup((const char *)v, len);
	if (*out == NULL)
		return fail(l, 0, "out of memory");
	return 0;
}

static int
load_string(struct loader *l, const struct key *k,
            struct declaration_value *dv)
{
	const char *why;
	char *value;

	if (next_event(l) < 0)
		return -1;
	if (l->event.type != YAML_SCALAR_EVENT)
		return fail(l, event_line(l), "'%s' must be a string, not %s",
		            k->name, event_kind(&l->event));
	if (scalar_value(l, k->name, &value) < 0)
		return -1;
	dv->value = value;
	dv->line = event_line(l);
	why = k->check(value);
	if (why != NULL)
		return fail(l, dv->line, "%s '%s' %s", k->name, value, why);
	return 0;
}

static int
add_list_item(struct loader *l, const struct key *k)
{
	struct declaration *d = l->d;
	struct declaration_value **items =
		(struct declaration_value **)((char *)d + k->offset);
	size_t *n = (size_t *)((char *)d + k->count_offset);
	struct declaration_value *dv;
	unsigned long line = event_line(l);
	const char *why;
	char *value;
	size_t i;

	if (scalar_value(l, k->item, &value) < 0)
		return -1;
	why = k->check(value);
	if (why != NULL) {
		fail(l, line, "%s '%s' %s", k->item, value, why);
		free(value);
		return -1;
	}
	for (i = 0; i < *n; i++) {
		if (strcmp((*items)[i].value, value) == 0) {
			fail(l, line, "duplicate %s '%s' (first on line %lu)",
			     k->item, value, (*items)[i].line);
			free(value);
			return -1;
		}
	}
	if (*n == DECLARATION_PRIVILEGES_MAX) {
		free(value);
		return fail(l, line, "more than %d %ss",
		            DECLARATION_PRIVILEGES_MAX, k->item);
	}
	dv = realloc(*items, (*n + 1) * sizeof(*dv));
	if (dv == NULL) {
		free(value);
		return fail(l, 0, "out of memory");
	}
	*items = dv;
	dv[*n].value = value;
	dv[*n].line = line;
	(*n)++;
	return 0;
}

static int
load_string_list(struct loader *l, const struct key *k)
{
	if (next_event(l) < 0)
		return -1;
	if (l->event.type != YAML_SEQUENCE_START_EVENT)
		return fail(l, event_line(l),
		            "'%s' must be a list of strings, not %s",
		            k->name, event_kind(&l->event));
	for (;;) {
		if (next_event(l) < 0)
			return -1;
		if (l->event.type == YAML_SEQUENCE_END_EVENT)
			return 0;
		if (l->event.type != YAML_SCALAR_EVENT)
			return fail(l, event_line(l),
			            "'%s' must be a list of strings, not hold "
			            "%s", k->name, event_kind(&l->event));
		if (add_list_item(l, k) < 0)
			return -1;
	}
}

static int
load_key(struct loader *l)
{
	unsigned long line = event_line(l);
	char *name;
	size_t i;
	int rc;

	if (l->event.type != YAML_SCALAR_EVENT)
		return fail(l, line, "keys must be strings, not %s",
		            event_kind(&l->event));
	if (scalar_value(l, "key", &name) < 0)
		return -1;
	for (i = 0; i < N_KEYS; i++)
		if (strcmp(keys[i].name, name) == 0)
			break;
	if (i == N_KEYS) {
		fail(l, line, "unknown key '%s'", name);
		free(name);
		return -1;
	}
	free(name);
	if (l->seen[i] != 0)
		return fail(l, line, "duplicate key '%s' (first on line %lu)",
		            keys[i].name, l->seen[i]);
	l->seen[i] = line;

	switch (keys[i].type) {
	case KEY_STRING:
		rc = load_string(l, &keys[i], (struct declaration_value *)
		                 ((char *)l->d + keys[i].offset));
		break;
	case KEY_STRING_LIST:
		rc = load_string_list(l, &keys[i]);
		break;
	default:
		rc = fail(l, line, "internal error: key type");
	}
	return rc;
}

static int
load_document(struct loader *l)
{
	/* An empty document ("---" alone) declares nothing. */
	if (l->event.type == YAML_SCALAR_EVENT &&
	    l->event.data.scalar.length == 0 &&
	    l->event.data.scalar.plain_implicit)
		return next_event(l);
	if (l->event.type != YAML_MAPPING_START_EVENT)
		return fail(l, event_line(l),
		            "the declaration must be a mapping of keys, not %s",
		            event_kind(&l->event));
	for (;;) {
		if (next_event(l) < 0)
			return -1;
		if (l->event.type == YAML_MAPPING_END_EVENT)
			return next_event(l);
		if (load_key(l) < 0)
			return -1;
	}
}

static int
load_stream(struct loader *l)
{
	if (next_event(l) < 0)
		return -1;
	if (l->event.type != YAML_STREAM_START_EVENT)
		return fail(l, event_line(l), "internal error: no stream");
	if (next_event(l) < 0)
		return -1;
	if (l->event.type == YAML_STREAM_END_EVENT)
		return 0;
	/* DOCUMENT_START, then the document's node. */
	if (next_event(l) < 0)
		return -1;
	if (load_document(l) < 0)
		return -1;
	/* load_document leaves us on DOCUMENT_END. */
	if (next_event(l) < 0)
		return -1;
	if (l->event.type != YAML_STREAM_END_EVENT)
		return fail(l, event_line(l),
		            "more than one YAML document");
	return 0;
}

int
declaration_load_buffer(struct declaration *d, const char *name,
                        const char *buf, size_t len,
                        struct dpkg_error *err)
{
	struct loader l;
	int rc;

	memset(d, 0, sizeof(*d));
	memset(&l, 0, sizeof(l));
	l.name = name;
	l.buf = buf;
	l.len = len;
	l.err = err;
	l.d = d;

	d->path = strdup(name);
	if (d->path == NULL)
		return fail(&l, 0, "out of memory");
	d->present = true;
	if (len > DECLARATION_FILE_MAX)
		rc = fail(&l, 0, "is larger than %d bytes",
		          DECLARATION_FILE_MAX);
	else if (!yaml_parser_initialize(&l.parser))
		rc = fail(&l, 0, "out of memory");
	else {
		yaml_parser_set_input_string(&l.parser,
		                             (const unsigned char *)buf, len);
		/* Never guess UTF-16 from a byte order mark. */
		yaml_parser_set_encoding(&l.parser, YAML_UTF8_ENCODING);
		rc = load_stream(&l);
		if (l.have_event)
			yaml_event_delete(&l.event);
		yaml_parser_delete(&l.parser);
	}
	if (rc < 0) {
		char *path = d->path;

		d->path = NULL;
		declaration_free(d);
		d->path = path;
	}
	return rc;
}

int
declaration_load(struct declaration *d, const char *path,
                 struct dpkg_error *err)
{
	struct stat st;
	char *buf;
	ssize_t len;
	int fd, rc;

	memset(d, 0, sizeof(*d));
	/* A link could make us read, and quote in errors, any file. */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		d->path = strdup(path);
		if (d->path == NULL) {
			dpkg_put_error(err, "%s: out of memory", path);
			return -1;
		}
		return 0;
	}
	if (fd < 0 && errno == ELOOP) {
		dpkg_put_error(err, "%s: is a symbolic link", path);
		return -1;
	}
	if (fd < 0) {
		dpkg_put_error(err, "%s: cannot open: %s", path,
		               strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		dpkg_put_error(err, "%s: cannot stat: %s", path,
		               strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		dpkg_put_error(err, "%s: is not a regular file", path);
		close(fd);
		return -1;
	}
	buf = malloc(DECLARATION_FILE_MAX + 1);
	if (buf == NULL) {
		dpkg_put_error(err, "%s: out of memory", path);
		close(fd);
		return -1;
	}
	/* At most DECLARATION_FILE_MAX + 1 bytes: enough to refuse more. */
	len = fd_read(fd, buf, DECLARATION_FILE_MAX + 1);
	if (len < 0) {
		dpkg_put_error(err, "%s: cannot read: %s", path,
		               strerror(errno));
		free(buf);
		close(fd);
		return -1;
	}
	close(fd);
	rc = declaration_load_buffer(d, path, buf, (size_t)len, err);
	free(buf);
	return rc;
}

void
declaration_free(struct declaration *d)
{
	size_t i;

	free(d->path);
	free(d->app.value);
	free(d->root.value);
	for (i = 0; i < d->n_privileges; i++)
		free(d->privileges[i].value);
	free(d->privileges);
	for (i = 0; i < d->n_unpatched; i++)
		free(d->unpatched[i].value);
	free(d->unpatched);
	for (i = 0; i < d->n_bus_names; i++)
		free(d->bus_names[i].value);
	free(d->bus_names);
	for (i = 0; i < d->n_ids; i++)
		free(d->ids[i].value);
	free(d->ids);
	memset(d, 0, sizeof(*d));
}

bool
declaration_has_privilege(const struct declaration *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->n_privileges; i++)
		if (strcmp(d->privileges[i].value, name) == 0)
			return true;
	return false;
}

static bool
is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

const char *
declaration_check_bus_name(const char *name)
{
	size_t len = strlen(name), i, elements = 1;

	if (len == 0 || len > 255)
		return "is not 1 to 255 characters long";
	if (name[0] == ':')
		return "is a unique name, not a well-known one";
	for (i = 0; i < len; i++) {
		char c = name[i];

		if (c == '.') {
			if (i == 0 || name[i - 1] == '.' || i + 1 == len)
				return "has an empty element";
			elements++;
		} else if (is_digit(c)) {
			if (i == 0 || name[i - 1] == '.')
				return "has an element starting with a digit";
		} else if (!is_alpha(c) && c != '_' && c != '-') {
			return "may hold only A-Z, a-z, 0-9, '_', '-' and '.'";
		}
	}
	if (elements < 2)
		return "must have at least two elements (org.example.App)";
	return NULL;
}

const char *
declaration_check_component_id(const char *id)
{
	size_t len = strlen(id), i;

	if (len == 0)
		return "is empty";
	for (i = 0; i < len; i++) {
		char c = id[i];

		if (!is_alpha(c) && !is_digit(c) && c != '.' && c != '_' &&
		    c != '-')
			return "may hold only A-Z, a-z, 0-9, '.', '_' and '-'";
		if (c == '.' && (i == 0 || id[i - 1] == '.' || i + 1 == len))
			return "has an empty element";
	}
	return NULL;
}

const char *
declaration_check_privilege_name(const char *name)
{
	size_t len = strlen(name), i;

	if (len == 0)
		return "is empty";
	if (len > DECLARATION_PRIVILEGE_MAX)
		return "is longer than 32 characters";
	for (i = 0; i < len; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '-'))
			return "may hold only a-z, 0-9 and '-'";
	}
	if (name[0] == '-')
		return "must start with a letter or a digit";
	return NULL;
}

/* One path of an unpatched: item, LEN bytes at PATH. */
static const char *
check_unpatched_word(const char *path, size_t len)
{
	size_t i;

	if (len == 0 || path[0] != '/')
		return "is not an absolute path";
	for (i = 0; i < len; i++)
		if ((unsigned char)path[i] < 0x21 || path[i] == 0x7f ||
		    path[i] == '\\')
			return "holds a blank, a control character or a backslash";
	if (memmem(path, len, "/../", 4) || memmem(path, len, "/./", 3) ||
	    memmem(path, len, "//", 2) ||
	    (len >= 3 && memcmp(path + len - 3, "/..", 3) == 0))
		return "is not a clean path";
	return NULL;
}

const char *
declaration_check_unpatched_path(const char *path)
{
	const char *space = strchr(path, ' ');
	const char *why;

	if (strlen(path) > DECLARATION_VALUE_MAX)
		return "is too long";
	if (space == NULL)
		return check_unpatched_word(path, strlen(path));
	/* "FILE STRING": that string in that file only. */
	why = check_unpatched_word(path, (size_t)(space - path));
	if (why == NULL)
		why = check_unpatched_word(space + 1, strlen(space + 1));
	return why;
}
