/*
 * review-works.c: what the app's user is promised is there.
 *
 * The desktop reaches an app through the files it exports: a menu entry
 * whose Exec= names no program, an Icon= or GtkBuilder icon name that no
 * theme and no export provides, a D-Bus service that starts nothing, a
 * metainfo file launching a .desktop that is not there, translations
 * moved where the app's own code does not look: each installs cleanly and
 * leaves the user a broken app.  Each is refused, saying what to change.
 *
 * Programs resolve against the upload's members, through its links.  A
 * bare name the upload does not ship resolves on the PATH of the system
 * running the check (the build chroot, the store's reviewer): that is
 * where interpreters and the dependencies' programs are.  Icon names
 * resolve against the icons the upload exports and the standard names
 * every icon theme has (templates/icons/standard-names).
 *
 * libxml2 is loaded with dlopen() when an upload holds a metainfo or
 * GtkBuilder file: linked, it and what it needs (ICU, libstdc++) would
 * cost every run of dh_extras_check 1.5 ms of relocation, a quarter of
 * its no-op run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <dpkg/dpkg.h>
#include <dpkg/string.h>

#include "base/datadir.h"
#include "base/dynload.h"
#include "base/path.h"
#include "base/strings.h"
#include "base/template.h"
#include "namespace/layout.h"
#include "relocate/elf-read.h"
#include "relocate/patch.h"
#include "review/compiled-names.h"
#include "review/review.h"
#include "review/review-exports.h"

#define LIBXML2 "libxml2.so.2"

/* xmlFree is a variable, the library's free function: its address. */
#define XML_FUNCTIONS(X) \
	X(xmlDocGetRootElement) \
	X(xmlFree) \
	X(xmlFreeDoc) \
	X(xmlGetLastError) \
	X(xmlGetLineNo) \
	X(xmlGetProp) \
	X(xmlNodeGetContent) \
	X(xmlReadMemory)

DYNLOAD_LIBRARY(libxml2, LIBXML2, XML_FUNCTIONS)

/* From here on, every call goes through the loaded pointers. */
#define xmlDocGetRootElement (*dl_xmlDocGetRootElement)
#define xmlFree (*dl_xmlFree)
#define xmlFreeDoc (*dl_xmlFreeDoc)
#define xmlGetLastError (*dl_xmlGetLastError)
#define xmlGetLineNo (*dl_xmlGetLineNo)
#define xmlGetProp (*dl_xmlGetProp)
#define xmlNodeGetContent (*dl_xmlNodeGetContent)
#define xmlReadMemory (*dl_xmlReadMemory)

/* Where a desktop session looks for a bare Exec= name. */
static const char *const session_path[] = {
	"/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin",
	"/usr/games", NULL,
};
#define SESSION_PATH "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin:/usr/games"

/* Icon formats icon themes load. */
static const char *const icon_suffixes[] = {
	".png", ".svg", ".svgz", ".xpm", NULL,
};

/* GtkBuilder properties holding an icon name. */
static const char *const ui_icon_properties[] = {
	"icon-name", "icon_name", "logo-icon-name", "logo_icon_name",
	"default-icon-name", "default_icon_name", NULL,
};

/* Files scanned for a locale directory: scripts by their names. */
static const char *const script_suffixes[] = {
	".py", ".sh", ".pl", ".pm", ".rb", ".lua", ".js", ".tcl", NULL,
};

struct file_ref {
	const char *path;
	const struct debfile_member *member;
};

struct works {
	struct review *r;
	struct review_links links;
	/* Every member but directories, of every package, by path. */
	struct file_ref *files;
	size_t nfiles;
	/* Icon names the upload exports, sorted. */
	char **icons;
	size_t nicons;
	/* Icon names it ships in a namespace (share/icons, share/pixmaps),
	 * where the app's own lookups find them, sorted. */
	char **ns_icons;
	size_t nns_icons;
	/* The standard icon names, sorted. */
	char **standard;
	size_t nstandard;
	/* What the exports make the desktop do (review-exports.c). */
	struct review_exports exports;
};

static bool
has_any_suffix(const char *s, const char *const *suffixes)
{
	for (; *suffixes; suffixes++)
		if (str_match_end(s, *suffixes))
			return true;
	return false;
}

static bool
is_desktop_file(const char *path)
{
	return str_match_end(path, ".desktop") &&
	       (path_is_under(path, "usr/share/applications") ||
	        path_is_under(path, "etc/xdg/autostart"));
}

static bool
is_dbus_service(const char *path)
{
	return str_match_end(path, ".service") &&
	       path_is_under(path, "usr/share/dbus-1/services");
}

static bool
is_metainfo(const char *path)
{
	return str_match_end(path, ".xml") &&
	       (path_is_under(path, "usr/share/metainfo") ||
	        path_is_under(path, "usr/share/appdata"));
}

static bool
is_builder_file(const char *path)
{
	return str_match_end(path, ".ui") || str_match_end(path, ".glade");
}

bool
review_works_keeps(const struct debfile_member *m, struct review_keep *k)
{
	size_t size = m->size > 0 ? (size_t)m->size : 0;

	if (m->type != DEBFILE_REGULAR)
		return false;
	if (is_desktop_file(m->path) || is_dbus_service(m->path) ||
	    is_metainfo(m->path) || is_builder_file(m->path)) {
		if (k->entry_bytes + size > REVIEW_KEEP_MAX) {
			k->overflow = true;
			return false;
		}
		k->entry_bytes += size;
		return true;
	}
	/* Programs and scripts, for the locale directory they name: as
	 * many as the budget holds, the rest unread. */
	if (!(m->mode & 0111) && !has_any_suffix(m->path, script_suffixes))
		return false;
	if (k->code_bytes + size > REVIEW_KEEP_MAX)
		return false;
	k->code_bytes += size;
	return true;
}

static int
compare_refs(const void *a, const void *b)
{
	return strcmp(((const struct file_ref *)a)->path,
	              ((const struct file_ref *)b)->path);
}

static int
compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
push_string(char ***v, size_t *n, char *s)
{
	*v = m_realloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

static bool
find_string(char *const *v, size_t n, const char *s)
{
	return n > 0 && bsearch(&s, v, n, sizeof(*v), compare_strings) != NULL;
}

/* The icon name of an exported icon file at PATH, or NULL. */
static char *
exported_icon_name(const char *path)
{
	const char *base = strrchr(path, '/'), *dot;

	if (!path_is_under(path, "usr/share/icons") &&
	    !path_is_under(path, "usr/share/pixmaps"))
		return NULL;
	if (!has_any_suffix(path, icon_suffixes))
		return NULL;
	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	return m_strndup(base, (size_t)(dot - base));
}

/* The icon name of an icon file at PATH in the namespace, or NULL. */
static char *
namespace_icon_name(const struct works *w, const char *path)
{
	const char *base = strrchr(path, '/'), *dot;

	if (!path_is_under(path, review_root(w->r) + 1) ||
	    (strstr(path, "/share/icons/") == NULL &&
	     strstr(path, "/share/pixmaps/") == NULL) ||
	    !has_any_suffix(path, icon_suffixes))
		return NULL;
	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	return m_strndup(base, (size_t)(dot - base));
}

static int
load_standard_names(struct works *w, struct dpkg_error *err)
{
	char path[4096];

	if (w->r->opt.templates != NULL)
		snprintf(path, sizeof(path), "%s/icons/standard-names",
		         w->r->opt.templates);
	else
		snprintf(path, sizeof(path), "%s/templates/icons/"
		         "standard-names", dh_extras_datadir());
	if (template_list_load(path, &w->standard, &w->nstandard, err) < 0)
		return -1;
	if (w->nstandard > 0)
		qsort(w->standard, w->nstandard, sizeof(char *),
		      compare_strings);
	return 0;
}

static void
collect(struct works *w)
{
	size_t i, j;

	for (i = 0; i < w->r->npackages; i++) {
		const struct debfile *deb = &w->r->packages[i].deb;

		for (j = 0; j < deb->nmembers; j++) {
			const struct debfile_member *m = &deb->members[j];
			char *icon;

			if (m->type == DEBFILE_DIRECTORY)
				continue;
			w->files = m_realloc(w->files, (w->nfiles + 1) *
			                     sizeof(*w->files));
			w->files[w->nfiles].path = m->path;
			w->files[w->nfiles++].member = m;
			icon = exported_icon_name(m->path);
			if (icon != NULL)
				push_string(&w->icons, &w->nicons, icon);
			icon = namespace_icon_name(w, m->path);
			if (icon != NULL)
				push_string(&w->ns_icons, &w->nns_icons, icon);
		}
	}
	if (w->nfiles > 0)
		qsort(w->files, w->nfiles, sizeof(*w->files), compare_refs);
	if (w->nicons > 0)
		qsort(w->icons, w->nicons, sizeof(char *), compare_strings);
	if (w->nns_icons > 0)
		qsort(w->ns_icons, w->nns_icons, sizeof(char *),
		      compare_strings);
}

/*
 * The member at absolute PATH once the upload is installed, its links
 * followed; NULL when the upload ships nothing there.
 */
static const struct debfile_member *
find_installed(const struct works *w, const char *path)
{
	struct debfile_member probe = { 0 };
	const struct file_ref *hit;
	struct file_ref key;
	char *resolved;
	int hops;

	probe.path = (char *)"";
	probe.target = (char *)path;
	resolved = review_links_resolve(&w->links, &probe);
	if (resolved == NULL)
		return NULL;
	key.path = resolved;
	hit = w->nfiles == 0 ? NULL :
	      bsearch(&key, w->files, w->nfiles, sizeof(*w->files),
	              compare_refs);
	free(resolved);
	if (hit == NULL)
		return NULL;
	/* A hard link is its first path's file. */
	for (hops = 0; hit->member->type == DEBFILE_HARDLINK && hops < 2;
	     hops++) {
		key.path = hit->member->target;
		hit = bsearch(&key, w->files, w->nfiles, sizeof(*w->files),
		              compare_refs);
		if (hit == NULL)
			return NULL;
	}
	return hit->member;
}

static bool
under_root(const struct works *w, const char *path)
{
	return path_is_under(path, review_root(w->r));
}

/* The upload's program named NAME anywhere under the root (a file with
 * an execute bit first, else a link), or NULL. */
static const char *
shipped_program(const struct works *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->nfiles; i++) {
		const struct debfile_member *m = w->files[i].member;
		const char *base = strrchr(m->path, '/');

		if (base != NULL && strcmp(base + 1, name) == 0 &&
		    (m->mode & 0111) && m->type != DEBFILE_SYMLINK &&
		    path_is_under(m->path, review_root(w->r) + 1))
			return m->path;
	}
	for (i = 0; i < w->nfiles; i++) {
		const struct debfile_member *m = w->files[i].member;
		const char *base = strrchr(m->path, '/');

		if (base != NULL && strcmp(base + 1, name) == 0 &&
		    m->type == DEBFILE_SYMLINK &&
		    path_is_under(m->path, review_root(w->r) + 1))
			return m->path;
	}
	return NULL;
}

static bool
on_session_path(const char *name)
{
	char path[4096];
	int i;

	for (i = 0; session_path[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", session_path[i], name);
		if (access(path, X_OK) == 0)
			return true;
	}
	return false;
}

static const char *
shipped_hook(const void *ctx, const char *name)
{
	return shipped_program(ctx, name);
}

/*
 * One program reference of member PATH of package I (line LINE): KEY=PROG.
 * SEARCH: whether the program is looked up on PATH (not by D-Bus).
 */
static void
check_program(struct works *w, size_t i, const char *path, int line,
              const char *key, const char *prog, bool search)
{
	const struct debfile_member *m;
	const char *shipped;

	if (prog[0] == '/') {
		if (under_root(w, prog)) {
			m = find_installed(w, prog);
			if (m == NULL)
				review_problem(w->r, i, "works", path, "line %d: "
				               "%s=%s: the upload installs no "
				               "such program: install it, or "
				               "name the one it installs", line,
				               key, prog);
			else if (!(m->mode & 0111))
				review_problem(w->r, i, "works", path, "line %d: "
				               "%s=%s: not executable: install "
				               "it with mode 0755", line, key,
				               prog);
		}
		/* Elsewhere: a dependency's, as installed by dpkg. */
	} else if (strchr(prog, '/') != NULL) {
		review_problem(w->r, i, "works", path, "line %d: %s=%s: a "
		               "relative path runs nothing: name the program "
		               "by its absolute path", line, key, prog);
	} else if ((shipped = shipped_program(w, prog)) != NULL) {
		review_problem(w->r, i, "works", path, "line %d: %s=%s: the "
		               "program is /%s, which is not on PATH: write "
		               "%s=/%s", line, key, prog, shipped, key,
		               shipped);
	} else if (!search) {
		review_problem(w->r, i, "works", path, "line %d: %s=%s: "
		               "D-Bus does not search PATH: name the program "
		               "by its absolute path", line, key, prog);
	} else if (!on_session_path(prog)) {
		review_problem(w->r, i, "works", path, "line %d: %s=%s: no "
		               "such program in the upload nor on PATH "
		               "(" SESSION_PATH "): install it in the "
		               "namespace and name it by its path, or depend "
		               "on the package that provides it", line, key,
		               prog);
	}
}

static bool
icon_known(const struct works *w, const char *name)
{
	char base[256];
	size_t n = strlen(name);
	int i;

	if (find_string(w->icons, w->nicons, name))
		return true;
	/* "foo.png": GIO drops the extension and looks up "foo". */
	for (i = 0; icon_suffixes[i]; i++) {
		size_t x = strlen(icon_suffixes[i]);

		if (n > x && n - x < sizeof(base) &&
		    strcmp(name + n - x, icon_suffixes[i]) == 0) {
			memcpy(base, name, n - x);
			base[n - x] = '\0';
			return icon_known(w, base);
		}
	}
	if (n > 9 && n < sizeof(base) &&
	    strcmp(name + n - 9, "-symbolic") == 0) {
		memcpy(base, name, n - 9);
		base[n - 9] = '\0';
		name = base;
	}
	return find_string(w->standard, w->nstandard, name);
}

/* One icon reference: WHAT names NAME (an icon name or a path). */
static void
check_icon(struct works *w, size_t i, const char *path, int line,
           const char *what, const char *name)
{
	char renamed[300];

	if (name[0] == '\0')
		return;
	if (name[0] == '/') {
		if (under_root(w, name) && find_installed(w, name) == NULL)
			review_problem(w->r, i, "works", path, "line %d: %s "
			               "%s: the upload installs no such file",
			               line, what, name);
		return;
	}
	if (icon_known(w, name))
		return;
	snprintf(renamed, sizeof(renamed), "%s%s", EXTRAS_PREFIX, name);
	if (find_string(w->icons, w->nicons, renamed))
		review_problem(w->r, i, "works", path, "line %d: %s '%s' is "
		               "exported as '%s': name that", line, what, name,
		               renamed);
	else
		review_problem(w->r, i, "works", path, "line %d: %s '%s': no "
		               "such icon exported (usr/share/icons/hicolor/"
		               "SIZE/apps/%s.png) nor a standard icon name: "
		               "install the icon, or name a standard one",
		               line, what, name, name);
}

/* Programs that run another as root: pkexec through a polkit action,
 * the su front ends through a password prompt. */
static const char *const root_runners[] = {
	"pkexec", "gksu", "gksudo", "kdesu", "kdesudo", "beesu", "lxsudo",
	"lxqt-sudo", "sudo", "su", NULL,
};

/* The root runner WORD (LEN bytes) names, or NULL. */
static const char *
root_runner(const char *word, size_t len)
{
	int k;

	for (k = 0; root_runners[k]; k++)
		if (strlen(root_runners[k]) == len &&
		    memcmp(root_runners[k], word, len) == 0)
			return root_runners[k];
	return NULL;
}

/*
 * The root runner a script starts, or NULL: a line whose command (after
 * "exec") is one, by name or path, as synaptic's synaptic-pkexec runs
 * `pkexec "/usr/sbin/synaptic" "$@"`.  Only a script's command position
 * counts: a program that merely mentions sudo in its help does not.
 */
static const char *
script_root_runner(const struct debfile_member *m)
{
	const char *s = m->data, *end, *runner;

	if (s == NULL || strncmp(s, "#!", 2) != 0)
		return NULL;
	end = s + m->size;
	while (s < end) {
		const char *eol = memchr(s, '\n', (size_t)(end - s));
		const char *w, *base;

		if (eol == NULL)
			eol = end;
		for (w = s; w < eol && (*w == ' ' || *w == '\t'); w++)
			;
		if (eol - w > 5 && strncmp(w, "exec ", 5) == 0)
			for (w += 5; w < eol && *w == ' '; w++)
				;
		for (s = w; s < eol && !strchr(" \t;&|", *s); s++)
			;
		for (base = s; base > w && base[-1] != '/'; base--)
			;
		runner = root_runner(base, (size_t)(s - base));
		if (runner != NULL)
			return runner;
		s = eol + 1;
	}
	return NULL;
}

/*
 * An Exec= program in the namespace that is a script running the app as
 * root: the profile runs no set-id program and polkit never reads an
 * action in the namespace, so the menu entry would start nothing
 * (synaptic: Exec=synaptic-pkexec).  Exec=pkexec itself is refused as a
 * program outside the namespace.  A polkit action shipped alone is inert
 * and stays: meson's, for `meson install`, is used only when the user
 * asks for it.
 */
static void
check_runs_as_root(struct works *w, size_t i, const char *path, int line,
                   const char *prog)
{
	const struct debfile_member *m;
	const char *runner;

	if (prog[0] != '/' || !under_root(w, prog) ||
	    (m = find_installed(w, prog)) == NULL ||
	    (runner = script_root_runner(m)) == NULL)
		return;
	review_problem(w->r, i, "works", path, "line %d: Exec=%s runs the "
	               "app as root through %s: an extras app runs as its "
	               "user, confined, and polkit never reads its "
	               "namespace: have Exec= start the program itself",
	               line, prog, runner);
}

/* TryExec=: the program a .desktop file is shown for, by path or name. */
static void
check_try_exec(struct works *w, size_t i, const char *path,
               const struct desktop_line *l)
{
	struct exec_words words;
	const char *why;

	if (exec_split(EXEC_DESKTOP, l->value, l->value_len, &words, &why) == 0) {
		if (words.n == 0)
			review_problem(w->r, i, "works", path, "line %lu: "
			               "TryExec= names no program", l->lineno);
		else
			check_program(w, i, path, (int)l->lineno, "TryExec",
			              words.words[0].text, true);
	}
	exec_words_free(&words);
}

/* The .desktop or D-Bus service file M of package I, line by line, every
 * group: a reader may take any for the one it runs. */
static void
check_entry_file(struct works *w, size_t i, const struct debfile_member *m,
                 bool dbus)
{
	struct desktop_reader rd;
	struct desktop_line l;

	if (!review_exports_text(&w->exports, i, m))
		return;
	desktop_reader_init(&rd, m->data, (size_t)m->size);
	while (desktop_reader_next(&rd, &l)) {
		char *prog, *icon, what[64];

		if (l.kind != DESKTOP_LINE_KEY)
			continue;
		if (desktop_line_is_key(&l, "Exec")) {
			prog = review_exports_exec(&w->exports, i, m->path, &l,
			                           dbus);
			if (prog != NULL) {
				check_program(w, i, m->path, (int)l.lineno,
				              "Exec", prog, !dbus);
				check_runs_as_root(w, i, m->path,
				                   (int)l.lineno, prog);
			}
			free(prog);
		} else if (dbus) {
			review_exports_dbus_key(&w->exports, i, m->path, &l);
		} else if (desktop_line_is_key(&l, "TryExec")) {
			check_try_exec(w, i, m->path, &l);
		} else if (desktop_line_is_key(&l, "Icon")) {
			icon = m_strndup(l.value, l.value_len);
			if (l.locale_len > 0)
				snprintf(what, sizeof(what), "Icon[%.*s]=",
				         (int)l.locale_len, l.locale);
			else
				snprintf(what, sizeof(what), "Icon=");
			if (review_exports_icon(&w->exports, i, m->path,
			                        (int)l.lineno, what, icon))
				check_icon(w, i, m->path, (int)l.lineno, what,
				           icon);
			free(icon);
		} else {
			review_exports_desktop_key(&w->exports, i, m->path, &l);
		}
	}
}

/* The trimmed text of NODE (a new string). */
static char *
node_text(xmlNode *node)
{
	xmlChar *content = xmlNodeGetContent(node);
	const char *s = content ? (const char *)content : "";
	size_t len;
	char *out;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	len = strlen(s);
	while (len > 0 && strchr(" \t\r\n", s[len - 1]))
		len--;
	out = m_strndup(s, len);
	xmlFree(content);
	return out;
}

static bool
attr_is(xmlNode *node, const char *name, const char *value)
{
	xmlChar *v = xmlGetProp(node, (const xmlChar *)name);
	bool is = v != NULL && strcmp((const char *)v, value) == 0;

	xmlFree(v);
	return is;
}

static bool
exports_desktop_id(const struct works *w, const char *id)
{
	char path[4096];

	snprintf(path, sizeof(path), "/usr/share/applications/%s", id);
	return find_installed(w, path) != NULL;
}

/*
 * What an <id> inside element PARENT of a metainfo file is: the
 * component's own ("id"), one it replaces or provides; NULL for the
 * others (<requires>, <extends>: another component's, named not claimed).
 */
static const char *
metainfo_id_holder(const char *parent)
{
	if (strcmp(parent, "component") == 0)
		return "id";
	if (strcmp(parent, "replaces") == 0)
		return "replaces";
	if (strcmp(parent, "provides") == 0)
		return "provides";
	return NULL;
}

/* Every element below NODE of a GtkBuilder (UI) or metainfo file. */
static void
walk_xml(struct works *w, size_t i, const char *path, xmlNode *node,
         bool ui)
{
	for (; node != NULL; node = node->next) {
		const char *name = (const char *)node->name;
		int line = (int)xmlGetLineNo(node);

		if (node->type != XML_ELEMENT_NODE)
			continue;
		if (ui && strcmp(name, "property") == 0) {
			xmlChar *prop = xmlGetProp(node,
			                           (const xmlChar *)"name");
			int k;

			for (k = 0; prop && ui_icon_properties[k]; k++)
				if (strcmp((const char *)prop,
				           ui_icon_properties[k]) == 0) {
					char *icon = node_text(node);
					char what[64];

					snprintf(what, sizeof(what), "%s",
					         ui_icon_properties[k]);
					/* GTK's own stock icons. */
					if (strncmp(icon, "gtk-", 4) != 0)
						check_icon(w, i, path, line,
						           what, icon);
					free(icon);
				}
			xmlFree(prop);
		} else if (!ui && strcmp(name, "id") == 0 &&
		           node->parent != NULL &&
		           node->parent->type == XML_ELEMENT_NODE &&
		           metainfo_id_holder((const char *)
		                              node->parent->name) != NULL) {
			char *id = node_text(node);

			review_exports_metainfo_id(&w->exports, i, path, line,
			                           metainfo_id_holder((const char *)
			                           node->parent->name), id);
			free(id);
		} else if (!ui && strcmp(name, "icon") == 0 &&
		           attr_is(node, "type", "local")) {
			char *icon = node_text(node);

			review_exports_icon(&w->exports, i, path, line,
			                    "local icon ", icon);
			free(icon);
		} else if (!ui && strcmp(name, "icon") == 0 &&
		           attr_is(node, "type", "stock")) {
			char *icon = node_text(node);

			check_icon(w, i, path, line, "stock icon", icon);
			free(icon);
		} else if (!ui && strcmp(name, "launchable") == 0 &&
		           attr_is(node, "type", "desktop-id")) {
			char *id = node_text(node);

			if (!exports_desktop_id(w, id))
				review_problem(w->r, i, "works", path, "line %d: "
				               "launchable %s: the upload exports "
				               "no usr/share/applications/%s: name "
				               "the .desktop file it exports", line,
				               id, id);
			free(id);
		}
		walk_xml(w, i, path, node->children, ui);
	}
}

static void
check_xml_file(struct works *w, size_t i, const struct debfile_member *m,
               bool ui)
{
	xmlDoc *doc;
	xmlNode *root;

	doc = xmlReadMemory(m->data, (int)m->size, m->path, NULL,
	                    XML_PARSE_NONET | XML_PARSE_NOERROR |
	                    XML_PARSE_NOWARNING);
	if (doc == NULL) {
		const xmlError *e = xmlGetLastError();

		review_problem(w->r, i, "works", m->path, "line %d: not "
		               "well-formed XML: the app cannot load it",
		               e ? e->line : 0);
		return;
	}
	root = xmlDocGetRootElement(doc);
	/* Only GtkBuilder's own files: ".ui" names other formats too. */
	if (root != NULL && (!ui || strcmp((const char *)root->name,
	                                   "interface") == 0))
		walk_xml(w, i, m->path, root, ui);
	xmlFreeDoc(doc);
}

/* The first text domain package P has translations for, or NULL. */
static const char *
translated_domain(const struct review_package *p, char *buf, size_t size)
{
	char prefix[4096];
	size_t i, n;

	n = (size_t)snprintf(prefix, sizeof(prefix), "%s/share/locale/",
	                     p->ns.rel);
	for (i = 0; i < p->deb.nmembers; i++) {
		const char *path = p->deb.members[i].path, *base, *mo;

		if (strncmp(path, prefix, n) != 0 || !str_match_end(path, ".mo") ||
		    strstr(path + n, "/LC_MESSAGES/") == NULL)
			continue;
		base = strrchr(path, '/') + 1;
		mo = base + strlen(base) - 3;
		snprintf(buf, size, "%.*s", (int)(mo - base), base);
		return buf;
	}
	return NULL;
}

static void
check_translations(struct works *w, size_t i)
{
	const struct review_package *p = &w->r->packages[i];
	char domain[256];
	size_t j;

	if (!p->namespace_ok ||
	    translated_domain(p, domain, sizeof(domain)) == NULL)
		return;
	for (j = 0; j < p->deb.nmembers; j++) {
		const struct debfile_member *m = &p->deb.members[j];
		char where[64];
		long at;

		if (m->data == NULL || !path_is_under(m->path, p->ns.rel))
			continue;
		at = layout_find_shared_localedir((const unsigned char *)m->data,
		                                  (size_t)m->size, 0);
		if (at < 0)
			continue;
		if (memchr(m->data, '\0', (size_t)m->size) != NULL) {
			snprintf(where, sizeof(where), "offset %ld", at);
		} else {
			long line = 1, k;

			for (k = 0; k < at; k++)
				line += m->data[k] == '\n';
			snprintf(where, sizeof(where), "line %ld", line);
		}
		review_problem(w->r, i, "works", m->path, "%s: names "
		               LAYOUT_SHARED_LOCALEDIR ", but the package's "
		               "translations (%s.mo) are in %s/share/locale: "
		               "bind the text domain there (bindtextdomain, "
		               "gettext.install) or build with "
		               "localedir=%s/share/locale", where, domain,
		               p->ns.path, p->ns.path);
	}
	/* A program that sets its text domain and never binds it looks in
	 * glibc's own directory, /usr/share/locale, naming it nowhere
	 * (hunspell: textdomain("hunspell"), no bindtextdomain()). */
	for (j = 0; j < p->deb.nmembers; j++) {
		const struct debfile_member *m = &p->deb.members[j];
		const unsigned char *data = (const unsigned char *)m->data;

		if (m->data == NULL || !path_is_under(m->path, p->ns.rel) ||
		    !elf_imports(data, (size_t)m->size, "textdomain") ||
		    elf_imports(data, (size_t)m->size, "bindtextdomain"))
			continue;
		review_problem(w->r, i, "works", m->path, "calls textdomain() "
		               "and never bindtextdomain(), so gettext looks "
		               "in " LAYOUT_SHARED_LOCALEDIR ", but the "
		               "package's translations (%s.mo) are in "
		               "%s/share/locale: bind the text domain there "
		               "(bindtextdomain(PACKAGE, LOCALEDIR) before "
		               "textdomain(), in a patch), or leave the "
		               "translations out", domain, p->ns.path);
	}
}

/*
 * A name compiled into a program: gtk_image_new_from_icon_name(
 * "org.example.App"), QIcon::fromTheme("org.example.App") leave the
 * name in .rodata (whole, as a merged tail or as UTF-16: compiled-names.h),
 * and the toolkit looks it up as it is, under XDG_DATA_DIRS.  Exported
 * only as extras-org.example.App, the icon is not found and the app shows
 * the missing-image icon; in the namespace under its own name
 * (dh_extras_icons) it is.  Reported once a name and program.
 */
struct icon_lookup {
	struct works *w;
	size_t package;
	const char *path;
	size_t base;
	char **seen;
	size_t nseen;
};

static void
report_program_icon(void *ctx, const char *name, size_t offset)
{
	struct icon_lookup *l = ctx;
	const struct review_package *p = &l->w->r->packages[l->package];
	size_t k;

	for (k = 0; k < l->nseen && strcmp(l->seen[k], name) != 0; k++)
		;
	if (k < l->nseen)
		return;
	push_string(&l->seen, &l->nseen, m_strdup(name));
	review_problem(l->w->r, l->package, "works", l->path, "offset %zu: "
	               "the program looks up the icon '%s', which the "
	               "upload exports only as '%s%s' and does not ship in "
	               "the namespace: the app shows a missing image; keep "
	               "it under its own name in %s/share/icons "
	               "(dh_extras_icons) with %s/share first on "
	               "XDG_DATA_DIRS (dh_extras_launchers)",
	               l->base + offset, name, EXTRAS_PREFIX, name,
	               p->ns.path, p->ns.path);
}

static void
check_program_icons(struct works *w, size_t i)
{
	const struct review_package *p = &w->r->packages[i];
	struct compiled_names names;
	char **lost = NULL;
	size_t nlost = 0, j;

	if (!p->namespace_ok || w->nicons == 0)
		return;
	/* The names exported renamed and not kept in the namespace. */
	for (j = 0; j < w->nicons; j++) {
		const char *name = w->icons[j] + strlen(EXTRAS_PREFIX);

		if (strncmp(w->icons[j], EXTRAS_PREFIX,
		            strlen(EXTRAS_PREFIX)) == 0 &&
		    !find_string(w->ns_icons, w->nns_icons, name))
			push_string(&lost, &nlost, (char *)name);
	}
	compiled_names_init(&names, lost, nlost);
	for (j = 0; j < p->deb.nmembers; j++) {
		const struct debfile_member *m = &p->deb.members[j];
		const unsigned char *data = (const unsigned char *)m->data;
		struct icon_lookup l = { w, i, m->path, 0, NULL, 0 };
		struct elf_range ro;

		if (m->data == NULL || !path_is_under(m->path, p->ns.rel) ||
		    !elf_section_find(data, (size_t)m->size, ".rodata", &ro))
			continue;
		l.base = ro.off;
		compiled_names_scan(&names, data + ro.off, ro.size,
		                    report_program_icon, &l);
		strings_free(l.seen, l.nseen);
	}
	compiled_names_free(&names);
	free(lost);
}

/*
 * The namespace's var/: data the program changes (the FHS's /var), which
 * the confined app cannot write, its namespace being read-only to it
 * (angband's shared score file and save directory, left to a setgid
 * program).  Reported once, at the top of what the package ships there.
 */
static void
check_variable_data(struct works *w, size_t i)
{
	const struct review_package *p = &w->r->packages[i];
	char var[sizeof(p->ns.path) + 8];
	const char *path = NULL;
	size_t j;

	if (!p->namespace_ok)
		return;
	snprintf(var, sizeof(var), "%s/var", p->ns.rel);
	/* A file, if there is one: the directories only hold it. */
	for (j = 0; j < p->deb.nmembers; j++) {
		const struct debfile_member *m = &p->deb.members[j];

		if (strcmp(m->path, var) != 0 && !path_is_under(m->path, var))
			continue;
		if (path == NULL || m->type != DEBFILE_DIRECTORY)
			path = m->path;
		if (m->type != DEBFILE_DIRECTORY)
			break;
	}
	if (path != NULL)
		review_problem(w->r, i, "works", path, "the namespace's var/ "
		               "holds data a program changes, but the app "
		               "cannot write its namespace (read-only, and "
		               "confined): keep variable data in the user's "
		               "home ($XDG_DATA_HOME, $XDG_STATE_HOME); a "
		               "program that shared scores or saves through "
		               "set-id privileges must be built for per-user "
		               "files instead");
}

int
review_works(struct review *r, struct dpkg_error *err)
{
	struct works w = { .r = r };
	size_t i, j;
	int ret = 0;

	if (load_standard_names(&w, err) < 0)
		return -1;
	review_links_init(&w.links, r);
	if (review_exports_init(&w.exports, r, &w.links, err) < 0) {
		review_links_free(&w.links);
		strings_free(w.standard, w.nstandard);
		return -1;
	}
	w.exports.shipped = shipped_hook;
	w.exports.shipped_ctx = &w;
	collect(&w);
	for (i = 0; i < r->npackages; i++) {
		const struct review_package *p = &r->packages[i];

		if (p->keep.overflow)
			review_problem(r, i, "works", NULL, "more than %d MiB "
			               "of .desktop, D-Bus, metainfo and "
			               "GtkBuilder files: not checked",
			               REVIEW_KEEP_MAX >> 20);
		for (j = 0; j < p->deb.nmembers; j++) {
			const struct debfile_member *m = &p->deb.members[j];

			if (m->data == NULL)
				continue;
			if (is_desktop_file(m->path))
				check_entry_file(&w, i, m, false);
			else if (is_dbus_service(m->path))
				check_entry_file(&w, i, m, true);
			else if (is_metainfo(m->path) ||
			         is_builder_file(m->path)) {
				const char *unloaded = dynload(&libxml2);

				if (unloaded != NULL) {
					ret = dpkg_put_error(err, "%s", unloaded);
					goto out;
				}
				/* A metainfo file, else GtkBuilder's. */
				check_xml_file(&w, i, m,
				               !is_metainfo(m->path));
			}
		}
		check_translations(&w, i);
		check_program_icons(&w, i);
		check_variable_data(&w, i);
	}
out:
	review_exports_free(&w.exports);
	review_links_free(&w.links);
	free(w.files);
	strings_free(w.icons, w.nicons);
	strings_free(w.ns_icons, w.nns_icons);
	strings_free(w.standard, w.nstandard);
	return ret;
}
