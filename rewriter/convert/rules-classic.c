/*
 * rules-classic.c: the dh_extras helpers in a debian/rules that runs the
 * debhelper commands itself, without dh (wget's).
 *
 * dh-sequence-extras adds the helpers to dh's sequence; a recipe that
 * calls dh_link, dh_installdeb ... one by one never sees them.  So each
 * helper is written into the recipe where the add-on puts it in the
 * sequence (dh-extras/Debian/Debhelper/Sequence/extras.pm), next to the
 * command it follows or precedes there, with that command's package
 * options (-a, -i, -pNAME ...).  And as dh_auto_configure and
 * dh_auto_build do in the add-on, the program is built for the namespace:
 * the prefix and system directories the recipes give configure, CMake or
 * make name it.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <dpkg/dpkg.h>
#include <dpkg/string.h>
#include <dpkg/varbuf.h>

#include "convert/rules-rewrite.h"

/* dh_extras_relocate and the helpers that follow it in the sequence,
 * written before the recipe's first command of rules_after_relocation. */
static const char *const relocation[] = {
	"dh_extras_relocate", "dh_extras_metainfo", "dh_extras_python",
	"dh_extras_modules", "dh_extras_icons", "dh_extras_launchers",
	"dh_extras_gsettings", NULL,
};

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

/* Options the add-on gives the commands themselves. */
static const struct {
	const char *command, *option;
} added_options[] = {
	{ "dh_makeshlibs", "--no-scripts" },
	{ "dh_strip", "--no-automatic-dbgsym" },
	{ "dh_dwz", "--no-dwz-multifile" },
};

/* One helper before or after a command, as the add-on inserts it. */
static const struct {
	const char *command, *helper;
	bool after;
} placed[] = {
	{ "dh_prep", "dh_extras_pkgdirs", true },
	{ "dh_clean", "dh_extras_clean", false },
	{ "dh_link", "dh_extras_links", true },
	{ "dh_shlibdeps", "dh_extras_privlibs", true },
	{ "dh_installdeb", "dh_extras_apparmor", false },
	{ "dh_installdeb", "dh_extras_declare", true },
	{ "dh_installdeb", "dh_extras_scripts", true },
	{ "dh_gencontrol", "dh_extras_rename", true },
	{ "dh_builddeb", "dh_extras_check", false },
};

static bool
is_word(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && strncmp(s, word, n) == 0;
}

/*
 * dh_extras_unprefix follows dh_auto_install in the sequence: what "make
 * install" put in the namespace goes back to usr/ before the commands
 * that install more there (wget's dh_installinfo would put wget.info
 * beside the one its install made).  It is written before the first
 * dh_install* command of a recipe (dh_install too, as dh runs it) but
 * dh_installdirs and dh_installdeb, or with the relocation.
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

static void
add_line(struct varbuf *out, const char *helper, const char *options,
         size_t optlen)
{
	varbuf_add_char(out, '\t');
	varbuf_add_str(out, helper);
	varbuf_add_buf(out, options, optlen);
	varbuf_add_char(out, '\n');
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
 * whole words: each is written for the namespace.  Others (--datadir=
 * /usr/share ...) follow the prefix, or relocation patches them, or the
 * build fails where it cannot.
 */
static const struct {
	const char *word, *dir;		/* dir: below the namespace */
} namespace_words[] = {
	{ "--prefix=/usr", "" },
	{ "--sysconfdir=/etc", "/etc" },
	{ "--localstatedir=/var", "/var" },
	{ "prefix=/usr", "" },
	{ "PREFIX=/usr", "" },
	{ "-DCMAKE_INSTALL_PREFIX=/usr", "" },
	{ "-DCMAKE_INSTALL_SYSCONFDIR=/etc", "/etc" },
	{ "-DCMAKE_INSTALL_LOCALSTATEDIR=/var", "/var" },
};

static bool
word_edge(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '"' || c == '\'' ||
	       c == ';' || c == '\\';
}

/* Recipe line P to EOL (line LINE) with those words written for the
 * namespace NS, into OUT. */
static void
build_for_namespace(const char *file, int line, const char *p,
                    const char *eol, const char *ns, struct varbuf *out,
                    struct convert_plan *plan)
{
	const char *q = p;

	while (q < eol) {
		size_t i, n = 0;

		if (q == p || word_edge(q[-1]))
			for (i = 0; i < array_count(namespace_words); i++) {
				n = strlen(namespace_words[i].word);
				if ((size_t)(eol - q) >= n &&
				    strncmp(q, namespace_words[i].word, n) == 0 &&
				    (q + n == eol || word_edge(q[n])))
					break;
			}
		else
			i = array_count(namespace_words);
		if (i == array_count(namespace_words)) {
			varbuf_add_char(out, *q++);
			continue;
		}
		/* The name and "=", then the namespace. */
		varbuf_add_buf(out, q, strchr(namespace_words[i].word, '=') + 1 -
		                       namespace_words[i].word);
		varbuf_add_str(out, ns);
		varbuf_add_str(out, namespace_words[i].dir);
		if (plan)
			convert_plan_note(plan, file, line, "'%s' written as "
			                  "'%.*s%s%s': the program is built for the "
			                  "namespace, as dh_auto_configure and "
			                  "dh_auto_build would build it",
			                  namespace_words[i].word,
			                  (int)(strchr(namespace_words[i].word,
			                               '=') + 1 -
			                        namespace_words[i].word),
			                  namespace_words[i].word, ns,
			                  namespace_words[i].dir);
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

	if (rules_runs_dh(text, len))
		return m_strdup(text);
	if (cdbs) {
		put_error_at(err, file, 0, "builds with CDBS, whose rules the "
		             "extras add-on does not reach: build with dh "
		             "(%%: dh $@), then convert");
		return NULL;
	}
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
				build_for_namespace(file, line, p, eol, ns, &out,
				                    plan);
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
			build_for_namespace(file, line, p, eol, ns, &out, plan);
			p = eol;
			continue;
		}
		package_options(args, logical_end(p, end), &opts);
		if (!unprefixed_here && !relocated_here &&
		    (installs_files(cmd, cmdlen) ||
		     rules_word_in(cmd, cmdlen, rules_after_relocation))) {
			add_line(&out, "dh_extras_unprefix", opts.buf, opts.used);
			unprefixed_here = true;
		}
		if (!relocated_here && rules_word_in(cmd, cmdlen, rules_after_relocation)) {
			for (i = 0; relocation[i]; i++)
				add_line(&out, relocation[i], opts.buf, opts.used);
			if (!is_word(cmd, cmdlen, "dh_link"))
				add_line(&out, "dh_extras_links", opts.buf,
				         opts.used);
			relocated_here = any = true;
			if (first_line == 0)
				first_line = line;
		}
		for (i = 0; i < array_count(placed); i++)
			if (!placed[i].after &&
			    is_word(cmd, cmdlen, placed[i].command) &&
			    !(is_word(cmd, cmdlen, "dh_clean") &&
			      memmem(args, eol - args, " -k", 3) != NULL))
				add_line(&out, placed[i].helper, opts.buf,
				         opts.used);
		varbuf_add_buf(&out, p, args - p);
		for (i = 0; i < array_count(added_options); i++)
			if (is_word(cmd, cmdlen, added_options[i].command)) {
				varbuf_add_char(&out, ' ');
				varbuf_add_str(&out, added_options[i].option);
			}
		varbuf_add_buf(&out, args, eol - args);
		for (i = 0; i < array_count(placed); i++)
			if (placed[i].after &&
			    is_word(cmd, cmdlen, placed[i].command))
				add_line(&after, placed[i].helper, opts.buf,
				         opts.used);
		if (!continued) {
			varbuf_add_buf(&out, after.buf, after.used);
			varbuf_reset(&after);
		}
		varbuf_destroy(&opts);
		p = eol;
	}
	varbuf_add_buf(&out, after.buf, after.used);
	varbuf_destroy(&after);
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
