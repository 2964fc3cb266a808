/*
 * review-exports.c: the exports judged by what they make the desktop do.
 *
 * An exported file is read by programs that are not the app's: the
 * desktop runs a .desktop file's Exec= on a click, D-Bus runs a
 * service's Exec= when any program calls its Name=, a software centre
 * lists a metainfo <id> and hides what it <replaces>, the desktop opens
 * every link of a scheme with an app claiming it.  So:
 *
 * - Exec= runs a program in the namespace, where the profile attaches
 *   (itself, not a link leading out of it), through "env VAR=value" at
 *   most: a shell, an interpreter or any program outside the namespace
 *   would run unconfined.  Every word up to the program is plain (no
 *   partial quoting, reserved character or field code), so that no reader
 *   splits it otherwise; env takes every word holding '=' for a variable,
 *   so such a word is never the program.
 * - A D-Bus Name= and a metainfo <id>, <replaces> or <provides> id is the
 *   app's own: declared under bus-names: (ids:) in its declaration, or
 *   derived from the app: its last dot-separated element (an id's
 *   without its ".desktop" suffix and extras- prefix), in lower case
 *   with '_' read as '-', is the app id; an id may also be the app id or
 *   a package name of the source.  A component's own <id> is its file's
 *   name, held with the file's path as a service's Name= is (below); an
 *   extras- id it replaces or provides is one the upload exports, or
 *   derived, never only declared: another app's holds it.  A name
 *   under one of the desktop's prefixes
 *   (templates/exports/desktop-names: org.freedesktop., org.gnome., ...)
 *   also needs the reserved privilege desktop-names; an id in the extras-
 *   name space cannot be the desktop's.
 * - No MimeType= claims a URL scheme other programs rely on
 *   (templates/exports/url-handlers) without the reserved privilege
 *   url-handlers.
 * - Icon= is an icon name, or the canonical path of a file in the
 *   namespace or of an icon the upload exports.
 * - A session service is started by D-Bus alone: no SystemdService=
 *   (another unit), User= or AssumedAppArmorLabel=; its file is named
 *   after its Name= (NAME.service), so that the registry, which holds
 *   every exported path for one app, holds the bus name too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <dpkg/dpkg.h>

#include "base/datadir.h"
#include "base/path.h"
#include "base/strings.h"
#include "base/template.h"
#include "review/review-exports.h"

#define URL_HANDLERS_PRIVILEGE "url-handlers"
#define DESKTOP_NAMES_PRIVILEGE "desktop-names"

static int
load_list(const struct review *r, const char *name, char ***list, size_t *n,
          struct dpkg_error *err)
{
	char path[4096];

	if (r->opt.templates != NULL)
		snprintf(path, sizeof(path), "%s/exports/%s", r->opt.templates,
		         name);
	else
		snprintf(path, sizeof(path), "%s/templates/exports/%s",
		         dh_extras_datadir(), name);
	return template_list_load(path, list, n, err);
}

int
review_exports_init(struct review_exports *x, struct review *r,
                    const struct review_links *links,
                    struct dpkg_error *err)
{
	memset(x, 0, sizeof(*x));
	x->r = r;
	x->links = links;
	if (load_list(r, "url-handlers", &x->handlers, &x->nhandlers,
	              err) < 0 ||
	    load_list(r, "desktop-names", &x->desktop_names,
	              &x->ndesktop_names, err) < 0) {
		review_exports_free(x);
		return -1;
	}
	return 0;
}

void
review_exports_free(struct review_exports *x)
{
	strings_free(x->handlers, x->nhandlers);
	strings_free(x->desktop_names, x->ndesktop_names);
	strings_free(x->components, x->ncomponents);
	x->handlers = x->desktop_names = x->components = NULL;
	x->nhandlers = x->ndesktop_names = x->ncomponents = 0;
	x->components_made = false;
}

bool
review_exports_text(struct review_exports *x, size_t i,
                    const struct debfile_member *m)
{
	if (memchr(m->data, '\0', (size_t)m->size) == NULL)
		return true;
	review_problem(x->r, i, "export", m->path, "holds a NUL byte, where "
	               "the desktop's reader ends a line and the gate would "
	               "not: remove it");
	return false;
}

/* Whether PATH is absolute with no empty, "." or ".." component. */
static bool
is_canonical(const char *path)
{
	const char *p = path;

	if (*p != '/' || p[1] == '\0')
		return false;
	while (*p == '/') {
		size_t n = strcspn(p + 1, "/");

		if (n == 0 || (n == 1 && p[1] == '.') ||
		    (n == 2 && p[1] == '.' && p[2] == '.'))
			return false;
		p += n + 1;
	}
	return true;
}

static const struct review_package *
package(const struct review_exports *x, size_t i)
{
	return &x->r->packages[i];
}

/* ABS, resolved through the upload's links (relative to the root, a new
 * string), or NULL after too many. */
static char *
resolve(const struct review_exports *x, const char *abs)
{
	struct debfile_member probe = { 0 };

	probe.path = (char *)"";
	probe.target = (char *)abs;
	return review_links_resolve(x->links, &probe);
}

static bool
is_env(const char *word)
{
	return strcmp(word, "env") == 0 || strcmp(word, "/usr/bin/env") == 0 ||
	       strcmp(word, "/bin/env") == 0;
}

/* The program of W: after env and its variables; N when there is none. */
static size_t
program_index(const struct exec_words *w)
{
	size_t k = 0;

	if (w->n > 0 && w->words[0].unplain == NULL && is_env(w->words[0].text))
		for (k = 1; k < w->n && strchr(w->words[k].text, '='); k++)
			;
	return k;
}

/* One line about an Exec= of package I that does not run a program of
 * its namespace, saying what to run instead. */
static void
outside(struct review_exports *x, size_t i, const char *path, int line,
        const char *prog, bool dbus)
{
	const struct review_package *p = package(x, i);
	const char *shipped = x->shipped ?
	                      x->shipped(x->shipped_ctx, prog) : NULL;

	if (shipped != NULL)
		review_problem(x->r, i, "export", path, "line %d: Exec=%s: the "
		               "program is /%s, which is not on PATH: write "
		               "Exec=/%s", line, prog, shipped, shipped);
	else if (dbus && prog[0] != '/')
		review_problem(x->r, i, "export", path, "line %d: Exec=%s: "
		               "D-Bus does not search PATH, and a program outside "
		               "the namespace %s runs unconfined: name a program "
		               "the app installs there by its path", line, prog,
		               p->ns.path);
	else
		review_problem(x->r, i, "export", path, "line %d: Exec=%s: runs "
		               "a program outside the namespace %s, which no "
		               "profile confines: run a program the app installs "
		               "there, by its path (a launcher script there if "
		               "it needs an interpreter)", line, prog, p->ns.path);
}

char *
review_exports_exec(struct review_exports *x, size_t i, const char *path,
                    const struct desktop_line *l, bool dbus)
{
	const struct review_package *p = package(x, i);
	int line = (int)l->lineno;
	struct exec_words w;
	const struct exec_word *prog;
	const char *why;
	char *resolved, *ok = NULL;
	size_t k, j;

	if (!p->namespace_ok)
		return NULL;
	if (exec_split(dbus ? EXEC_DBUS : EXEC_DESKTOP, l->value, l->value_len,
	               &w, &why) < 0) {
		review_problem(x->r, i, "export", path, "line %d: Exec=: %s: "
		               "%s refuses it; quote as %s", line, why,
		               dbus ? "dbus-daemon" : "the desktop",
		               dbus ? "a shell does" : "the Desktop Entry "
		               "Specification says");
		exec_words_free(&w);
		return NULL;
	}
	k = program_index(&w);
	for (j = 0; j < k && j < w.n; j++)
		if (w.words[j].unplain != NULL) {
			review_problem(x->r, i, "export", path, "line %d: Exec=: "
			               "'%s' %s: write env's variables plainly "
			               "(env VAR=value PROGRAM)", line,
			               w.words[j].text, w.words[j].unplain);
			goto done;
		}
	if (k == w.n) {
		review_problem(x->r, i, "export", path, "line %d: Exec= names no "
		               "program: name one the app installs in %s", line,
		               p->ns.path);
		goto done;
	}
	prog = &w.words[k];
	if (prog->unplain != NULL) {
		review_problem(x->r, i, "export", path, "line %d: Exec=: the "
		               "program '%s' %s: write its path plainly", line,
		               prog->text, prog->unplain);
	} else if (prog->text[0] != '/' ||
	           !path_is_under(prog->text + 1, p->ns.rel)) {
		outside(x, i, path, line, prog->text, dbus);
	} else if (!is_canonical(prog->text)) {
		review_problem(x->r, i, "export", path, "line %d: Exec=%s: not "
		               "a canonical path (an empty, . or .. component): "
		               "write the program's own path", line, prog->text);
	} else if ((resolved = resolve(x, prog->text)) == NULL ||
	           !path_is_under(resolved, p->ns.rel)) {
		review_problem(x->r, i, "export", path, "line %d: Exec=%s: leads "
		               "to %s%s, outside the namespace %s, where no "
		               "profile confines it: install the program itself "
		               "in the namespace", line, prog->text,
		               resolved ? "/" : "", resolved ? resolved :
		               "a loop of links", p->ns.path);
		free(resolved);
	} else {
		free(resolved);
		ok = m_strdup(prog->text);
	}
done:
	exec_words_free(&w);
	return ok;
}

static bool
fold_equal(const char *s, size_t n, const char *app)
{
	size_t i;

	if (strlen(app) != n)
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		else if (c == '_')
			c = '-';
		if (c != app[i])
			return false;
	}
	return true;
}

static bool
declared(const struct declaration_value *v, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i].value, name) == 0)
			return true;
	return false;
}

/* Whether NAME (a bus name when BUS, else a component id) is package
 * I's app's own by its app id or a package name, declarations aside. */
static bool
derived_name(const struct review_exports *x, size_t i, const char *name,
             bool bus)
{
	const struct review_package *p = package(x, i);
	size_t plen = strlen(EXTRAS_PREFIX), n, j;
	const char *base = name, *last;

	if (!bus && strncmp(name, EXTRAS_PREFIX, plen) == 0)
		base = name + plen;
	n = strlen(base);
	if (!bus) {
		if (n > 8 && strcmp(base + n - 8, ".desktop") == 0)
			n -= 8;
		for (j = 0; j < x->r->npackages; j++) {
			const struct review_package *q = &x->r->packages[j];

			if (!review_same_source(p, q))
				continue;
			if (strcmp(name, q->deb.package) == 0 ||
			    (strlen(q->deb.package) == n + plen &&
			     strncmp(q->deb.package, EXTRAS_PREFIX, plen) == 0 &&
			     strncmp(q->deb.package + plen, base, n) == 0))
				return true;
		}
	}
	last = base + n;
	while (last > base && last[-1] != '.')
		last--;
	return fold_equal(last, (size_t)(base + n - last), p->ns.app);
}

/* Whether NAME (a bus name when BUS, else a component id) is package
 * I's app's own, as the comment at the top says. */
static bool
own_name(const struct review_exports *x, size_t i, const char *name,
         bool bus)
{
	const struct review_package *p = package(x, i);
	size_t plen = strlen(EXTRAS_PREFIX);
	const char *base = name;

	if (!bus && strncmp(name, EXTRAS_PREFIX, plen) == 0)
		base = name + plen;
	if (bus ? declared(p->decl.bus_names, p->decl.n_bus_names, name) :
	          declared(p->decl.ids, p->decl.n_ids, name) ||
	          declared(p->decl.ids, p->decl.n_ids, base))
		return true;
	return derived_name(x, i, name, bus);
}

/* The desktop's prefix NAME is under, or NULL. */
static const char *
desktop_prefix(const struct review_exports *x, const char *name)
{
	size_t k;

	for (k = 0; k < x->ndesktop_names; k++)
		if (strncasecmp(name, x->desktop_names[k],
		                strlen(x->desktop_names[k])) == 0)
			return x->desktop_names[k];
	return NULL;
}

/* NAME of package I at LINE, written WHAT ("Name=", "<id>"), a bus name
 * when BUS: the app's own, and the desktop's only by privilege. */
static void
check_name(struct review_exports *x, size_t i, const char *path, int line,
           const char *what, const char *name, bool bus)
{
	const struct review_package *p = package(x, i);
	const char *prefix;

	if (!own_name(x, i, name, bus))
		review_problem(x->r, i, "export", path, "line %d: %s%s: not the "
		               "app's own: end it in .%s (org.example.%s), or "
		               "declare it under %s in debian/extras.yaml, where "
		               "the store's registry holds it for the app", line,
		               what, name, p->ns.app, p->ns.app,
		               bus ? "bus-names:" : "ids:");
	else if ((prefix = desktop_prefix(x, name)) != NULL &&
	         !declaration_has_privilege(&p->decl, DESKTOP_NAMES_PRIVILEGE))
		review_problem(x->r, i, "export", path, "line %d: %s%s: a name "
		               "of the desktop (%s*), which other programs call "
		               "and trust: only an app the store grants the "
		               "reserved privilege " DESKTOP_NAMES_PRIVILEGE
		               " may use it", line, what, name, prefix);
}

/*
 * The file of the session service owning NAME is NAME.service, the name
 * D-Bus looks up first: the exported path is claimed in the registry by
 * one app, and with it the bus name.  Two files of any other names could
 * both say Name=NAME, and D-Bus would start whichever it read first.
 */
static void
check_service_file_name(struct review_exports *x, size_t i, const char *path,
                        int line, const char *name)
{
	const char *base = strrchr(path, '/');
	size_t n = strlen(name);

	base = base ? base + 1 : path;
	if (strncmp(base, name, n) == 0 && strcmp(base + n, ".service") == 0)
		return;
	review_problem(x->r, i, "export", path, "line %d: Name=%s: in a file "
	               "named %s: a session service's file is named after the "
	               "bus name it owns, so that the store's registry holds "
	               "the name with the file's path: name it %s.service",
	               line, name, base, name);
}

void
review_exports_dbus_key(struct review_exports *x, size_t i, const char *path,
                        const struct desktop_line *l)
{
	static const char *const refused[] = {
		"SystemdService", "User", "AssumedAppArmorLabel", NULL,
	};
	int line = (int)l->lineno, k;
	char *value;

	if (!package(x, i)->namespace_ok ||
	    !desktop_line_in_group(l, "D-BUS Service"))
		return;
	for (k = 0; refused[k]; k++)
		if (desktop_line_is_key(l, refused[k]))
			review_problem(x->r, i, "export", path, "line %d: %s=: "
			               "an app's session service is started by "
			               "D-Bus alone, as itself: remove %s=", line,
			               refused[k], refused[k]);
	if (!desktop_line_is_key(l, "Name"))
		return;
	value = m_strndup(l->value, l->value_len);
	if (declaration_check_bus_name(value) != NULL) {
		review_problem(x->r, i, "export", path, "line %d: Name=%s: %s",
		               line, value, declaration_check_bus_name(value));
	} else {
		check_name(x, i, path, line, "Name=", value, true);
		check_service_file_name(x, i, path, line, value);
	}
	free(value);
}

struct mime_ctx {
	struct review_exports *x;
	size_t i;
	const char *path;
	int line;
};

static void
check_mime_type(const char *item, void *ctx)
{
	struct mime_ctx *c = ctx;
	const struct review_package *p = package(c->x, c->i);
	char *type = m_strdup(item + strspn(item, " \t")), *s;
	size_t k;

	for (s = type + strlen(type); s > type && strchr(" \t", s[-1]); s--)
		s[-1] = '\0';
	for (k = 0; k < c->x->nhandlers; k++)
		if (strcasecmp(type, c->x->handlers[k]) == 0 &&
		    !declaration_has_privilege(&p->decl, URL_HANDLERS_PRIVILEGE))
			review_problem(c->x->r, c->i, "export", c->path, "line "
			               "%d: MimeType=%s: claims what other programs "
			               "rely on, making the app a handler of every "
			               "such link: remove it, or ask the store for "
			               "the reserved privilege "
			               URL_HANDLERS_PRIVILEGE, c->line, type);
	free(type);
}

bool
review_exports_icon(struct review_exports *x, size_t i, const char *path,
                    int line, const char *what, const char *icon)
{
	const struct review_package *p = package(x, i);
	const struct debfile_member *m = NULL;
	size_t j, k;

	if (!p->namespace_ok || strchr(icon, '/') == NULL) {
		if (strcmp(icon, ".") != 0 && strcmp(icon, "..") != 0)
			return true;
	} else if (is_canonical(icon)) {
		if (path_is_under(icon + 1, p->ns.rel))
			return true;
		/* An icon the upload itself exports. */
		for (j = 0; j < x->r->npackages && m == NULL; j++)
			for (k = 0; k < x->r->packages[j].deb.nmembers; k++)
				if (strcmp(x->r->packages[j].deb.members[k].path,
				           icon + 1) == 0) {
					m = &x->r->packages[j].deb.members[k];
					break;
				}
		if (m != NULL && (path_is_under(m->path, "usr/share/icons") ||
		                  path_is_under(m->path, "usr/share/pixmaps")))
			return true;
	}
	review_problem(x->r, i, "export", path, "line %d: %s%s: neither an "
	               "icon name nor a file of the namespace %s or an icon the "
	               "upload exports: name the icon, or its canonical path",
	               line, what, icon, p->ns.path);
	return false;
}

void
review_exports_desktop_key(struct review_exports *x, size_t i,
                           const char *path, const struct desktop_line *l)
{
	struct mime_ctx c = { x, i, path, (int)l->lineno };
	char *value;

	if (!package(x, i)->namespace_ok ||
	    !desktop_line_is_key(l, "MimeType"))
		return;
	value = m_strndup(l->value, l->value_len);
	desktop_string_list(value, strlen(value), check_mime_type, &c);
	free(value);
}

/* What a metainfo file's name ends in after its component id. */
static const char *const metainfo_suffixes[] = {
	".metainfo.xml", ".appdata.xml", ".xml", NULL,
};

/* The length of BASE, a metainfo file's name, without its suffix; 0 for
 * no metainfo name. */
static size_t
metainfo_stem(const char *base)
{
	size_t len = strlen(base), k, n;

	for (k = 0; metainfo_suffixes[k]; k++) {
		n = strlen(metainfo_suffixes[k]);
		if (len > n && strcmp(base + len - n, metainfo_suffixes[k]) == 0)
			return len - n;
	}
	return 0;
}

/*
 * A component's own <id> is its file's name, as AppStream wants it and
 * as dh_extras_relocate writes it: the exported path is claimed in the
 * registry by one app, and with it the id, which software centres merge
 * components by.
 */
static void
check_metainfo_file_name(struct review_exports *x, size_t i, const char *path,
                         int line, const char *id)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = metainfo_stem(base);
	if (n == strlen(id) && strncmp(base, id, n) == 0)
		return;
	review_problem(x->r, i, "export", path, "line %d: <id> %s: in a file "
	               "named %s: a component's file is named after its id, so "
	               "that the store's registry holds the id with the file's "
	               "path: name it %s.metainfo.xml", line, id, base, id);
}

static int
compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether the upload exports the metainfo file of component ID.  The
 * ids are listed once and searched: an upload may name thousands. */
static bool
exports_component(struct review_exports *x, const char *id)
{
	static const char *const dirs[] = {
		"usr/share/metainfo/", "usr/share/appdata/", NULL,
	};
	size_t j, k, d, n;
	const char *key = id;

	if (!x->components_made) {
		for (n = 0, j = 0; j < x->r->npackages; j++)
			n += x->r->packages[j].deb.nmembers;
		x->components = m_malloc((n + 1) * sizeof(*x->components));
		for (j = 0; j < x->r->npackages; j++)
			for (k = 0; k < x->r->packages[j].deb.nmembers; k++) {
				const char *m =
					x->r->packages[j].deb.members[k].path;

				for (d = 0; dirs[d]; d++) {
					size_t dl = strlen(dirs[d]);

					if (strncmp(m, dirs[d], dl) != 0 ||
					    strchr(m + dl, '/') != NULL ||
					    (n = metainfo_stem(m + dl)) == 0)
						continue;
					x->components[x->ncomponents++] =
						m_strndup(m + dl, n);
				}
			}
		if (x->ncomponents > 0)
			qsort(x->components, x->ncomponents,
			      sizeof(*x->components), compare_strings);
		x->components_made = true;
	}
	return x->ncomponents > 0 &&
	       bsearch(&key, x->components, x->ncomponents,
	               sizeof(*x->components), compare_strings) != NULL;
}

/*
 * An extras- id a component replaces or provides is one of the upload's
 * own components, or in the app's own names: every extras- id is held,
 * with its metainfo file's path, by the app that exports it, and another
 * app's, declared under ids:, would hide that app or stand in for it.
 */
static void
check_other_extras_id(struct review_exports *x, size_t i, const char *path,
                      int line, const char *what, const char *id)
{
	if (strncmp(id, EXTRAS_PREFIX, strlen(EXTRAS_PREFIX)) != 0 ||
	    exports_component(x, id) || derived_name(x, i, id, false))
		return;
	review_problem(x->r, i, "export", path, "line %d: %s%s: an extras "
	               "component the upload does not export, which the store's "
	               "registry holds for the app that exports "
	               "usr/share/metainfo/%s.metainfo.xml: name only the app's "
	               "own components", line, what, id, id);
}

void
review_exports_metainfo_id(struct review_exports *x, size_t i,
                           const char *path, int line, const char *what,
                           const char *id)
{
	char written[64];

	if (!package(x, i)->namespace_ok)
		return;
	snprintf(written, sizeof(written), "<%s> ", what);
	if (declaration_check_component_id(id) != NULL)
		review_problem(x->r, i, "export", path, "line %d: %s%s: %s", line,
		               written, id, declaration_check_component_id(id));
	else
		check_name(x, i, path, line, written, id, false);
	if (strcmp(what, "id") == 0)
		check_metainfo_file_name(x, i, path, line, id);
	else
		check_other_extras_id(x, i, path, line, written, id);
}
