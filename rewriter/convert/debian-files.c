/*
 * debian-files.c: per-package debhelper files, judged.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <dpkg/dpkg.h>
#include <dpkg/varbuf.h>

#include "base/strings.h"
#include "convert/debian-files.h"
#include "debian/deb822.h"
#include "namespace/namespace.h"
#include "scripts/maintscript.h"

static const struct {
	const char *suffix;
	enum debian_file_kind kind;
} suffixes[] = {
	/* Installed into the package: relocation takes care of them. */
	{ "install", DEBIAN_FILE_KEEP },
	{ "docs", DEBIAN_FILE_KEEP },
	{ "examples", DEBIAN_FILE_KEEP },
	{ "info", DEBIAN_FILE_KEEP },
	{ "manpages", DEBIAN_FILE_KEEP },
	{ "desktop", DEBIAN_FILE_KEEP },
	{ "icons", DEBIAN_FILE_KEEP },
	{ "lintian-overrides", DEBIAN_FILE_KEEP },
	{ "bash-completion", DEBIAN_FILE_KEEP },
	{ "NEWS", DEBIAN_FILE_KEEP },
	{ "README.Debian", DEBIAN_FILE_KEEP },
	{ "TODO", DEBIAN_FILE_KEEP },
	{ "changelog", DEBIAN_FILE_KEEP },
	{ "copyright", DEBIAN_FILE_KEEP },
	{ "not-installed", DEBIAN_FILE_KEEP },
	{ "bug-control", DEBIAN_FILE_KEEP },
	{ "bug-presubj", DEBIAN_FILE_KEEP },
	{ "sharedmimeinfo", DEBIAN_FILE_KEEP },
	/* Translated into data and a report, then dropped. */
	{ "preinst", DEBIAN_FILE_SCRIPT },
	{ "postinst", DEBIAN_FILE_SCRIPT },
	{ "prerm", DEBIAN_FILE_SCRIPT },
	{ "postrm", DEBIAN_FILE_SCRIPT },
	{ "links", DEBIAN_FILE_LINKS },
	{ "dirs", DEBIAN_FILE_DIRS },
	/* The namespace's libraries serve the app's own packages only. */
	{ "symbols", DEBIAN_FILE_LIBRARY },
	{ "shlibs", DEBIAN_FILE_LIBRARY },
	/* System integration an extras app must not have. */
	{ "config", DEBIAN_FILE_DEBCONF },
	{ "templates", DEBIAN_FILE_DEBCONF },
	{ "cron.d", DEBIAN_FILE_DROP },
	{ "cron.hourly", DEBIAN_FILE_DROP },
	{ "cron.daily", DEBIAN_FILE_DROP },
	{ "cron.weekly", DEBIAN_FILE_DROP },
	{ "cron.monthly", DEBIAN_FILE_DROP },
	{ "cron.yearly", DEBIAN_FILE_DROP },
	{ "init", DEBIAN_FILE_DROP },
	{ "default", DEBIAN_FILE_DROP },
	{ "service", DEBIAN_FILE_DROP },
	{ "socket", DEBIAN_FILE_DROP },
	{ "timer", DEBIAN_FILE_DROP },
	{ "path", DEBIAN_FILE_DROP },
	{ "mount", DEBIAN_FILE_DROP },
	{ "target", DEBIAN_FILE_DROP },
	{ "user.service", DEBIAN_FILE_DROP },
	{ "tmpfile", DEBIAN_FILE_DROP },
	{ "tmpfiles", DEBIAN_FILE_DROP },
	{ "sysusers", DEBIAN_FILE_DROP },
	{ "upstart", DEBIAN_FILE_DROP },
	{ "logrotate", DEBIAN_FILE_DROP },
	{ "pam", DEBIAN_FILE_DROP },
	{ "udev", DEBIAN_FILE_DROP },
	{ "modprobe", DEBIAN_FILE_DROP },
	{ "ppp.ip-up", DEBIAN_FILE_DROP },
	{ "ppp.ip-down", DEBIAN_FILE_DROP },
	{ "if-up", DEBIAN_FILE_DROP },
	{ "if-down", DEBIAN_FILE_DROP },
	{ "if-pre-up", DEBIAN_FILE_DROP },
	{ "if-post-down", DEBIAN_FILE_DROP },
	{ "menu", DEBIAN_FILE_DROP },
	{ "mime", DEBIAN_FILE_DROP },
	{ "doc-base", DEBIAN_FILE_DROP },
	{ "emacsen-install", DEBIAN_FILE_DROP },
	{ "emacsen-remove", DEBIAN_FILE_DROP },
	{ "emacsen-startup", DEBIAN_FILE_DROP },
	{ "emacsen-compat", DEBIAN_FILE_DROP },
	{ "alternatives", DEBIAN_FILE_DROP },
	{ "triggers", DEBIAN_FILE_DROP },
	{ "maintscript", DEBIAN_FILE_DROP },
	{ "gsettings-override", DEBIAN_FILE_DROP },
	{ "isinstallable", DEBIAN_FILE_DROP },
};

/* Files in debian/ that are never per-package debhelper files. */
static const char *const not_debhelper[] = {
	"control", "changelog", "copyright", "rules", "compat", "watch",
	"extras.yaml", "gbp.conf", "clean", "files", "source", "patches",
	"tests", "upstream", "README.source", NULL,
};

enum debian_file_kind
debian_file_kind(const char *suffix)
{
	size_t i;

	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (strcmp(suffixes[i].suffix, suffix) == 0)
			return suffixes[i].kind;
	/* doc-base.NAME: one registration a file. */
	if (strncmp(suffix, "doc-base.", 9) == 0)
		return DEBIAN_FILE_DROP;
	return DEBIAN_FILE_UNKNOWN;
}

/* The knowledge of system integration, read once. */
static const struct integration *
integration_db(struct dpkg_error *err)
{
	static struct integration db;
	static bool loaded;
	struct dpkg_error lerr = DPKG_ERROR_INIT;

	if (!loaded) {
		if (integration_load(&db, NULL, &lerr) < 0) {
			put_error_at(err, "dh-extras", 0, "%s", lerr.str);
			dpkg_error_destroy(&lerr);
			return NULL;
		}
		loaded = true;
	}
	return &db;
}

/* A .links line a script's alternative gave ("SOURCE DESTINATION"). */
struct added_link {
	char *line;
	long rank;		/* integration_links() */
	bool dropped;		/* another package keeps it (settle_links()) */
};

/* The .links lines the converter adds to a package's file. */
struct added_links {
	char package[256];	/* renamed */
	struct added_link *links;
	size_t nlinks;
	struct varbuf lines;	/* those kept, written out */
	bool written;
};

struct added {
	struct added_links *list;
	size_t n;
};

static struct added_links *
added_for(struct added *a, const char *package)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (strcmp(a->list[i].package, package) == 0)
			return &a->list[i];
	a->list = m_realloc(a->list, (a->n + 1) * sizeof(*a->list));
	memset(&a->list[a->n], 0, sizeof(a->list[a->n]));
	snprintf(a->list[a->n].package, sizeof(a->list[a->n].package), "%s",
	         package);
	varbuf_init(&a->list[a->n].lines, 0);
	return &a->list[a->n++];
}

/*
 * What the author's maintainer script FILE did, as report lines, and the
 * links that take the place of its alternatives: the script itself never
 * reaches the package (dh_extras_scripts writes the only ones an extras
 * package has).  The shell parser only serves the report: a script it
 * cannot read is dropped all the same, with a note saying so.  A command
 * that has no extras meaning is a warning: the app may have needed what
 * it did.  Returns 0, or -1 (ERR) when the knowledge of system
 * integration cannot be read.
 */
static int
translate_script(const char *file, const char *package, const char *text,
                 const struct control_info *info, struct convert_plan *plan,
                 struct added *added, struct dpkg_error *err)
{
	struct maintscript_options o = {
		.package = package,
	};
	struct maintscript_verdict v;
	struct dpkg_error jerr = DPKG_ERROR_INIT;
	size_t i;
	int line;
	/* The Debian package's names: what handles their files outside
	 * the namespace needs no word. */
	const char **old = NULL;

	o.db = integration_db(err);
	if (o.db == NULL)
		return -1;
	if (info != NULL) {
		old = m_malloc((info->npackages + 1) * sizeof(*old));
		old[o.nold_names++] = info->app;
		for (i = 0; i < (size_t)info->npackages; i++)
			old[o.nold_names++] = info->packages[i];
		o.old_names = old;
	}
	if (maintscript_read(text, strlen(text), &o, &v, &line, &jerr) < 0) {
		convert_plan_note(plan, file, line, "warning: not read (%s): "
		                  "nothing of it runs; check the app needs none "
		                  "of it", jerr.str);
		dpkg_error_destroy(&jerr);
		free(old);
		return 0;
	}
	for (i = 0; i < v.ndropped; i++)
		convert_plan_note(plan, file, v.dropped[i].line, "%s",
		                  v.dropped[i].text);
	for (i = 0; i < v.nunknown; i++) {
		/* "`COMMAND`: why ...": the command is what the author
		 * needs to hear of; the grammar's why was for a gate. */
		const char *t = v.unknown[i].text, *end = strstr(t, "`: ");
		int n = *t == '`' && end != NULL ? (int)(end - t + 1) :
		        (int)strlen(t);

		convert_plan_note(plan, file, v.unknown[i].line, "warning: %.*s "
		                  "does not run at install, nor anything else "
		                  "of the script: if the app needs what it did, "
		                  "do it in the app when it starts", n, t);
	}
	for (i = 0; added != NULL && i < v.nlinks; i++) {
		struct added_links *al = added_for(added, package);

		al->links = m_realloc(al->links, (al->nlinks + 1) *
		                      sizeof(*al->links));
		al->links[al->nlinks++] = (struct added_link){
			m_strdup(v.links[i]), v.link_ranks[i], false,
		};
	}
	free(old);
	maintscript_verdict_free(&v);
	return 0;
}

/*
 * debconf's questions of FILE (a .templates file): none is asked, since
 * no maintainer script of the author's runs; each gets a note with the
 * default it had.  An answer only ever reached the app through files a
 * script wrote, so the app runs with the files the package ships.
 */
static void
translate_templates(const char *file, const char *text, size_t len,
                    struct convert_plan *plan)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct deb822 d;
	int i;

	if (deb822_parse(&d, file, text, len, &err) < 0) {
		convert_plan_note(plan, file, 0, "not read (%s): dropped, no "
		                  "debconf question is asked", err.str);
		dpkg_error_destroy(&err);
		return;
	}
	for (i = 0; i < d.nstanzas; i++) {
		const struct deb822_field *t = deb822_find(&d.stanzas[i],
		                                           "Template");
		const struct deb822_field *def = deb822_find(&d.stanzas[i],
		                                             "Default");

		if (t == NULL)
			continue;
		convert_plan_note(plan, file, t->line, "debconf question "
		                  "`%.80s` is not asked: the app runs with the "
		                  "files the package ships%s%.80s%s", t->value,
		                  def ? " (its default was `" : "",
		                  def ? def->value : "", def ? "`)" : "");
	}
	deb822_free(&d);
}

/*
 * Where relocation takes over: everything else is outside the namespace.
 * The directories merged-/usr makes aliases of usr/'s are moved as those
 * are (zsh's "/bin/zsh /bin/rzsh").
 */
static bool
relocatable(const char *path, size_t n)
{
	static const char *const tops[] = {
		"usr/", "etc/", "opt/", "bin/", "sbin/", "lib/", "lib32/",
		"lib64/", "libx32/", NULL,
	};
	int i;

	while (n > 0 && *path == '/') {
		path++;
		n--;
	}
	if (memmem(path, n, "..", 2) != NULL)
		return false;
	/* The top itself too: tar's debian/dirs creates "etc", where its
	 * rules then puts a link. */
	for (i = 0; tops[i]; i++)
		if ((n >= strlen(tops[i]) &&
		     memcmp(path, tops[i], strlen(tops[i])) == 0) ||
		    (n == strlen(tops[i]) - 1 && memcmp(path, tops[i], n) == 0))
			return true;
	return false;
}

static int
judge_links(const char *file, const char *text, struct dpkg_error *err)
{
	const char *p = text;
	int lno = 1;

	for (; *p; lno++) {
		size_t n = strcspn(p, "\n");
		const char *line = p, *end = p + n;
		int words = 0;

		p += n + (p[n] == '\n');
		while (line < end) {
			size_t w;

			line += strspn(line, " \t");
			if (line >= end || *line == '#')
				break;
			w = strcspn(line, " \t\n");
			if (line + w > end)
				w = end - line;
			if (!relocatable(line, w))
				return put_error_at(err, file, lno, "link '%.*s' is "
				                    "outside /usr, /etc, /opt and "
				                    "merged-/usr's /bin, /sbin and "
				                    "/lib*, which the namespace takes "
				                    "over, and cannot be judged",
				                    (int)w, line);
			words++;
			line += w;
		}
		if (words % 2 != 0)
			return put_error_at(err, file, lno, "malformed link line: "
			                    "expected 'SOURCE DESTINATION'");
	}
	return 0;
}

/* Whether the path LINE starts with is under /var: state, not data. */
static bool
is_variable_data(const char *line)
{
	while (*line == '/')
		line++;
	return strncmp(line, "var/", 4) == 0 || strncmp(line, "var\n", 4) == 0;
}

/* Keep the lines that create directories the namespace takes over. */
static char *
judge_dirs(const char *file, const char *text, struct convert_plan *plan)
{
	char *out = m_malloc(strlen(text) + 1), *o = out;
	const char *p = text;
	int lno = 1;

	for (; *p; lno++) {
		size_t n = strcspn(p, "\n"), w;
		const char *line = p + strspn(p, " \t");
		bool keep = true;

		while (line < p + n && *line != '#') {
			w = strcspn(line, " \t\n");
			if (!relocatable(line, w))
				keep = false;
			line += w;
			line += strspn(line, " \t");
		}
		if (keep) {
			memcpy(o, p, n + (p[n] == '\n'));
			o += n + (p[n] == '\n');
		} else if (is_variable_data(p + strspn(p, " \t"))) {
			/* The gate refuses state in the namespace's var/
			 * too: say where it goes instead. */
			convert_plan_note(plan, file, lno, "dropped '%.*s': it "
			                  "creates a system directory for data a "
			                  "program changes, which the confined app "
			                  "cannot write: keep it in the user's home "
			                  "($XDG_DATA_HOME, $XDG_STATE_HOME)",
			                  (int)n, p);
		} else {
			convert_plan_note(plan, file, lno, "dropped '%.*s': it "
			                  "creates a system directory", (int)n, p);
		}
		p += n + (p[n] == '\n');
	}
	*o = '\0';
	return out;
}

/* The package whose name starts NAME followed by a dot: the longest. */
static const char *
package_of(const struct control_info *info, const char *name, bool *renamed)
{
	const char *best = NULL;
	size_t best_len = 0, plen = strlen(EXTRAS_PREFIX);
	int i;

	*renamed = false;
	for (i = 0; i < info->npackages; i++) {
		const char *pkg = info->packages[i];
		size_t n = strlen(pkg);

		if (strncmp(name, pkg, n) == 0 && name[n] == '.' && n > best_len) {
			best = pkg;
			best_len = n;
			*renamed = false;
		}
		if (strncmp(name, EXTRAS_PREFIX, plen) == 0 &&
		    strncmp(name + plen, pkg, n) == 0 && name[plen + n] == '.' &&
		    plen + n > best_len) {
			best = pkg;
			best_len = plen + n;
			*renamed = true;
		}
	}
	return best;
}

/*
 * TEXT of a .links or .dirs file of PACKAGE (renamed) with the package's
 * own documentation directory under its old name (usr/share/doc/NAME)
 * written as the renamed one's, where dh_installdocs puts it; a new
 * string, or NULL when nothing changed.  Another package's directory is
 * left to the relocation: in its renamed name, a link there would be a
 * file of extras-weechat-doc in extras-weechat's directory.
 */
static char *
rename_doc_dirs(const char *file, const char *text, const char *package,
                struct convert_plan *plan)
{
	static const char doc[] = "usr/share/doc/";
	const size_t n = sizeof(doc) - 1;
	const char *old = namespace_app_of_package(package);
	const size_t len = strlen(old);
	struct varbuf out = VARBUF_INIT;
	const char *p = text, *hit, *counted = text;
	bool changed = false;
	int line = 1;

	while ((hit = strstr(p, doc)) != NULL) {
		const char *name = hit + n;

		/* Lines counted on from the last hit: linear in the file. */
		for (; counted < hit; counted++)
			line += *counted == '\n';
		varbuf_add_buf(&out, p, (size_t)(name - p));
		p = name;
		/* A path of its own: at a word's start, or after "/". */
		if (hit > text && hit[-1] != '/' && hit[-1] != ' ' &&
		    hit[-1] != '\t' && hit[-1] != '\n')
			continue;
		if (strncmp(name, old, len) == 0 &&
		    strchr("/ \t\n", name[len]) != NULL) {
			varbuf_add_str(&out, EXTRAS_PREFIX);
			convert_plan_note(plan, file, line, "%s%s written as "
			                  "%s%s%s: the renamed package's "
			                  "documentation", doc, old, doc,
			                  EXTRAS_PREFIX, old);
			changed = true;
		}
	}
	if (!changed) {
		varbuf_destroy(&out);
		return NULL;
	}
	varbuf_add_str(&out, p);
	varbuf_end_str(&out);
	return varbuf_detach(&out);
}

static int
judge_file(struct convert_plan *plan, const struct control_info *info,
           const char *path, const char *package, enum debian_file_kind kind,
           struct added *added, bool *drop, struct dpkg_error *err)
{
	char *text = NULL, *out;
	size_t len;
	mode_t mode;
	int ret = 0;

	*drop = false;
	if (kind == DEBIAN_FILE_DROP) {
		convert_plan_note(plan, path, 0, "dropped: system integration "
		                  "an extras app must not have");
		*drop = true;
		return 0;
	}
	if (kind == DEBIAN_FILE_LIBRARY) {
		convert_plan_note(plan, path, 0, "dropped: the namespace's "
		                  "libraries serve the app's own packages only, "
		                  "and dh_makeshlibs describes them for those");
		*drop = true;
		return 0;
	}
	if (kind == DEBIAN_FILE_KEEP)
		return 0;
	if (convert_read(plan, path, &text, &len, &mode, false, err) < 0)
		return -1;
	if (memchr(text, '\0', len) != NULL &&
	    (kind == DEBIAN_FILE_SCRIPT || kind == DEBIAN_FILE_DEBCONF)) {
		free(text);
		convert_plan_note(plan, path, 0, "dropped, not read: it "
		                  "contains a NUL byte");
		*drop = true;
		return 0;
	}
	if (memchr(text, '\0', len) != NULL) {
		free(text);
		return put_error_at(err, path, 0, "contains a NUL byte");
	}
	if (kind == DEBIAN_FILE_SCRIPT) {
		ret = translate_script(path, package, text, info, plan, added,
		                       err);
		convert_plan_note(plan, path, 0, "dropped: an extras package "
		                  "runs no maintainer script but the ones "
		                  "dh-extras generates");
		*drop = true;
	} else if (kind == DEBIAN_FILE_DEBCONF) {
		size_t plen = strlen(path);

		if (plen >= 9 && strcmp(path + plen - 9, "templates") == 0)
			translate_templates(path, text, len, plan);
		else
			convert_plan_note(plan, path, 0, "dropped: no debconf "
			                  "question is asked, as no maintainer "
			                  "script of the author's runs");
		*drop = true;
	} else if (kind == DEBIAN_FILE_LINKS) {
		struct added_links *al = added_for(added, package);
		struct varbuf links = VARBUF_INIT;
		char *renamed = rename_doc_dirs(path, text, package, plan);

		ret = judge_links(path, text, err);
		varbuf_add_str(&links, renamed ? renamed : text);
		if (al->lines.used > 0) {
			if (links.used > 0 && links.buf[links.used - 1] != '\n')
				varbuf_add_char(&links, '\n');
			varbuf_add_buf(&links, al->lines.buf, al->lines.used);
			convert_plan_note(plan, path, 0, "the links of the "
			                  "alternatives the scripts registered "
			                  "added");
		}
		if (ret == 0 && (renamed != NULL || al->lines.used > 0))
			convert_plan_write(plan, path, links.buf, links.used,
			                   mode);
		al->written = true;
		varbuf_destroy(&links);
		free(renamed);
	} else if (kind == DEBIAN_FILE_DIRS) {
		char *renamed = rename_doc_dirs(path, text, package, plan);

		out = judge_dirs(path, renamed ? renamed : text, plan);
		if (strspn(out, " \t\n") == strlen(out))
			*drop = true;
		else if (strcmp(out, text) != 0)
			convert_plan_write(plan, path, out, strlen(out), mode);
		free(out);
		free(renamed);
	}
	free(text);
	return ret < 0 ? -1 : 0;
}

/* The destination of .links line LINE: its second word. */
static const char *
link_destination(const char *line, size_t *len)
{
	const char *d = line + strcspn(line, " \t");

	d += strspn(d, " \t");
	*len = strcspn(d, " \t");
	return d;
}

/* Where package NAME (renamed) stands in debian/control. */
static int
control_rank(const struct control_info *info, const char *name)
{
	size_t n = strlen(EXTRAS_PREFIX);
	int i;

	for (i = 0; i < info->npackages; i++)
		if (strcmp(info->packages[i], name) == 0 ||
		    (strncmp(name, EXTRAS_PREFIX, n) == 0 &&
		     strcmp(info->packages[i], name + n) == 0))
			return i;
	return info->npackages;
}

/* One added link: its destination, its package and its place there. */
struct link_ref {
	const char *dest;
	size_t len, package, index;
};

static int
link_ref_cmp(const void *x, const void *y)
{
	const struct link_ref *a = x, *b = y;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->dest, b->dest, n);

	if (c != 0)
		return c;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	if (a->package != b->package)
		return a->package < b->package ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/*
 * The links of alternatives registered by several packages of the source
 * (nano and nano-tiny both register "editor"): dpkg will not install two
 * packages shipping one path, so the link goes to one package, the one
 * update-alternatives would pick, the highest priority (on a tie, the
 * first in debian/control); the others get a note.  Then each package's
 * lines are written out for its .links file.  One sort of every link.
 */
static void
settle_links(struct added *added, const struct control_info *info,
             struct convert_plan *plan)
{
	struct link_ref *v;
	size_t a, i, n = 0, g, k, w;

	for (a = 0; a < added->n; a++)
		n += added->list[a].nlinks;
	v = m_malloc((n + 1) * sizeof(*v));
	n = 0;
	for (a = 0; a < added->n; a++)
		for (i = 0; i < added->list[a].nlinks; i++) {
			v[n] = (struct link_ref){ .package = a, .index = i };
			v[n].dest = link_destination(added->list[a].links[i].line,
			                             &v[n].len);
			n++;
		}
	qsort(v, n, sizeof(*v), link_ref_cmp);
	for (g = 0; g < n; g = k) {
		/* The group of one destination, and the package it goes to. */
		for (k = g + 1, w = g; k < n && v[k].len == v[g].len &&
		     memcmp(v[k].dest, v[g].dest, v[g].len) == 0; k++) {
			const struct added_links *kl = &added->list[v[k].package],
			                         *wl = &added->list[v[w].package];
			long kr = kl->links[v[k].index].rank,
			     wr = wl->links[v[w].index].rank;

			if (kr > wr || (kr == wr &&
			                control_rank(info, kl->package) <
			                control_rank(info, wl->package)))
				w = k;
		}
		for (i = g; i < k; i++) {
			struct added_links *al = &added->list[v[i].package];

			if (v[i].package == v[w].package)
				continue;
			al->links[v[i].index].dropped = true;
			if (i > g && v[i - 1].package == v[i].package)
				continue;
			convert_plan_note(plan, "debian/control", 0, "%.*s: not "
			                  "linked in %s: %s links it too (the "
			                  "alternative update-alternatives would "
			                  "pick), and dpkg will not install two "
			                  "packages that ship one path",
			                  (int)v[i].len, v[i].dest, al->package,
			                  added->list[v[w].package].package);
		}
	}
	free(v);
	for (a = 0; a < added->n; a++) {
		struct added_links *al = &added->list[a];

		for (i = 0; i < al->nlinks; i++) {
			if (al->links[i].dropped)
				continue;
			varbuf_add_str(&al->lines, al->links[i].line);
			varbuf_add_char(&al->lines, '\n');
		}
	}
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
debian_files_rewrite(struct convert_plan *plan, const struct control_info *info,
                     struct dpkg_error *err)
{
	char *dirpath = m_malloc(strlen(plan->dir) + 8);
	char **names = NULL;
	int nnames = 0, i, ret = 0, pass;
	struct added added = { 0 };
	size_t k;
	struct dirent *de;
	DIR *dir;

	sprintf(dirpath, "%s/debian", plan->dir);
	dir = opendir(dirpath);
	free(dirpath);
	if (dir == NULL)
		return put_error_at(err, "debian", 0, "cannot open directory");
	while ((de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		names = m_realloc(names, sizeof(char *) * (nnames + 1));
		names[nnames++] = m_strdup(de->d_name);
	}
	closedir(dir);
	if (nnames > 0)
		qsort(names, nnames, sizeof(char *), name_cmp);

	/* Scripts first: the links of their alternatives go to the
	 * package's .links file, judged after them. */
	for (pass = 0; pass < 2 && ret == 0; pass++) {
		if (pass == 1)
			settle_links(&added, info, plan);
		for (i = 0; i < nnames && ret == 0; i++) {
			const char *name = names[i], *pkg, *suffix, *first;
			char package[256];
			enum debian_file_kind kind;
			char path[PATH_MAX], to[2 * PATH_MAX];
			bool renamed, drop;
			int j;
			struct stat st;

			for (j = 0; not_debhelper[j]; j++)
				if (strcmp(name, not_debhelper[j]) == 0)
					break;
			if (not_debhelper[j])
				continue;
			pkg = package_of(info, name, &renamed);
			suffix = pkg ? strchr(name + (renamed ? strlen(EXTRAS_PREFIX) : 0) +
			                      strlen(pkg), '.') + 1 : name;
			kind = debian_file_kind(suffix);
			if (kind == DEBIAN_FILE_UNKNOWN ||
			    (kind == DEBIAN_FILE_SCRIPT) != (pass == 0))
				continue;
			snprintf(path, sizeof(path), "debian/%s", name);
			/* Build leftovers such as debian/NAME/ are not debhelper files. */
			snprintf(to, sizeof(to), "%s/%s", plan->dir, path);
			if (lstat(to, &st) < 0 || S_ISDIR(st.st_mode))
				continue;
			/* The package as debian/control names it: the build
			 * runs under the maintainer's names. */
			first = pkg ? pkg : info->npackages > 0 ?
			        info->packages[0] : name;
			snprintf(package, sizeof(package), "%s%s",
			         renamed ? EXTRAS_PREFIX : "", first);
			ret = judge_file(plan, info, path, package, kind, &added,
			                 &drop, err);
			if (ret < 0)
				break;
			if (drop)
				convert_plan_remove(plan, path);
		}
	}
	/* A package without a .links file gets one. */
	for (k = 0; k < added.n; k++) {
		struct added_links *al = &added.list[k];
		char path[PATH_MAX];

		if (ret == 0 && !al->written && al->lines.used > 0) {
			snprintf(path, sizeof(path), "debian/%s.links",
			         al->package);
			convert_plan_write(plan, path, al->lines.buf,
			                   al->lines.used, 0644);
			convert_plan_note(plan, path, 0, "created: the links of "
			                  "the alternatives the scripts "
			                  "registered");
		}
		varbuf_destroy(&al->lines);
		while (al->nlinks > 0)
			free(al->links[--al->nlinks].line);
		free(al->links);
	}
	free(added.list);
	strings_free(names, nnames);
	return ret;
}
