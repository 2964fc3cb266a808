/*
 * review-scripts.c: maintainer scripts and the other control files.
 *
 * A maintainer script of an extras package is what dh_installdeb makes of
 * the maintainer's script, as extras-convert kept it, and of snippets:
 * blocks between "# Automatically added by TOOL" and "# End automatically
 * added section".  Each block must be, byte for byte, one of the snippets
 * known for that script, its placeholders filled in with this package's
 * name, profile and namespace (@DIRS@: paths in the namespace; a
 * placeholder bound to nothing here: a plain list of words): the dh-extras
 * templates whose header says "Snippet: SCRIPT", and the few debhelper
 * autoscripts an app confined to its namespace may need (not dh_apparmor's,
 * which hide a profile that does not load).  Nothing is
 * guessed: an unknown block is refused, however harmless it looks.
 *
 * Outside the blocks, the script is judged by the grammar extras-convert
 * uses (scripts/maintscript.h), each block standing for a #DEBHELPER#
 * line: what the converter keeps, the gate accepts.  The package that
 * ships the app's profile must load it: its postinst has the block of
 * postinst-apparmor where it runs on every "configure".
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

#include "base/datadir.h"
#include "review/review.h"
#include "base/template.h"
#include "scripts/maintscript.h"

#define AUTOSCRIPT_DIR "/usr/share/debhelper/autoscripts"
#define BEGIN_MARK "# Automatically added by "
#define END_MARK "# End automatically added section"

/*
 * debhelper's autoscripts that touch nothing outside the app: icon caches
 * of the exported icons and Python bytecode of the app's modules.  Not
 * dh_apparmor's: its postinst ignores a profile that does not load
 * ("|| true": the app would run unconfined) and its postrm leaves the
 * profile loaded; the app's profile is dh_extras_apparmor's to load.
 */
static const char *const autoscripts[] = {
	"postinst-icons", "postrm-icons",
	"postinst-py3compile", "prerm-py3clean",
	NULL,
};

/* Control files an extras package may have besides maintainer scripts. */
static const char *const control_files[] = {
	"control", "md5sums", "conffiles", "triggers", REVIEW_DECLARATION,
	NULL,
};

static const char *const scripts[] = {
	"preinst", "postinst", "prerm", "postrm", NULL,
};

/* A path below the namespace, no component starting with a dot. */
#define NS_REST "(?:/[A-Za-z0-9_+-][A-Za-z0-9_.+-]*)*"
/* A placeholder bound to nothing: words of a safe alphabet. */
#define WORDS "[A-Za-z0-9_./+:=-]+(?: [A-Za-z0-9_./+:=-]+)*"

static const char shebang_re[] = "^#!\\s*/bin/(?:ba|da)?sh(?:\\s+-e)?\\s*$";

struct snippet {
	const char *script;	/* "postinst" */
	char *origin;		/* the file it came from */
	char *text;
	bool debhelper;		/* #TOKEN# placeholders, else @TOKEN@ */
};

struct snippets {
	struct snippet *list;
	size_t n;
	pcre2_code *shebang;
	struct integration db;
};

static pcre2_code *
compile(const char *pattern)
{
	int code;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern,
	                               PCRE2_ZERO_TERMINATED, 0, &code, &off,
	                               NULL);

	if (re == NULL)
		abort();
	return re;
}

static bool
matches(pcre2_code *re, const char *s, size_t len)
{
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
	int rc = pcre2_match(re, (PCRE2_SPTR)s, len, 0, 0, md, NULL);

	pcre2_match_data_free(md);
	return rc >= 0;
}

static void
add_snippet(struct snippets *s, const char *script, const char *origin,
            const char *text, bool debhelper)
{
	struct snippet *n = realloc(s->list, (s->n + 1) * sizeof(*s->list));

	if (n == NULL)
		abort();
	s->list = n;
	n = &s->list[s->n++];
	n->script = script;
	n->origin = strdup(origin);
	n->text = strdup(text);
	n->debhelper = debhelper;
	if (n->origin == NULL || n->text == NULL)
		abort();
}

static const char *
script_of(const char *name)
{
	int i;

	for (i = 0; scripts[i]; i++)
		if (strncmp(name, scripts[i], strlen(scripts[i])) == 0 &&
		    name[strlen(scripts[i])] == '-')
			return scripts[i];
	return NULL;
}

static int
load_autoscripts(struct snippets *s, const char *dir,
                 struct dpkg_error *err)
{
	int i;

	for (i = 0; autoscripts[i]; i++) {
		char path[8192], *text = NULL;
		size_t len = 0;
		FILE *fp;

		snprintf(path, sizeof(path), "%s/%s", dir, autoscripts[i]);
		fp = fopen(path, "r");
		if (fp == NULL && errno == ENOENT)
			continue;
		if (fp == NULL || getdelim(&text, &len, '\0', fp) < 0) {
			dpkg_put_error(err, "%s: cannot read: %s", path,
			               strerror(errno));
			if (fp != NULL)
				fclose(fp);
			free(text);
			return -1;
		}
		fclose(fp);
		add_snippet(s, script_of(autoscripts[i]), path, text, true);
		free(text);
	}
	return 0;
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The templates of TEMPLATES/snippets, whose header says "Snippet: SCRIPT". */
static int
load_snippet_templates(struct snippets *s, const char *templates,
                       struct dpkg_error *err)
{
	char dir[4096 + 16];
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, i;
	int ret = 0;

	snprintf(dir, sizeof(dir), "%s/snippets", templates);
	d = opendir(dir);
	if (d == NULL) {
		dpkg_put_error(err, "%s: cannot open: %s", dir,
		               strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || script_of(e->d_name) == NULL)
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (names == NULL || (names[n++] = strdup(e->d_name)) == NULL)
			abort();
	}
	closedir(d);
	qsort(names, n, sizeof(*names), compare_names);
	for (i = 0; i < n; i++) {
		struct template t;
		char path[8192];
		const char *field;
		int rc;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (ret < 0 || (rc = template_load(&t, path, err)) == 1)
			continue;
		if (rc < 0) {
			ret = -1;
			continue;
		}
		field = template_field(&t, "Snippet");
		if (field != NULL && script_of(names[i]) != NULL &&
		    strcmp(field, script_of(names[i])) == 0)
			add_snippet(s, script_of(names[i]), path, t.body, false);
		template_free(&t);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret;
}

static void
snippets_free(struct snippets *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->list[i].origin);
		free(s->list[i].text);
	}
	free(s->list);
	integration_free(&s->db);
	if (s->shebang != NULL)
		pcre2_code_free(s->shebang);
}

/* Append LEN bytes of S to the pattern *P, every one taken literally. */
static void
put_literal(FILE *fp, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c >= 0x80)
			fputc(c, fp);
		else if (c == '\n')
			fputs("\\n", fp);
		else if (c == '\t')
			fputs("\\t", fp);
		else
			fprintf(fp, "\\%c", c);
	}
}

/* What placeholder TOKEN (LEN bytes) stands for in package P. */
static const char *
bound_value(const struct review_package *p, const char *token, size_t len)
{
#define IS(name) (len == strlen(name) && strncmp(token, name, len) == 0)
	if (IS("PACKAGE"))
		return p->deb.package;
	if (IS("PROFILE") || IS("NAME"))
		return p->profile_name;
	if (IS("APP"))
		return p->ns.app;
	if (IS("NAMESPACE"))
		return p->ns.path;
	if (IS("ROOT"))
		return p->ns.root;
#undef IS
	return NULL;
}

/* The snippet S as a pattern for package P: its text, holes filled. */
static pcre2_code *
snippet_pattern(const struct snippet *s, const struct review_package *p)
{
	char mark = s->debhelper ? '#' : '@', *pattern = NULL;
	const char *t = s->text;
	size_t size = 0, tl = strlen(t);
	FILE *fp = open_memstream(&pattern, &size);
	pcre2_code *re;

	if (fp == NULL)
		abort();
	fputs("\\A", fp);
	while (*t) {
		const char *open = strchr(t, mark), *close;
		size_t n;

		if (open == NULL) {
			put_literal(fp, t, strlen(t));
			break;
		}
		n = strspn(open + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_");
		close = open + 1 + n;
		if (n == 0 || *close != mark) {
			put_literal(fp, t, (size_t)(open + 1 - t));
			t = open + 1;
			continue;
		}
		put_literal(fp, t, (size_t)(open - t));
		if (bound_value(p, open + 1, n) != NULL) {
			const char *v = bound_value(p, open + 1, n);

			put_literal(fp, v, strlen(v));
		} else if (n == 4 && strncmp(open + 1, "DIRS", 4) == 0) {
			/* Directories of the app: in its namespace. */
			fputs("(?:", fp);
			put_literal(fp, p->ns.path, strlen(p->ns.path));
			fputs(NS_REST ")(?: ", fp);
			put_literal(fp, p->ns.path, strlen(p->ns.path));
			fputs(NS_REST ")*", fp);
		} else {
			fputs("(?:" WORDS ")", fp);
		}
		t = close + 1;
	}
	/* A snippet always ends its last line. */
	if (tl > 0 && s->text[tl - 1] != '\n')
		fputs("\\n", fp);
	fputs("\\z", fp);
	fclose(fp);
	re = compile(pattern);
	free(pattern);
	return re;
}

static const struct snippet *
known_block(const struct snippets *s, const struct review_package *p,
            const char *script, const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		pcre2_code *re;
		bool ok;

		if (strcmp(s->list[i].script, script) != 0)
			continue;
		re = snippet_pattern(&s->list[i], p);
		ok = matches(re, text, len);
		pcre2_code_free(re);
		if (ok)
			return &s->list[i];
	}
	return NULL;
}

static const char *
next_line(const char *line)
{
	size_t n = strcspn(line, "\n");

	return line + n + (line[n] == '\n');
}

/* Whether snippet S is the one loading the AppArmor profile. */
static bool
loads_profile(const struct snippet *s)
{
	const char *base = strrchr(s->origin, '/');

	return strcmp(s->script, "postinst") == 0 && base != NULL &&
	       strcmp(base + 1, "postinst-apparmor") == 0;
}

/* Whether package P ships its app's profile. */
static bool
ships_profile(const struct review_package *p)
{
	char path[PROFILE_NAME_MAX + 32];
	size_t i;

	if (!p->namespace_ok)
		return false;
	snprintf(path, sizeof(path), REVIEW_PROFILE_DIR "/%s",
	         p->profile_name);
	for (i = 0; i < p->deb.nmembers; i++)
		if (strcmp(p->deb.members[i].path, path) == 0)
			return true;
	return false;
}

static void
unconfined(struct review *r, size_t i, const char *path, const char *why)
{
	review_problem(r, i, "script", path, "%s", why);
}

/*
 * Check the blocks of script C, and give the text the grammar judges:
 * each block replaced by a line ": #DEBHELPER#" and as many empty lines
 * (so that line numbers stay), the lines of blocks loading the profile in
 * *SITES.  Returns NULL when a block never ends.
 */
static char *
mask_blocks(struct review *r, size_t i, const struct snippets *s,
            const struct debfile_control_member *c, const char *path,
            int **sites, size_t *nsites)
{
	const struct review_package *p = &r->packages[i];
	const char *line = c->data, *block = NULL, *tool = NULL;
	char *out = malloc(c->size + 1), *o = out;
	size_t tool_len = 0;
	int lno = 0, block_line = 0;

	if (out == NULL)
		abort();
	*sites = NULL;
	*nsites = 0;
	for (; *line; line = next_line(line)) {
		size_t n = strcspn(line, "\n");
		const struct snippet *known;

		lno++;
		if (block == NULL && lno > 1 &&
		    strncmp(line, BEGIN_MARK, strlen(BEGIN_MARK)) == 0) {
			block = line + n + (line[n] != '\0');
			block_line = lno;
			tool = line + strlen(BEGIN_MARK);
			tool_len = n - strlen(BEGIN_MARK);
			/* A statement, as the block is: "then" needs one. */
			o = stpcpy(o, ": #DEBHELPER#");
		} else if (block != NULL && n == strlen(END_MARK) &&
		           strncmp(line, END_MARK, n) == 0) {
			known = known_block(s, p, c->name, block,
			                    (size_t)(line - block));
			if (known == NULL)
				review_problem(r, i, "script", path, "line %d: the "
				               "snippet added by %.*s is not one "
				               "known for %s", block_line,
				               (int)(tool_len > 80 ? 80 : tool_len),
				               tool, c->name);
			else if (loads_profile(known)) {
				*sites = realloc(*sites, (*nsites + 1) *
				                 sizeof(int));
				if (*sites == NULL)
					abort();
				(*sites)[(*nsites)++] = block_line;
			}
			block = NULL;
		} else if (block == NULL) {
			memcpy(o, line, n);
			o += n;
		}
		if (line[n] == '\n')
			*o++ = '\n';
	}
	*o = '\0';
	if (block != NULL) {
		review_problem(r, i, "script", path, "line %d: snippet never "
		               "ends", block_line);
		free(out);
		return NULL;
	}
	return out;
}

static void
check_script(struct review *r, size_t i, const struct snippets *s,
             const struct debfile_control_member *c, bool must_load)
{
	const struct review_package *p = &r->packages[i];
	struct maintscript_options o = {
		.mode = MAINTSCRIPT_GATE, .db = &s->db,
		.package = p->deb.package, .must_load = must_load,
	};
	struct maintscript_verdict v;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char path[64], *text;
	int *sites, line;
	size_t j;

	snprintf(path, sizeof(path), "DEBIAN/%s", c->name);
	if (c->size != strlen(c->data)) {
		review_problem(r, i, "script", path, "holds a NUL byte");
		return;
	}
	if (strncmp(c->data, "#!", 2) != 0 ||
	    !matches(s->shebang, c->data, strcspn(c->data, "\n"))) {
		review_problem(r, i, "script", path, "is not a /bin/sh script");
		return;
	}
	text = mask_blocks(r, i, s, c, path, &sites, &o.nsites);
	if (text == NULL)
		return;
	o.sites = sites;
	if (maintscript_judge(text, strlen(text), &o, &v, &line, &err) < 0) {
		review_problem(r, i, "script", path, "line %d: %s", line,
		               err.str);
		dpkg_error_destroy(&err);
	} else {
		for (j = 0; j < v.nrefused; j++)
			review_problem(r, i, "script", path, "line %d: %s",
			               v.refused[j].line, v.refused[j].text);
		if (v.unconfined != NULL)
			unconfined(r, i, path, v.unconfined);
		maintscript_verdict_free(&v);
	}
	free(sites);
	free(text);
}

static void
check_triggers(struct review *r, size_t i,
               const struct debfile_control_member *c)
{
	const char *line = c->data;
	int lno = 0;

	for (; *line; line = next_line(line)) {
		size_t n = strcspn(line, "\n"), b = strspn(line, " \t");

		lno++;
		if (b >= n || line[b] == '#')
			continue;
		review_problem(r, i, "control-file", "DEBIAN/triggers", "line "
		               "%d: '%.*s': no snippet an extras package may "
		               "have needs a trigger", lno,
		               (int)(n - b > 80 ? 80 : n - b), line + b);
	}
}

static bool
in_list(const char *const *list, const char *name)
{
	int i;

	for (i = 0; list[i]; i++)
		if (strcmp(list[i], name) == 0)
			return true;
	return false;
}

static void
check_package(struct review *r, size_t i, const struct snippets *s)
{
	const struct review_package *p = &r->packages[i];
	size_t j;

	for (j = 0; j < p->deb.ncontrol_members; j++) {
		const struct debfile_control_member *c =
			&p->deb.control_members[j];
		char path[4096 + 8];

		snprintf(path, sizeof(path), "DEBIAN/%s", c->name);
		if (strcmp(c->name, "shlibs") == 0 ||
		    strcmp(c->name, "symbols") == 0) {
			review_problem(r, i, "control-file", path, "an extras "
			               "package ships no libraries for others");
			continue;
		}
		if (!in_list(scripts, c->name) &&
		    !in_list(control_files, c->name)) {
			review_problem(r, i, "control-file", path, "not a "
			               "control file an extras package may have");
			continue;
		}
		if (c->type != DEBFILE_REGULAR) {
			review_problem(r, i, "control-file", path, "not a "
			               "regular file");
			continue;
		}
		if (strcmp(c->name, "triggers") == 0)
			check_triggers(r, i, c);
		else if (in_list(scripts, c->name) && p->namespace_ok)
			check_script(r, i, s, c, strcmp(c->name, "postinst") == 0 &&
			             ships_profile(p));
	}
	if (ships_profile(p) && debfile_control_member(&p->deb,
	                                               "postinst") == NULL)
		unconfined(r, i, "DEBIAN/postinst", "missing: nothing loads "
		           "the app's AppArmor profile (the snippet "
		           "dh_extras_apparmor adds): the app would run "
		           "unconfined");
}

int
review_scripts(struct review *r, struct dpkg_error *err)
{
	struct snippets s = { 0 };
	char templates[4096];
	const char *autodir = r->opt.autoscripts;
	size_t i;

	if (autodir == NULL)
		autodir = getenv("DH_AUTOSCRIPTDIR");
	if (autodir == NULL || *autodir == '\0')
		autodir = AUTOSCRIPT_DIR;
	if (r->opt.templates != NULL)
		snprintf(templates, sizeof(templates), "%s", r->opt.templates);
	else
		snprintf(templates, sizeof(templates), "%s/templates",
		         dh_extras_datadir());
	if (load_autoscripts(&s, autodir, err) < 0 ||
	    load_snippet_templates(&s, templates, err) < 0) {
		snippets_free(&s);
		return -1;
	}
	snprintf(templates + strlen(templates),
	         sizeof(templates) - strlen(templates), "/%s",
	         INTEGRATION_FILE);
	if (integration_load(&s.db, templates, err) < 0) {
		snippets_free(&s);
		return -1;
	}
	s.shebang = compile(shebang_re);
	for (i = 0; i < r->npackages; i++)
		check_package(r, i, &s);
	snippets_free(&s);
	return 0;
}
