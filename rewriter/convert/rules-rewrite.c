/*
 * rules-rewrite.c: debian/rules follows the renamed packages.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <dpkg/dpkg.h>
#include <dpkg/string.h>
#include <dpkg/varbuf.h>

#include "dh/dh-addon.h"
#include "namespace/layout.h"
#include "namespace/namespace.h"
#include "convert/rules-rewrite.h"

#define RULES_FILE "debian/rules"

static int
longest_first(const void *a, const void *b)
{
	size_t x = strlen(*(char *const *)a), y = strlen(*(char *const *)b);

	return x < y ? 1 : x > y ? -1 : strcmp(*(char *const *)a,
	                                       *(char *const *)b);
}

/* A pattern of the package names: only its size can make it fail. */
static pcre2_code *
compile_pattern(const char *pattern, uint32_t options, struct dpkg_error *err)
{
	PCRE2_SIZE erroff;
	pcre2_code *code;
	int errcode;

	code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
	                     options, &errcode, &erroff, NULL);
	if (code == NULL)
		put_error_at(err, RULES_FILE, 0, "cannot compile a pattern for "
		             "%zu bytes of package names", strlen(pattern));
	return code;
}

/* The source's package names as alternatives of a pattern, the longest
 * first, so that "foo" never matches the start of "foo-data". */
static void
add_names(struct varbuf *re, const struct control_info *info)
{
	char **names = m_malloc(sizeof(char *) * (info->npackages + 1));
	int i;

	memcpy(names, info->packages, sizeof(char *) * info->npackages);
	qsort(names, info->npackages, sizeof(char *), longest_first);
	for (i = 0; i < info->npackages; i++)
		varbuf_printf(re, "%s\\Q%s\\E", i ? "|" : "", names[i]);
	free(names);
}

/* Line numbers of increasing offsets into one text, counted once. */
struct line_counter {
	const char *text;
	size_t off;
	int line;
};

static int
line_counter_at(struct line_counter *lc, size_t off)
{
	for (; lc->off < off; lc->off++)
		if (lc->text[lc->off] == '\n')
			lc->line++;
	return lc->line;
}

/* The matches of one multiline pattern in a text, left to right. */
struct matches {
	pcre2_code *code;
	pcre2_match_data *md;
	const char *text;
	size_t len, next;
	struct line_counter lc;
};

static int
matches_start(struct matches *m, const char *pattern, const char *text,
              size_t len, struct dpkg_error *err)
{
	m->code = compile_pattern(pattern, PCRE2_MULTILINE, err);
	if (m->code == NULL)
		return -1;
	m->md = pcre2_match_data_create_from_pattern(m->code, NULL);
	m->text = text;
	m->len = len;
	m->next = 0;
	m->lc = (struct line_counter){ text, 0, 1 };
	return 0;
}

/* The next match's offsets (ovector), or NULL; an empty match moves the
 * search on by a byte. */
static const PCRE2_SIZE *
matches_next(struct matches *m)
{
	const PCRE2_SIZE *ov;

	if (m->next >= m->len ||
	    pcre2_match(m->code, (PCRE2_SPTR)m->text, m->len, m->next, 0,
	                m->md, NULL) < 0)
		return NULL;
	ov = pcre2_get_ovector_pointer(m->md);
	m->next = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
	return ov;
}

/* The line of offset OFF, OFF no lower than at the last call. */
static int
matches_line(struct matches *m, size_t off)
{
	return line_counter_at(&m->lc, off);
}

static void
matches_end(struct matches *m)
{
	pcre2_match_data_free(m->md);
	pcre2_code_free(m->code);
}

/*
 * A recipe that runs ./configure itself is not reached by the add-on's
 * dh_auto_configure: say so where it is.  (cmake and meson run by a recipe
 * are the add-on's wrappers, first on the build's PATH: auto/cmake.)
 */
static int
note_own_configure(const char *file, const char *text, size_t len,
                   struct convert_plan *plan, struct dpkg_error *err)
{
	static const char own_configure[] =
		"^\\t(?![^\\n]*dh_auto_)[^\\n]*?(?<![\\w/.-])"
		"(\\./configure|\\$\\(CURDIR\\)/configure|"
		"\\$\\{CURDIR\\}/configure)"
		"(?=[ \\t]|$)";
	struct matches m;
	const PCRE2_SIZE *ov;

	if (matches_start(&m, own_configure, text, len, err) < 0)
		return -1;
	while ((ov = matches_next(&m)) != NULL)
		convert_plan_note(plan, file, matches_line(&m, ov[0]),
		                  "runs '%.*s' itself, which the namespace does "
		                  "not reach: call 'dh_auto_configure -- ARGS' "
		                  "instead, or relocation must patch what it "
		                  "compiles in (and fails the build where it "
		                  "cannot)", (int)(ov[3] - ov[2]), text + ov[2]);
	matches_end(&m);
	return 0;
}

char *
rules_rewrite_configure(const char *file, const char *text, size_t len,
                        struct convert_plan *plan, struct dpkg_error *err)
{
	static const char own_configure[] =
		"^\\t[@+-]*\\K(\\./configure|\\$\\(CURDIR\\)/configure|"
		"\\$\\{CURDIR\\}/configure)(?=[ \\t]|$)";
	struct varbuf out = VARBUF_INIT;
	struct matches m;
	const PCRE2_SIZE *ov;
	size_t off = 0;

	if (matches_start(&m, own_configure, text, len, err) < 0)
		return NULL;
	while ((ov = matches_next(&m)) != NULL) {
		varbuf_add_buf(&out, text + off, ov[0] - off);
		varbuf_add_str(&out, "dh_auto_configure --");
		if (plan)
			convert_plan_note(plan, file, matches_line(&m, ov[0]),
			                  "'%.*s' written as 'dh_auto_configure "
			                  "--', which the namespace reaches: "
			                  "debhelper's usual arguments (--prefix=/usr, "
			                  "the multiarch --libdir ...) come first, "
			                  "the recipe's win", (int)(ov[1] - ov[0]),
			                  text + ov[0]);
		off = ov[1];
	}
	varbuf_add_buf(&out, text + off, len - off);
	varbuf_end_str(&out);
	matches_end(&m);
	return varbuf_detach(&out);
}

/* Whether the tree has one of FILES (NULL: none) at its top. */
static bool
has_top_file(const struct convert_plan *plan, char *const *files)
{
	int i;

	for (i = 0; files && files[i]; i++) {
		char *path = str_fmt("%s/%s", plan->dir, files[i]);
		struct stat st;
		bool found = lstat(path, &st) == 0 && S_ISREG(st.st_mode);

		free(path);
		if (found)
			return true;
	}
	return false;
}

const char *const rules_after_relocation[] = {
	"dh_link", "dh_strip_nondeterminism", "dh_compress", "dh_fixperms",
	"dh_missing", "dh_strip", "dh_makeshlibs", "dh_shlibdeps",
	"dh_installdeb", "dh_gencontrol", "dh_md5sums", "dh_builddeb", NULL,
};

bool
rules_word_in(const char *s, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (strlen(*list) == n && strncmp(s, *list, n) == 0)
			return true;
	return false;
}

/* The stems of the targets that override or hook a dh command. */
enum hook {
	HOOK_NONE = -1, HOOK_OVERRIDE, HOOK_BEFORE, HOOK_AFTER,
};

/*
 * The dh command the target line LINE overrides or hooks
 * ("override_dh_link-arch:", "execute_after_dh_installdocs:"): which
 * stem, and the command at *CMD, *N bytes, without -arch or -indep.
 */
static enum hook
hooked_command(const char *line, size_t len, const char **cmd, size_t *n)
{
	static const char *const stems[] = {
		"override_", "execute_before_", "execute_after_", NULL,
	};
	const char *end = line + len, *rest;
	int i;

	for (i = 0; stems[i]; i++)
		if (len > strlen(stems[i]) &&
		    strncmp(line, stems[i], strlen(stems[i])) == 0)
			break;
	if (stems[i] == NULL)
		return HOOK_NONE;
	*cmd = line + strlen(stems[i]);
	for (rest = *cmd; rest < end && strchr(": \t\n", *rest) == NULL;
	     rest++)
		;
	*n = rest - *cmd;
	if (*n > 5 && strncmp(rest - 5, "-arch", 5) == 0)
		*n -= 5;
	else if (*n > 6 && strncmp(rest - 6, "-indep", 6) == 0)
		*n -= 6;
	while (rest < end && (*rest == ' ' || *rest == '\t'))
		rest++;
	return rest < end && *rest == ':' ? (enum hook)i : HOOK_NONE;
}

/* Whether LINE (a rule's first line) is a target that runs late. */
static bool
is_late_target(const char *line, size_t len)
{
	const char *cmd;
	size_t n;

	return hooked_command(line, len, &cmd, &n) != HOOK_NONE &&
	       rules_word_in(cmd, n, rules_after_relocation);
}

/*
 * Where the staged PATH is once dh_extras_relocate has run, in DEST: a
 * package's documentation directory has its extras name, usr/share/doc
 * itself stays, anything else is where the layout puts it.  Returns whether that differs from PATH.
 */
static bool
late_place(const char *path, const struct control_info *info,
           const struct extras_namespace *ns, char *dest, size_t size)
{
	static const char doc[] = "usr/share/doc/";
	struct layout_place place;
	int i;

	/* The directory itself holds the exported documentation
	 * directories: it stays (filezilla's "rm -rf .../usr/share/doc/"
	 * before dh_link makes the package's a link). */
	if (strcmp(path, "usr/share/doc") == 0 ||
	    strcmp(path, "usr/share/doc/") == 0)
		return false;
	for (i = 0; i < info->npackages; i++) {
		size_t n = strlen(info->packages[i]);
		const char *rest = path + strlen(doc) + n;

		if (strncmp(path, doc, strlen(doc)) == 0 &&
		    strncmp(path + strlen(doc), info->packages[i], n) == 0 &&
		    (*rest == '/' || *rest == '\0')) {
			snprintf(dest, size, "%s%s%s%s", doc, EXTRAS_PREFIX,
			         info->packages[i], rest);
			return true;
		}
	}
	if (layout_place(ns, path, false, &place) < 0 ||
	    strcmp(place.dest, path) == 0)
		return false;
	snprintf(dest, size, "%s", place.dest);
	return true;
}

/*
 * The make variables TEXT sets to a package's staging directory, as an
 * alternation for a pattern ("PACKAGE_DIR|TMP"), or NULL if none, in
 * *VARS; -1 with ERR filled when the pattern cannot be compiled:
 * rxvt-unicode's "PACKAGE_DIR=$(CURDIR)/debian/rxvt-unicode", renamed.
 */
static int
staging_variables(const char *text, size_t len,
                  const struct control_info *info, char **vars,
                  struct dpkg_error *err)
{
	struct varbuf assign = VARBUF_INIT, names = VARBUF_INIT;
	pcre2_code *code;
	pcre2_match_data *md;
	size_t at = 0;

	varbuf_add_str(&assign, "^[ \\t]*(?:export[ \\t]+|override[ \\t]+)?"
	               "([A-Za-z_][A-Za-z0-9_]*)[ \\t]*(?::{1,3}=|\\?=|=)[ \\t]*"
	               "(?:\\$\\(CURDIR\\)/|\\$\\{CURDIR\\}/)?debian/"
	               "(?:" EXTRAS_PREFIX ")?(?:");
	add_names(&assign, info);
	varbuf_add_str(&assign, ")/?[ \\t]*$");
	varbuf_end_str(&assign);
	code = compile_pattern(assign.buf, PCRE2_MULTILINE, err);
	varbuf_destroy(&assign);
	*vars = NULL;
	if (code == NULL)
		return -1;
	md = pcre2_match_data_create_from_pattern(code, NULL);
	while (at < len && pcre2_match(code, (PCRE2_SPTR)text, len, at, 0, md,
	                               NULL) >= 0) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);

		if (names.used > 0)
			varbuf_add_char(&names, '|');
		varbuf_add_buf(&names, text + ov[2], ov[3] - ov[2]);
		at = ov[1] > at ? ov[1] : at + 1;
	}
	pcre2_match_data_free(md);
	pcre2_code_free(code);
	if (names.used == 0) {
		varbuf_destroy(&names);
		return 0;
	}
	varbuf_end_str(&names);
	*vars = varbuf_detach(&names);
	return 0;
}

char *
rules_rewrite_late_paths(const char *file, const char *text, size_t len,
                         const struct control_info *info,
                         const struct extras_namespace *ns,
                         struct convert_plan *plan, struct dpkg_error *err)
{
	/* debian/extras-PKG/ or a variable set to it, then the path. */
	static const char path_re[] =
		"((?:usr|etc|var)(?:/(?:[^\\s\"'`;:$/()]|\\$\\([A-Za-z_]+\\)|"
		"\\$\\{[A-Za-z_]+\\})+)+)";
	struct varbuf staged = VARBUF_INIT;
	char *vars;
	struct varbuf out = VARBUF_INIT;
	pcre2_code *code;
	pcre2_match_data *md;
	size_t off = 0;
	bool late = false, continued = false, recipe;
	int line = 0;

	if (staging_variables(text, len, info, &vars, err) < 0)
		return NULL;
	varbuf_add_str(&staged, "(?:(?<![\\w.+-])debian/(?:" EXTRAS_PREFIX ")?(?:");
	add_names(&staged, info);
	varbuf_add_char(&staged, ')');
	if (vars != NULL)
		varbuf_printf(&staged, "|\\$\\((?:%s)\\)|\\$\\{(?:%s)\\}", vars,
		              vars);
	varbuf_add_str(&staged, ")/");
	varbuf_add_str(&staged, path_re);
	varbuf_end_str(&staged);
	free(vars);
	code = compile_pattern(staged.buf, 0, err);
	varbuf_destroy(&staged);
	if (code == NULL)
		return NULL;
	md = pcre2_match_data_create_from_pattern(code, NULL);
	while (off < len) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t end = nl ? (size_t)(nl - text) + 1 : len, at = off;

		line++;
		/* A recipe line, or one continued from it by a backslash. */
		recipe = text[off] == '\t' || (continued && late);
		if (!recipe && text[off] != '\n' && text[off] != '#')
			late = is_late_target(text + off, end - off);
		continued = end - off >= 2 && text[end - 1] == '\n' &&
		            text[end - 2] == '\\';
		while (late && recipe && at < end &&
		       pcre2_match(code, (PCRE2_SPTR)text, end, at, 0, md,
		                   NULL) >= 0) {
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
			char path[PATH_MAX], dest[PATH_MAX];

			snprintf(path, sizeof(path), "%.*s",
			         (int)(ov[3] - ov[2]), text + ov[2]);
			varbuf_add_buf(&out, text + at, ov[2] - at);
			if (ov[3] - ov[2] < sizeof(path) &&
			    late_place(path, info, ns, dest, sizeof(dest))) {
				varbuf_add_str(&out, dest);
				if (plan)
					convert_plan_note(plan, file, line,
					                  "'%s' is '%s' once "
					                  "dh_extras_relocate has run",
					                  path, dest);
			} else {
				varbuf_add_buf(&out, text + ov[2],
				               ov[3] - ov[2]);
			}
			at = ov[3];
		}
		varbuf_add_buf(&out, text + at, end - at);
		off = end;
	}
	varbuf_end_str(&out);
	pcre2_match_data_free(md);
	pcre2_code_free(code);
	return varbuf_detach(&out);
}

int
rules_rewrite(struct convert_plan *plan, const struct control_info *info,
              const char *root, bool autoconf, struct dpkg_error *err)
{
	const struct dh_addon *addon = dh_addon_data(err);
	const struct dh_buildsystem *ac;
	struct extras_namespace ns;
	const char *why;
	char *text, *out;
	size_t len;
	mode_t mode;
	int ret;

	if (addon == NULL)
		return -1;
	/* An autoconf package: its configure takes debhelper's arguments. */
	ac = dh_addon_buildsystem(addon, "autoconf");
	ret = convert_read(plan, RULES_FILE, &text, &len, &mode, false, err);
	if (ret < 0)
		return -1;
	if (memchr(text, '\0', len) != NULL) {
		free(text);
		return put_error_at(err, RULES_FILE, 0, "contains a NUL byte");
	}
	/* Without dh, dh_auto_configure is debhelper's own, which the
	 * namespace does not reach: rules_add_helpers() sees to it. */
	if ((autoconf || (ac && has_top_file(plan, ac->detect))) &&
	    rules_runs_dh(text, len))
		out = rules_rewrite_configure(RULES_FILE, text, len, plan,
		                              err);
	else
		out = m_strndup(text, len);
	if (out == NULL) {
		free(text);
		return -1;
	}
	if (note_own_configure(RULES_FILE, out, strlen(out), plan, err) < 0) {
		free(text);
		free(out);
		return -1;
	}
	if ((why = namespace_init(&ns, info->app, root)) != NULL) {
		free(text);
		free(out);
		return put_error_at(err, RULES_FILE, 0, "%s", why);
	}
	{
		char *late = rules_rewrite_late_paths(RULES_FILE, out,
		                                      strlen(out), info, &ns,
		                                      plan, err);

		free(out);
		if (late == NULL) {
			free(text);
			return -1;
		}
		out = rules_add_helpers(RULES_FILE, late, strlen(late),
		                        ns.path, plan, err);
		free(late);
		if (out == NULL) {
			free(text);
			return -1;
		}
	}
	if (strcmp(out, text) != 0)
		convert_plan_write(plan, RULES_FILE, out, strlen(out), mode);
	free(text);
	free(out);
	return 0;
}
