/*
 * rules-classic.c: the dh_extras helpers in a debian/rules that runs the
 * debhelper commands itself, without dh (wget's).
 *
 * dh-sequence-extras adds the helpers to dh's sequence; a recipe that
 * calls dh_link, dh_installdeb ... one by one never sees them.  So each
 * helper is written into the recipe where the add-on puts it in the
 * sequence (templates/addon/sequence, which the add-on reads too), next
 * to the command it follows or precedes there, with that command's
 * package options (-a, -i, -pNAME ...).  And as dh_auto_configure and
 * dh_auto_build do in the add-on, the program is built for the namespace:
 * the prefix and system directories the recipes give configure, CMake or
 * make (templates/addon/buildsystems) name it.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <dpkg/dpkg.h>
#include <dpkg/string.h>
#include <dpkg/varbuf.h>

#include "dh/dh-addon.h"
#include "convert/rules-rewrite.h"

/*
 * The add-on puts its dh_auto_* and dh_shlibdeps first on dh's PATH;
 * without dh, a rules that runs dh_auto_configure or dh_shlibdeps itself
 * gets the same from this line, after its #! line, so that the namespace
 * reaches the build and the namespace's libraries are found.
 */
#define AUTO_PATH \
	"# dh-extras: its dh_auto_* build for the namespace, its " \
	"dh_shlibdeps finds its libraries\n" \
	"export PATH := $(or $(DH_EXTRAS_AUTODIR),/usr/share/dh-extras/auto)" \
	":$(PATH)\n"

static bool
is_word(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && strncmp(s, word, n) == 0;
}

/*
 * The helpers after dh_auto_install in the sequence (dh_extras_unprefix):
 * what "make install" put in the namespace goes back to usr/ before the
 * commands that install more there (wget's dh_installinfo would put
 * wget.info beside the one its install made).  They are written before
 * the first dh_install* command of a recipe (dh_install too, as dh runs
 * it) but dh_installdirs and dh_installdeb, or with the relocation; a
 * recipe's dh_auto_install is the add-on's, which runs them itself.
 */
static bool
installs_files(const char *cmd, size_t n)
{
	return n >= 10 && strncmp(cmd, "dh_install", 10) == 0 &&
	       !is_word(cmd, n, "dh_installdirs") &&
	       !is_word(cmd, n, "dh_installdeb");
}

/* The options of a command (ARGS to END, its lines joined) that choose
 * packages, each with a leading space: what its helpers get too. */
static void
package_options(const char *args, const char *end, struct varbuf *out)
{
	static const char *const flags[] = {
		"-a", "--arch", "-i", "--indep", "-s", "--same-arch", NULL,
	};
	static const char *const prefixes[] = {
		"-p", "--package=", "-N", "--no-package=", NULL,
	};

	while (args < end) {
		size_t n, i;

		while (args < end && strchr(" \t\n\\", *args) != NULL)
			args++;
		for (n = 0; args + n < end &&
		            strchr(" \t\n\\", args[n]) == NULL; n++)
			;
		if (n == 0)
			break;
		/* Past the words of this command. */
		if (strchr(";&|<>`$(", args[0]) != NULL &&
		    !(args[0] == '$' && n > 1 && args[1] == '('))
			break;
		for (i = 0; prefixes[i]; i++)
			if (n > strlen(prefixes[i]) &&
			    strncmp(args, prefixes[i], strlen(prefixes[i])) == 0)
				break;
		if (rules_word_in(args, n, flags) || prefixes[i] != NULL) {
			varbuf_add_char(out, ' ');
			varbuf_add_buf(out, args, n);
		}
		args += n;
	}
}

/* A recipe line for each of the N helpers, with the package options. */
static void
add_lines(struct varbuf *out, char *const *helpers, size_t n,
          const struct varbuf *opts)
{
	size_t i;

	for (i = 0; i < n; i++) {
		varbuf_add_char(out, '\t');
		varbuf_add_str(out, helpers[i]);
		varbuf_add_buf(out, opts->buf, opts->used);
		varbuf_add_char(out, '\n');
	}
}

/* The helpers dh runs right before (or after) COMMAND (N bytes). */
static void
add_around(struct varbuf *out, const struct dh_addon *a, const char *command,
           size_t n, bool after, const struct varbuf *opts)
{
	const struct dh_addon_place *place = dh_addon_place(a, command, n);

	if (place == NULL)
		return;
	if (after)
		add_lines(out, place->names + place->at + 1,
		          place->nnames - place->at - 1, opts);
	else
		add_lines(out, place->names, place->at, opts);
}

/* The end of the logical line at P: its last physical line's newline. */
static const char *
logical_end(const char *p, const char *end)
{
	for (;;) {
		const char *nl = memchr(p, '\n', end - p);

		if (nl == NULL)
			return end;
		if (nl == p || nl[-1] != '\\')
			return nl;
		p = nl + 1;
	}
}

/*
 * The installation directories a recipe gives the build system, as
 * whole words: each is written for the namespace, as the add-on tells
 * the build systems it knows (NAME=%NS%/etc for NAME=/etc, NAME=%NS% for
 * NAME=/usr).  Others (--datadir=/usr/share ...) follow the prefix, or
 * relocation patches them, or the build fails where it cannot.
 */
struct namespace_word {
	char *word;		/* NAME=/usr ... */
	size_t name;		/* its length through "=" */
	const char *dir;	/* below the namespace */
};

static bool
is_system_dir(const char *dir)
{
	return (strncmp(dir, "/etc", 4) == 0 || strncmp(dir, "/var", 4) == 0) &&
	       (dir[4] == '\0' || dir[4] == '/');
}

/* WORDS, N of them, with those of PARAMS (NULL-ended, or NULL). */
static struct namespace_word *
add_words(struct namespace_word *words, size_t *n, char *const *params)
{
	for (; params && *params; params++) {
		size_t name = strchr(*params, '=') + 1 - *params;
		const char *dir = *params + name + strlen(DH_ADDON_NS);

		words = m_realloc(words, (*n + 2) * sizeof(*words));
		words[(*n)++] = (struct namespace_word){
			str_fmt("%.*s%s%s", (int)name, *params,
			        is_system_dir(dir) ? "" : "/usr", dir),
			name, dir,
		};
	}
	return words;
}

/* The words of every build system's params, NULL-ended (autoconf's and
 * meson's twice, the second never reached). */
static struct namespace_word *
namespace_words(const struct dh_addon *a)
{
	struct namespace_word *words = m_malloc(sizeof(*words));
	size_t n = 0, i;
	int k;

	for (i = 0; i < a->nbuildsystems; i++)
		for (k = 0; k < DH_STEPS; k++)
			words = add_words(words, &n,
			                  a->buildsystems[i].params[k]);
	words[n].word = NULL;
	return words;
}

static void
namespace_words_free(struct namespace_word *words)
{
	size_t i;

	for (i = 0; words[i].word != NULL; i++)
		free(words[i].word);
	free(words);
}

static bool
word_edge(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '"' || c == '\'' ||
	       c == ';' || c == '\\';
}

/* Recipe line P to EOL (line LINE) with WORDS written for the
 * namespace NS, into OUT. */
static void
build_for_namespace(const char *file, int line, const char *p,
                    const char *eol, const char *ns,
                    const struct namespace_word *words, struct varbuf *out,
                    struct convert_plan *plan)
{
	const char *q = p;

	while (q < eol) {
		const struct namespace_word *w = NULL;
		size_t n = 0;

		if (q == p || word_edge(q[-1]))
			for (w = words; w->word != NULL; w++) {
				n = strlen(w->word);
				if ((size_t)(eol - q) >= n &&
				    strncmp(q, w->word, n) == 0 &&
				    (q + n == eol || word_edge(q[n])))
					break;
			}
		if (w == NULL || w->word == NULL) {
			varbuf_add_char(out, *q++);
			continue;
		}
		/* The name and "=", then the namespace. */
		varbuf_add_buf(out, q, w->name);
		varbuf_add_str(out, ns);
		varbuf_add_str(out, w->dir);
		if (plan)
			convert_plan_note(plan, file, line, "'%s' written as "
			                  "'%.*s%s%s': the program is built for the "
			                  "namespace, as dh_auto_configure and "
			                  "dh_auto_build would build it",
			                  w->word, (int)w->name, w->word, ns,
			                  w->dir);
		q += n;
	}
}

/* Whether debian/rules runs dh, whose sequence the add-on reaches. */
bool
rules_runs_dh(const char *text, size_t len)
{
	static const char pattern[] =
		"(?m)^\\t[^\\n]*(?<![\\w/.$-])dh(?=[ \\t]+[^\\n]*\\$[@(*{]|"
		"[ \\t]+(binary|build|clean|install)[\\w-]*([ \\t]|$))";
	pcre2_code *re;
	pcre2_match_data *md;
	int errcode, rc;
	PCRE2_SIZE erroff;

	re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, 0,
	                   &errcode, &erroff, NULL);
	if (re == NULL)
		abort();
	md = pcre2_match_data_create_from_pattern(re, NULL);
	rc = pcre2_match(re, (PCRE2_SPTR)text, len, 0, 0, md, NULL);
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	return rc >= 0;
}

char *
rules_add_helpers(const char *file, const char *text, size_t len,
                  const char *ns, struct convert_plan *plan,
                  struct dpkg_error *err)
{
	struct varbuf out = VARBUF_INIT;
	/* Helpers that follow a command whose line goes on. */
	struct varbuf after = VARBUF_INIT;
	const char *p = text, *end = text + len;
	bool continued = false, relocated_here = false, any = false;
	bool unprefixed_here = false;
	bool in_recipe = false, runs_auto = false;
	bool cdbs = strstr(text, "/usr/share/cdbs/") != NULL;
	int line = 0, first_line = 0;
	const struct dh_addon *a;
	struct namespace_word *words;

	if (rules_runs_dh(text, len))
		return m_strdup(text);
	if (cdbs) {
		put_error_at(err, file, 0, "builds with CDBS, whose rules the "
		             "extras add-on does not reach: build with dh "
		             "(%%: dh $@), then convert");
		return NULL;
	}
	a = dh_addon_data(err);
	if (a == NULL)
		return NULL;
	words = namespace_words(a);
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *eol = nl ? nl + 1 : end, *cmd, *args;
		size_t cmdlen, i;
		struct varbuf opts = VARBUF_INIT;
		bool recipe = p[0] == '\t' && !continued;

		line++;
		/* A target line ends a recipe. */
		if (p[0] != '\t' && p[0] != '\n' && p[0] != '#' && !continued &&
		    memchr(p, ':', eol - p) != NULL)
			relocated_here = unprefixed_here = false;
		in_recipe = p[0] == '\t' || (continued && in_recipe);
		continued = eol - p >= 2 && eol[-1] == '\n' && eol[-2] == '\\';
		if (!recipe) {
			if (in_recipe)
				build_for_namespace(file, line, p, eol, ns,
				                    words, &out, plan);
			else
				varbuf_add_buf(&out, p, eol - p);
			if (!continued) {
				varbuf_add_buf(&out, after.buf, after.used);
				varbuf_reset(&after);
			}
			p = eol;
			continue;
		}
		cmd = p + 1 + strspn(p + 1, "@+- \t");
		cmdlen = strcspn(cmd, " \t\n;&|");
		args = cmd + cmdlen;
		if ((cmdlen > 8 && strncmp(cmd, "dh_auto_", 8) == 0) ||
		    (cmdlen == 12 && strncmp(cmd, "dh_shlibdeps", 12) == 0))
			runs_auto = true;
		if (cmdlen < 3 || strncmp(cmd, "dh_", 3) != 0 ||
		    strncmp(cmd, "dh_extras_", 10) == 0) {
			build_for_namespace(file, line, p, eol, ns, words, &out,
			                    plan);
			p = eol;
			continue;
		}
		package_options(args, logical_end(p, end), &opts);
		if (!unprefixed_here && !relocated_here &&
		    (installs_files(cmd, cmdlen) ||
		     rules_word_in(cmd, cmdlen, rules_after_relocation))) {
			add_around(&out, a, "dh_auto_install", 15, true, &opts);
			unprefixed_here = true;
		}
		/* The relocation: what dh runs before dh_link, and when the
		 * recipe has no dh_link to follow, what it runs after. */
		if (!relocated_here && rules_word_in(cmd, cmdlen, rules_after_relocation)) {
			add_around(&out, a, "dh_link", 7, false, &opts);
			if (!is_word(cmd, cmdlen, "dh_link"))
				add_around(&out, a, "dh_link", 7, true, &opts);
			relocated_here = any = true;
			if (first_line == 0)
				first_line = line;
		}
		if (!is_word(cmd, cmdlen, "dh_link") &&
		    !(is_word(cmd, cmdlen, "dh_clean") &&
		      memmem(args, eol - args, " -k", 3) != NULL))
			add_around(&out, a, cmd, cmdlen, false, &opts);
		varbuf_add_buf(&out, p, args - p);
		for (i = 0; i < a->noptions; i++)
			if (is_word(cmd, cmdlen, a->options[i].command)) {
				varbuf_add_char(&out, ' ');
				varbuf_add_str(&out, a->options[i].option);
			}
		varbuf_add_buf(&out, args, eol - args);
		if (!is_word(cmd, cmdlen, "dh_auto_install"))
			add_around(&after, a, cmd, cmdlen, true, &opts);
		if (!continued) {
			varbuf_add_buf(&out, after.buf, after.used);
			varbuf_reset(&after);
		}
		varbuf_destroy(&opts);
		p = eol;
	}
	varbuf_add_buf(&out, after.buf, after.used);
	varbuf_destroy(&after);
	namespace_words_free(words);
	if (!any) {
		varbuf_destroy(&out);
		put_error_at(err, file, 0, "runs neither dh nor dh_link, "
		             "dh_fixperms, dh_installdeb or dh_builddeb, next to "
		             "which the extras helpers would run: build with dh "
		             "(%%: dh $@), then convert");
		return NULL;
	}
	if (plan)
		convert_plan_note(plan, file, first_line, "runs the debhelper "
		                  "commands without dh: the dh_extras helpers "
		                  "are written into its recipes where "
		                  "dh-sequence-extras puts them in dh's sequence "
		                  "(dh_extras_relocate before line %d's command)",
		                  first_line);
	varbuf_end_str(&out);
	if (runs_auto) {
		/* After the #! line; a rules without one gets it first, not
		 * between a target and its recipe. */
		bool shebang = out.used >= 2 && memcmp(out.buf, "#!", 2) == 0;
		const char *second = shebang ? memchr(out.buf, '\n', out.used) :
		                     NULL;
		size_t at = !shebang ? 0 : second ?
		            (size_t)(second + 1 - out.buf) : out.used;
		char *with = str_fmt("%.*s%s%s", (int)at, out.buf, AUTO_PATH,
		                     out.buf + at);

		varbuf_destroy(&out);
		if (plan)
			convert_plan_note(plan, file, shebang ? 2 : 1,
			                  "PATH starts with the add-on's dh_auto_* "
			                  "and dh_shlibdeps (written %s): the "
			                  "dh_auto_configure and dh_auto_build its "
			                  "recipes run build for the namespace, and "
			                  "dh_shlibdeps finds the namespace's "
			                  "libraries in every package",
			                  shebang ? "after the #! line" : "first");
		return with;
	}
	return varbuf_detach(&out);
}
