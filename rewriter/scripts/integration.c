/*
 * integration.c: the commands a maintainer script runs only to integrate
 * its package into the system.
 */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "base/datadir.h"
#include "base/strings.h"
#include "scripts/integration.h"

static int
fail(struct dpkg_error *err, const char *path, const yaml_node_t *n,
     const char *what)
{
	dpkg_put_error(err, "%s:%lu: %s", path,
	               n ? (unsigned long)n->start_mark.line + 1 : 0UL, what);
	return -1;
}

static char *
scalar(const yaml_node_t *n)
{
	char *s;

	if (n == NULL || n->type != YAML_SCALAR_NODE)
		return NULL;
	s = strndup((const char *)n->data.scalar.value,
	            n->data.scalar.length);
	if (s == NULL)
		abort();
	return s;
}

static int
load_entry(struct integration_entry *e, yaml_document_t *doc,
           yaml_node_t *n, const char *path, struct dpkg_error *err)
{
	yaml_node_pair_t *pair;

	memset(e, 0, sizeof(*e));
	e->line = (int)n->start_mark.line + 1;
	if (n->type != YAML_MAPPING_NODE)
		return fail(err, path, n, "an entry is a mapping");
	for (pair = n->data.mapping.pairs.start;
	     pair < n->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(doc, pair->key);
		yaml_node_t *v = yaml_document_get_node(doc, pair->value);
		char *key = scalar(k), **slot = NULL;

		if (key == NULL)
			return fail(err, path, k, "keys are words");
		if (strcmp(key, "commands") == 0 &&
		    v->type == YAML_SEQUENCE_NODE) {
			yaml_node_item_t *it;

			for (it = v->data.sequence.items.start;
			     it < v->data.sequence.items.top; it++) {
				char *c = scalar(yaml_document_get_node(doc, *it));

				if (c == NULL) {
					free(key);
					return fail(err, path, v,
					            "commands are words");
				}
				e->commands = realloc(e->commands,
				                      (e->ncommands + 1) *
				                      sizeof(char *));
				if (e->commands == NULL)
					abort();
				e->commands[e->ncommands++] = c;
			}
		} else if (strcmp(key, "argument") == 0) {
			slot = &e->argument;
		} else if (strcmp(key, "option") == 0) {
			slot = &e->option;
		} else if (strcmp(key, "loses") == 0) {
			slot = &e->loses;
		} else if (strcmp(key, "instead") == 0) {
			slot = &e->instead;
		} else if (strcmp(key, "link") == 0) {
			slot = &e->link;
		} else if (strcmp(key, "rank") == 0) {
			slot = &e->rank;
		} else if (strcmp(key, "name") == 0) {
			slot = &e->name;
		} else {
			free(key);
			return fail(err, path, k, "unknown key");
		}
		free(key);
		if (slot != NULL && (*slot != NULL ||
		                     (*slot = scalar(v)) == NULL))
			return fail(err, path, v, "a value is one "
			            "string, given once");
	}
	if (e->ncommands == 0 || e->loses == NULL || e->instead == NULL)
		return fail(err, path, n, "an entry needs commands, "
		            "loses and instead");
	return 0;
}

int
integration_load(struct integration *db, const char *path,
                 struct dpkg_error *err)
{
	char buf[4096];
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	yaml_node_item_t *it;
	FILE *fp;
	int ret = 0;

	memset(db, 0, sizeof(*db));
	if (path == NULL) {
		snprintf(buf, sizeof(buf), "%s/templates/%s",
		         dh_extras_datadir(), INTEGRATION_FILE);
		path = buf;
	}
	fp = fopen(path, "r");
	if (fp == NULL) {
		dpkg_put_error(err, "%s: cannot open: %m", path);
		return -1;
	}
	if (!yaml_parser_initialize(&parser))
		abort();
	yaml_parser_set_input_file(&parser, fp);
	if (!yaml_parser_load(&parser, &doc)) {
		dpkg_put_error(err, "%s:%lu: %s", path,
		               (unsigned long)parser.problem_mark.line + 1,
		               parser.problem ? parser.problem : "bad YAML");
		yaml_parser_delete(&parser);
		fclose(fp);
		return -1;
	}
	root = yaml_document_get_root_node(&doc);
	if (root == NULL || root->type != YAML_SEQUENCE_NODE) {
		ret = fail(err, path, root, "a list of entries");
		goto done;
	}
	for (it = root->data.sequence.items.start;
	     ret == 0 && it < root->data.sequence.items.top; it++) {
		db->list = realloc(db->list, (db->n + 1) * sizeof(*db->list));
		if (db->list == NULL)
			abort();
		ret = load_entry(&db->list[db->n++], &doc,
		                 yaml_document_get_node(&doc, *it), path, err);
	}
done:
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	fclose(fp);
	if (ret < 0)
		integration_free(db);
	return ret;
}

void
integration_free(struct integration *db)
{
	size_t i;

	for (i = 0; i < db->n; i++) {
		struct integration_entry *e = &db->list[i];

		strings_free(e->commands, e->ncommands);
		free(e->argument);
		free(e->option);
		free(e->loses);
		free(e->instead);
		free(e->link);
		free(e->rank);
		free(e->name);
	}
	free(db->list);
	memset(db, 0, sizeof(*db));
}

/* NAME without a leading /bin/, /sbin/, /usr/bin/ or /usr/sbin/. */
static const char *
command_name(const char *name)
{
	static const char *const dirs[] = {
		"/usr/sbin/", "/usr/bin/", "/sbin/", "/bin/", NULL,
	};
	int i;

	for (i = 0; dirs[i]; i++)
		if (strncmp(name, dirs[i], strlen(dirs[i])) == 0 &&
		    strchr(name + strlen(dirs[i]), '/') == NULL)
			return name + strlen(dirs[i]);
	return name;
}

static bool
entry_applies(const struct integration_entry *e, char *const *argv,
              size_t argc)
{
	const char *name = command_name(argv[0]);
	size_t i;

	if (e->argument != NULL &&
	    (argc < 2 || argv[1] == NULL || strcmp(argv[1], e->argument) != 0))
		return false;
	for (i = 0; i < e->ncommands; i++)
		if (fnmatch(e->commands[i], name, 0) == 0)
			return true;
	return false;
}

bool
integration_match(const struct integration *db, char *const *argv,
                  size_t argc)
{
	size_t i;

	if (argc == 0 || argv[0] == NULL)
		return false;
	for (i = 0; i < db->n; i++)
		if (entry_applies(&db->list[i], argv, argc))
			return true;
	return false;
}

/* TEMPLATE with @PACKAGE@, @ARGn@ and @PATHn@ filled in. */
static void
fill(FILE *fp, const char *template, char *const *words, size_t nwords,
     const char *package)
{
	const char *t = template;

	while (*t) {
		unsigned n;
		int used = 0;
		char kind[8];

		if (*t == '@' && strncmp(t, "@PACKAGE@", 9) == 0) {
			fputs(package, fp);
			t += 9;
			continue;
		}
		if (*t == '@' &&
		    sscanf(t, "@%4[A-Z]%u@%n", kind, &n, &used) == 2 &&
		    used > 0 && (strcmp(kind, "ARG") == 0 ||
		                 strcmp(kind, "PATH") == 0)) {
			const char *w = n >= 1 && n <= nwords && words[n - 1] ?
			                words[n - 1] : "?";

			if (strcmp(kind, "PATH") == 0)
				w += strspn(w, "/");
			fputs(w, fp);
			t += used;
			continue;
		}
		fputc(*t++, fp);
	}
}

static char *
report(const struct integration_entry *e, char *const *words, size_t n,
       const char *package)
{
	char *s = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&s, &size);

	if (fp == NULL)
		abort();
	fill(fp, e->loses, words, n, package);
	fputs(": ", fp);
	fill(fp, e->instead, words, n, package);
	fclose(fp);
	return s;
}

size_t
integration_explain(const struct integration *db, char *const *argv,
                    size_t argc, const char *package, char ***lines)
{
	size_t i, j, n = 0;

	*lines = NULL;
	for (i = 0; i < db->n; i++) {
		const struct integration_entry *e = &db->list[i];

		if (e->option == NULL || !entry_applies(e, argv, argc))
			continue;
		for (j = 1; j < argc; j++) {
			if (argv[j] == NULL || strcmp(argv[j], e->option) != 0)
				continue;
			*lines = realloc(*lines, (n + 1) * sizeof(char *));
			if (*lines == NULL)
				abort();
			(*lines)[n++] = report(e, argv + j + 1, argc - j - 1,
			                       package);
		}
	}
	for (i = 0; n == 0 && i < db->n; i++) {
		const struct integration_entry *e = &db->list[i];

		if (e->option != NULL || !entry_applies(e, argv, argc))
			continue;
		*lines = malloc(sizeof(char *));
		if (*lines == NULL)
			abort();
		(*lines)[n++] = report(e, argv + 1, argc - 1, package);
	}
	return n;
}

/* Whether TEMPLATE's @ARGn@ and @PATHn@ all name words written out, and
 * the @PATHn@ ones absolute paths. */
static bool
words_written(const char *template, char *const *words, size_t nwords)
{
	const char *t = template;

	while ((t = strchr(t, '@')) != NULL) {
		unsigned n;
		int used = 0;
		char kind[8];

		if (sscanf(t, "@%4[A-Z]%u@%n", kind, &n, &used) == 2 &&
		    used > 0) {
			if (n < 1 || n > nwords || words[n - 1] == NULL)
				return false;
			if (strcmp(kind, "PATH") == 0 && words[n - 1][0] != '/')
				return false;
			t += used;
		} else {
			t++;
		}
	}
	return true;
}

/* TEMPLATE filled from WORDS, as a number; INTEGRATION_NO_RANK if not. */
static long
rank_of(const char *template, char *const *words, size_t nwords)
{
	char *s = NULL, *end;
	size_t size = 0;
	FILE *fp = open_memstream(&s, &size);
	long r;

	if (fp == NULL)
		abort();
	fill(fp, template, words, nwords, "");
	fclose(fp);
	errno = 0;
	r = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || r == LONG_MIN)
		r = INTEGRATION_NO_RANK;
	free(s);
	return r;
}

/* TEMPLATE filled from the words after option ARGV[J], or NULL when a
 * word it needs is not written out. */
static char *
fill_after(const char *template, char *const *argv, size_t argc, size_t j)
{
	char *s = NULL;
	size_t size = 0;
	FILE *fp;

	if (!words_written(template, argv + j + 1, argc - j - 1))
		return NULL;
	fp = open_memstream(&s, &size);
	if (fp == NULL)
		abort();
	fill(fp, template, argv + j + 1, argc - j - 1, "");
	fclose(fp);
	return s;
}

static void
append(char ***list, size_t *n, char *s)
{
	*list = realloc(*list, (*n + 1) * sizeof(char *));
	if (*list == NULL)
		abort();
	(*list)[(*n)++] = s;
}

static const char *
link_of(const struct integration_entry *e)
{
	return e->link;
}

static const char *
name_of(const struct integration_entry *e)
{
	return e->name;
}

/*
 * Each time the command ARGV gives an option an entry knows, the entry's
 * template TEMPLATE_OF (its link, its name) filled from the words after
 * the option, into *OUT (a new array); *RANK, when not NULL, from the
 * entry's rank.  Returns their number.
 */
static size_t
fill_options(const struct integration *db, char *const *argv, size_t argc,
             const char *(*template_of)(const struct integration_entry *),
             long *rank, char ***out)
{
	size_t i, j, n = 0;

	*out = NULL;
	for (i = 0; argc > 0 && argv[0] != NULL && i < db->n; i++) {
		const struct integration_entry *e = &db->list[i];
		const char *template = template_of(e);

		if (template == NULL || e->option == NULL ||
		    !entry_applies(e, argv, argc))
			continue;
		for (j = 1; j < argc; j++) {
			char *s;

			if (argv[j] == NULL || strcmp(argv[j], e->option) != 0 ||
			    (s = fill_after(template, argv, argc, j)) == NULL)
				continue;
			if (rank != NULL && e->rank != NULL)
				*rank = rank_of(e->rank, argv + j + 1,
				                argc - j - 1);
			append(out, &n, s);
		}
	}
	return n;
}

size_t
integration_links(const struct integration *db, char *const *argv,
                  size_t argc, char ***links, long *rank)
{
	*rank = INTEGRATION_NO_RANK;
	return fill_options(db, argv, argc, link_of, rank, links);
}

size_t
integration_names(const struct integration *db, char *const *argv,
                  size_t argc, char ***names)
{
	size_t n = fill_options(db, argv, argc, name_of, NULL, names), i, k;

	/* One path component, which a path can be named for. */
	for (i = k = 0; i < n; i++) {
		char *s = (*names)[i];

		if (s[0] == '\0' || strchr(s, '/') != NULL ||
		    strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
			free(s);
		else
			(*names)[k++] = s;
	}
	return k;
}
