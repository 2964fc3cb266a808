/*
 * profile.c: the AppArmor profile of an app, from its declaration.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/datadir.h"
#include "base/strings.h"
#include "apparmor/profile.h"
#include "namespace/reserved.h"
#include "base/template.h"

#define PRIVILEGE_SUFFIX ".apparmor"

/* What the profile is assembled from, all checked before any output. */
struct assembly {
	const struct profile_request *r;
	char templates_buf[4096];
	const char *templates;
	char name[PROFILE_NAME_MAX + 1];
	struct template skeleton;
	/* The declared privileges, sorted by name. */
	struct template *privileges;
	size_t n_privileges;
	const char **executables;
	/* Rule lines already written, so that two privileges including the
	 * same abstraction write it once. */
	char **seen;
	size_t n_seen;
	struct dpkg_error *err;
};

const char *
profile_check_word(const char *s)
{
	size_t len = strlen(s);
	const char *p;

	if (len == 0)
		return "is empty";
	if (len > PROFILE_WORD_MAX)
		return "is longer than 256 bytes";
	for (p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '/' || c == '.' ||
		    c == '_' || c == '+' || c == '-')
			continue;
		if (c == '\n' || c == '\r')
			return "contains a newline";
		if (c == ',')
			return "contains a comma";
		if (c == '{' || c == '}')
			return "contains a brace";
		if (c == '"' || c == '\'')
			return "contains a quote";
		if (c == '#')
			return "contains '#'";
		if (c == '@')
			return "contains '@'";
		if (c == '*' || c == '?' || c == '[' || c == ']' || c == '^')
			return "contains a glob character";
		if (c == ' ' || c == '\t')
			return "contains white space";
		return "contains a character other than letters, digits, "
		       "'/', '.', '_', '+' and '-'";
	}
	if (strstr(s, "..") != NULL)
		return "contains '..'";
	return NULL;
}

const char *
profile_check_executable(const struct extras_namespace *ns, const char *path)
{
	size_t n = strlen(ns->path);
	const char *why = profile_check_word(path);

	if (why != NULL)
		return why;
	if (strncmp(path, ns->path, n) != 0 || path[n] != '/' ||
	    path[n + 1] == '\0')
		return "is not in the namespace";
	if (strstr(path, "//") != NULL)
		return "contains an empty component";
	if (path[strlen(path) - 1] == '/')
		return "ends with '/'";
	if (strstr(path, "/./") != NULL)
		return "contains a '.' component";
	return NULL;
}

static const char *
templates_dir(const char *templates, char *buf, size_t size)
{
	if (templates != NULL)
		return templates;
	snprintf(buf, size, "%s/templates", dh_extras_datadir());
	return buf;
}

/* Load privilege NAME; 1 when the catalogue has no such privilege. */
static int
load_privilege(struct template *t, const char *templates, const char *name,
               struct dpkg_error *err)
{
	const char *field;
	char path[4096];
	int rc;

	if (declaration_check_privilege_name(name) != NULL)
		return 1;
	snprintf(path, sizeof(path), "%s/apparmor/privileges/%s" PRIVILEGE_SUFFIX,
	         templates, name);
	rc = template_load(t, path, err);
	if (rc != 0)
		return rc;
	field = template_field(t, "Privilege");
	if (field == NULL || strcmp(field, name) != 0) {
		dpkg_put_error(err, "%s: header field Privilege is not "
		               "'%s'", path, name);
		template_free(t);
		return -1;
	}
	field = template_field(t, "Class");
	if (field == NULL || (strcmp(field, "common") != 0 &&
	                      strcmp(field, "reserved") != 0)) {
		dpkg_put_error(err, "%s: header field Class is not "
		               "'common' or 'reserved'", path);
		template_free(t);
		return -1;
	}
	if (template_field(t, "Grants") == NULL) {
		dpkg_put_error(err, "%s: header field Grants is missing",
		               path);
		template_free(t);
		return -1;
	}
	return 0;
}

static bool
is_reserved(const struct template *t)
{
	return strcmp(template_field(t, "Class"), "reserved") == 0;
}

/* Whether R accepts the reserved privilege NAME. */
static bool
reserved_granted(const struct profile_request *r, const char *name)
{
	size_t i;

	if (r->allow_reserved)
		return true;
	for (i = 0; i < r->n_granted; i++)
		if (strcmp(r->granted[i], name) == 0)
			return true;
	return false;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int
by_privilege(const void *a, const void *b)
{
	return strcmp(template_field(a, "Privilege"),
	              template_field(b, "Privilege"));
}

int
profile_check_grant(const char *templates, const char *name,
                    struct dpkg_error *err)
{
	char buf[4096];
	struct template t;
	bool reserved;
	int rc;

	templates = templates_dir(templates, buf, sizeof(buf));
	rc = load_privilege(&t, templates, name, err);
	if (rc == 1)
		dpkg_put_error(err, "granted privilege '%s' is unknown", name);
	if (rc != 0)
		return -1;
	reserved = is_reserved(&t);
	template_free(&t);
	if (!reserved)
		return dpkg_put_error(err, "granted privilege '%s' is not "
		                      "reserved: any app may declare it", name);
	return 0;
}

/* Each granted name a reserved privilege: a misspelt grant would grant
 * nothing, silently. */
static int
check_grants(struct assembly *a)
{
	size_t i;

	for (i = 0; i < a->r->n_granted; i++)
		if (profile_check_grant(a->templates, a->r->granted[i],
		                        a->err) < 0)
			return -1;
	return 0;
}

static int
load_privileges(struct assembly *a)
{
	const struct declaration *d = a->r->declaration;
	size_t i;

	if (d == NULL || d->n_privileges == 0)
		return 0;
	a->privileges = calloc(d->n_privileges, sizeof(*a->privileges));
	if (a->privileges == NULL) {
		dpkg_put_error(a->err, "%s: out of memory", d->path);
		return -1;
	}
	for (i = 0; i < d->n_privileges; i++) {
		const struct declaration_value *v = &d->privileges[i];
		struct template *t = &a->privileges[a->n_privileges];
		int rc = load_privilege(t, a->templates, v->value, a->err);

		if (rc == 1) {
			dpkg_put_error(a->err, "%s:%lu: unknown "
			               "privilege '%s'", d->path, v->line,
			               v->value);
			return -1;
		}
		if (rc < 0)
			return -1;
		a->n_privileges++;
		if (is_reserved(t) && !reserved_granted(a->r, v->value)) {
			dpkg_put_error(a->err, "%s:%lu: privilege '%s' "
			               "is reserved and not allowed here",
			               d->path, v->line, v->value);
			return -1;
		}
	}
	qsort(a->privileges, a->n_privileges, sizeof(*a->privileges),
	      by_privilege);
	for (i = 1; i < a->n_privileges; i++) {
		if (by_privilege(&a->privileges[i - 1], &a->privileges[i]) ==
		    0) {
			dpkg_put_error(a->err, "%s: privilege '%s' is "
			               "declared twice", d->path,
			               template_field(&a->privileges[i],
			                              "Privilege"));
			return -1;
		}
	}
	return 0;
}

static int
check_executables(struct assembly *a)
{
	const struct profile_request *r = a->r;
	size_t i;

	if (r->n_executables == 0)
		return 0;
	a->executables = calloc(r->n_executables, sizeof(*a->executables));
	if (a->executables == NULL) {
		dpkg_put_error(a->err, "out of memory");
		return -1;
	}
	for (i = 0; i < r->n_executables; i++) {
		const char *why = profile_check_executable(r->ns,
		                                           r->executables[i]);

		if (why != NULL) {
			dpkg_put_error(a->err, "executable '%s' %s",
			               r->executables[i], why);
			return -1;
		}
		a->executables[i] = r->executables[i];
	}
	qsort(a->executables, r->n_executables, sizeof(*a->executables),
	      by_name);
	for (i = 1; i < r->n_executables; i++) {
		if (strcmp(a->executables[i - 1], a->executables[i]) == 0) {
			dpkg_put_error(a->err, "executable '%s' is "
			               "listed twice", a->executables[i]);
			return -1;
		}
	}
	return 0;
}

/* Everything the namespace contributes, checked once more as words. */
static int
check_namespace(struct assembly *a)
{
	const struct extras_namespace *ns = a->r->ns;
	const char *why;

	char *holds;
	int reserved;

	if ((why = profile_check_word(ns->app)) != NULL) {
		dpkg_put_error(a->err, "app '%s' %s", ns->app, why);
		return -1;
	}
	/* The profile grants ~/.APP/ and the XDG directories named APP:
	 * never another program's. */
	reserved = reserved_app(a->templates, ns->app, &holds, a->err);
	if (reserved < 0)
		return -1;
	if (reserved > 0) {
		dpkg_put_error(a->err, "app id '%s' is reserved: the name holds "
		               "%s, which its profile would reach; choose "
		               "another app id (templates/identity/"
		               "reserved-apps)", ns->app, holds);
		free(holds);
		return -1;
	}
	if ((why = profile_check_word(ns->path)) != NULL || ns->path[0] != '/') {
		dpkg_put_error(a->err, "namespace '%s' %s", ns->path,
		               why ? why : "is not absolute");
		return -1;
	}
	if (profile_name(ns, a->name, sizeof(a->name)) < 0 ||
	    (why = profile_check_word(a->name)) != NULL) {
		dpkg_put_error(a->err, "profile name '%s' %s", a->name,
		               why ? why : "is too long");
		return -1;
	}
	return 0;
}

/* A body line is a comment, an include, or one rule ending in ','. */
static bool
is_rule(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	return *line != '\0' && *line != '#';
}

static bool
well_formed(const char *line)
{
	size_t len;

	while (*line == ' ' || *line == '\t')
		line++;
	len = strlen(line);
	if (len == 0 || line[0] == '#')
		return true;
	if ((strncmp(line, "include <", 9) == 0 ||
	     strncmp(line, "include if exists <", 19) == 0) &&
	    line[len - 1] == '>')
		return true;
	/* Neither closes the profile nor opens a block of its own. */
	return line[len - 1] == ',' && line[0] != '}' &&
	       strncmp(line, "profile ", 8) != 0 && line[0] != '^';
}

static int
seen_before(struct assembly *a, const char *line)
{
	char **s;
	size_t i;

	while (*line == ' ' || *line == '\t')
		line++;
	for (i = 0; i < a->n_seen; i++)
		if (strcmp(a->seen[i], line) == 0)
			return 1;
	s = realloc(a->seen, (a->n_seen + 1) * sizeof(*s));
	if (s == NULL)
		return -1;
	a->seen = s;
	s[a->n_seen] = strdup(line);
	if (s[a->n_seen] == NULL)
		return -1;
	a->n_seen++;
	return 0;
}

/*
 * Write the body of T, placeholders filled in, to FP.  A privilege's
 * lines must each be one whole rule, so that dropping one written before
 * cannot cut a rule in half.
 */
static int
write_body(struct assembly *a, const struct template *t,
           const struct template_subst *subst, size_t n, bool privilege,
           FILE *fp);

static int
write_privileges(struct assembly *a, const struct template_subst *subst,
                 size_t n, FILE *fp)
{
	size_t i;

	if (a->n_privileges == 0) {
		fputs("  # No privileges declared.\n", fp);
		return 0;
	}
	for (i = 0; i < a->n_privileges; i++) {
		const struct template *t = &a->privileges[i];

		fprintf(fp, "%s  # Privilege %s (%s).\n", i ? "\n" : "",
		        template_field(t, "Privilege"),
		        template_field(t, "Class"));
		if (write_body(a, t, subst, n, true, fp) < 0)
			return -1;
	}
	return 0;
}

static void
write_executables(struct assembly *a, FILE *fp)
{
	size_t i;

	if (a->r->n_executables == 0)
		fputs("#   (none listed)\n", fp);
	for (i = 0; i < a->r->n_executables; i++)
		fprintf(fp, "#   %s\n", a->executables[i]);
}

static int
write_body(struct assembly *a, const struct template *t,
           const struct template_subst *subst, size_t n, bool privilege,
           FILE *fp)
{
	const char *p = t->body;
	unsigned long lineno = t->body_line;

	for (; *p; lineno++) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *raw = p;
		char *line;
		int dup = 0;

		p += len + (nl != NULL);
		if (!privilege && len == 12 && memcmp(raw, "@PRIVILEGES@", 12) == 0) {
			if (write_privileges(a, subst, n, fp) < 0)
				return -1;
			continue;
		}
		if (!privilege && len == 13 &&
		    memcmp(raw, "@EXECUTABLES@", 13) == 0) {
			write_executables(a, fp);
			continue;
		}
		line = template_expand_line(t, lineno, raw, len, subst, n,
		                            a->err);
		if (line == NULL)
			return -1;
		if (privilege && !well_formed(line)) {
			dpkg_put_error(a->err, "%s:%lu: not one whole "
			               "rule on a line", t->path, lineno);
			free(line);
			return -1;
		}
		if (is_rule(line))
			dup = seen_before(a, line);
		if (dup < 0) {
			free(line);
			dpkg_put_error(a->err, "out of memory");
			return -1;
		}
		/* The template's own lines are all written; a privilege's
		 * only when nothing before wrote them. */
		if (!dup || !privilege)
			fprintf(fp, "%s\n", line);
		free(line);
	}
	return 0;
}

/*
 * APP in any case, as an AppArmor glob ("qbittorrent" -> "[qQ][bB]..."):
 * programs name their directories after their own spelling of their
 * name (Qt's application name: ~/.config/qBittorrent), and no other
 * app's id differs from APP by case only, as ids are lower case.
 */
static char *
any_case(const char *app)
{
	char *glob = malloc(strlen(app) * 4 + 1), *q = glob;
	const char *p;

	if (glob == NULL)
		return NULL;
	for (p = app; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c >= 'a' && c <= 'z')
			q += sprintf(q, "[%c%c]", c, c - 'a' + 'A');
		else if (c >= 'A' && c <= 'Z')
			q += sprintf(q, "[%c%c]", c - 'A' + 'a', c);
		else
			*q++ = (char)c;
	}
	*q = '\0';
	return glob;
}

static void
assembly_free(struct assembly *a)
{
	size_t i;

	template_free(&a->skeleton);
	for (i = 0; i < a->n_privileges; i++)
		template_free(&a->privileges[i]);
	free(a->privileges);
	free(a->executables);
	strings_free(a->seen, a->n_seen);
}

int
profile_generate(const struct profile_request *r, char **text, size_t *len,
                 struct dpkg_error *err)
{
	struct assembly a;
	struct template_subst subst[4];
	char path[4096 + 32], *app_any_case;
	FILE *fp;
	int rc;

	*text = NULL;
	*len = 0;
	memset(&a, 0, sizeof(a));
	a.r = r;
	a.err = err;
	a.templates = templates_dir(r->templates, a.templates_buf,
	                            sizeof(a.templates_buf));

	/* The template first: without it, every privilege is unknown. */
	snprintf(path, sizeof(path), "%s/apparmor/profile.apparmor", a.templates);
	rc = template_load(&a.skeleton, path, err);
	if (rc == 1)
		dpkg_put_error(err, "%s: no such template", path);
	if (rc != 0 || check_namespace(&a) < 0 || check_executables(&a) < 0 ||
	    check_grants(&a) < 0 || load_privileges(&a) < 0) {
		assembly_free(&a);
		return -1;
	}

	subst[0] = (struct template_subst){ "NAME", a.name };
	subst[1] = (struct template_subst){ "APP", r->ns->app };
	subst[2] = (struct template_subst){ "NAMESPACE", r->ns->path };
	app_any_case = any_case(r->ns->app);
	subst[3] = (struct template_subst){ "APP_ANY_CASE", app_any_case };

	fp = app_any_case ? open_memstream(text, len) : NULL;
	if (fp == NULL) {
		dpkg_put_error(err, "out of memory");
		free(app_any_case);
		assembly_free(&a);
		return -1;
	}
	rc = write_body(&a, &a.skeleton, subst, 4, false, fp);
	if (fclose(fp) != 0 && rc == 0) {
		dpkg_put_error(err, "out of memory");
		rc = -1;
	}
	free(app_any_case);
	assembly_free(&a);
	if (rc < 0) {
		free(*text);
		*text = NULL;
		*len = 0;
	}
	return rc;
}

static int
list_names(const char *dir, char ***names, size_t *n,
           struct dpkg_error *err)
{
	size_t suffix = strlen(PRIVILEGE_SUFFIX);
	struct dirent *e;
	DIR *dp = opendir(dir);

	*names = NULL;
	*n = 0;
	if (dp == NULL) {
		dpkg_put_error(err, "%s: cannot open directory", dir);
		return -1;
	}
	while ((e = readdir(dp)) != NULL) {
		size_t len = strlen(e->d_name);
		char **more;

		if (len <= suffix ||
		    strcmp(e->d_name + len - suffix, PRIVILEGE_SUFFIX) != 0)
			continue;
		more = realloc(*names, (*n + 1) * sizeof(*more));
		if (more == NULL ||
		    (more[*n] = strndup(e->d_name, len - suffix)) == NULL) {
			*names = more ? more : *names;
			closedir(dp);
			dpkg_put_error(err, "out of memory");
			return -1;
		}
		*names = more;
		(*n)++;
	}
	closedir(dp);
	qsort(*names, *n, sizeof(**names), by_name);
	return 0;
}

int
profile_privileges(const char *templates, struct profile_privilege **list,
                   size_t *n, struct dpkg_error *err)
{
	char buf[4096], dir[4096 + 32];
	char **names;
	size_t count, i;
	int rc = 0;

	*list = NULL;
	*n = 0;
	templates = templates_dir(templates, buf, sizeof(buf));
	snprintf(dir, sizeof(dir), "%s/apparmor/privileges", templates);
	if (list_names(dir, &names, &count, err) < 0)
		rc = -1;
	if (rc == 0 && count > 0) {
		*list = calloc(count, sizeof(**list));
		if (*list == NULL) {
			dpkg_put_error(err, "out of memory");
			rc = -1;
		}
	}
	for (i = 0; rc == 0 && i < count; i++) {
		struct profile_privilege *p = &(*list)[i];
		struct template t;

		rc = load_privilege(&t, templates, names[i], err);
		if (rc == 1) {
			dpkg_put_error(err, "%s/%s" PRIVILEGE_SUFFIX ": not "
			               "a valid privilege name", dir, names[i]);
			rc = -1;
		}
		if (rc < 0)
			break;
		p->name = strdup(names[i]);
		p->grants = strdup(template_field(&t, "Grants"));
		p->reserved = is_reserved(&t);
		template_free(&t);
		(*n)++;
		if (p->name == NULL || p->grants == NULL) {
			dpkg_put_error(err, "out of memory");
			rc = -1;
		}
	}
	strings_free(names, count);
	if (rc < 0) {
		profile_privileges_free(*list, *n);
		*list = NULL;
		*n = 0;
	}
	return rc;
}

void
profile_privileges_free(struct profile_privilege *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(list[i].name);
		free(list[i].grants);
	}
	free(list);
}

/*
 * The optimal string alignment distance between A and B: insertions,
 * deletions, substitutions and swaps of two neighbours each count one.
 * Both are at most DECLARATION_PRIVILEGE_MAX bytes: the names it compares.
 */
static size_t
distance(const char *a, const char *b)
{
	size_t d[DECLARATION_PRIVILEGE_MAX + 1][DECLARATION_PRIVILEGE_MAX + 1];
	size_t la = strlen(a), lb = strlen(b), i, j;

	if (la > DECLARATION_PRIVILEGE_MAX || lb > DECLARATION_PRIVILEGE_MAX)
		return SIZE_MAX;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

const char *
profile_privilege_nearest(const struct profile_privilege *list, size_t n,
                          const char *name)
{
	const char *nearest = NULL;
	size_t best = SIZE_MAX, i;

	for (i = 0; i < n; i++) {
		size_t dist = distance(name, list[i].name);
		size_t longer = strlen(name) > strlen(list[i].name) ?
		                strlen(name) : strlen(list[i].name);

		/* Two mistakes at most, and fewer than half the letters. */
		if (dist <= 2 && dist * 2 < longer && dist < best) {
			best = dist;
			nearest = list[i].name;
		}
	}
	return nearest;
}
