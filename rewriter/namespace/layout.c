/*
 * layout.c: where each entry of a staged tree belongs in an extras package.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "base/path.h"
#include "namespace/layout.h"

/*
 * Directories shared between packages (fnmatch patterns, relative).  A
 * directory missing from this list is taken to belong to the package that
 * fills it, so references to it are rewritten: keep it generous.
 */
static const char *const shared_dirs[] = {
	"bin", "sbin", "lib", "lib32", "lib64", "libx32", "opt", "srv",
	"etc", "etc/xdg", "etc/xdg/*", "etc/default", "etc/init.d",
	"etc/init", "etc/cron.*", "etc/logrotate.d", "etc/dbus-1",
	"etc/dbus-1/*", "etc/apparmor.d", "etc/apparmor.d/*", "etc/profile.d",
	"etc/sudoers.d", "etc/systemd", "etc/systemd/*", "etc/X11",
	"etc/X11/*", "etc/bash_completion.d", "etc/alternatives",
	"etc/security", "etc/pam.d", "etc/sysctl.d", "etc/udev",
	"etc/udev/*", "etc/modprobe.d", "etc/ld.so.conf.d", "etc/menu",
	"etc/fonts", "etc/fonts/*", "etc/gconf", "etc/gconf/*",
	"etc/ssl", "etc/ssl/*", "etc/network", "etc/network/*",
	"var", "var/lib", "var/cache", "var/log", "var/spool", "var/games",
	"var/www", "var/backups", "var/mail", "var/opt", "var/tmp",
	"usr", "usr/bin", "usr/sbin", "usr/games", "usr/include",
	"usr/libexec", "usr/local", "usr/local/*", "usr/src", "usr/lib",
	"usr/lib/*-linux-gnu*", "usr/lib/*-linux-gnu*/pkgconfig",
	"usr/lib/*-linux-gnu*/girepository-1.0",
	"usr/lib/*-linux-gnu*/gdk-pixbuf-2.0",
	"usr/lib/*-linux-gnu*/gdk-pixbuf-2.0/*",
	"usr/lib/*-linux-gnu*/gtk-[234].0",
	"usr/lib/*-linux-gnu*/gtk-[234].0/*", "usr/lib/*-linux-gnu*/gio",
	"usr/lib/*-linux-gnu*/gio/modules", "usr/lib/*-linux-gnu*/qt[56]",
	"usr/lib/*-linux-gnu*/qt[56]/*", "usr/lib/*-linux-gnu*/perl5",
	"usr/lib/*-linux-gnu*/perl5/*", "usr/lib/*-linux-gnu*/gstreamer-1.0",
	"usr/lib/pkgconfig", "usr/lib/python3", "usr/lib/python3/dist-packages",
	"usr/lib/python3.*", "usr/lib/python3.*/*-packages", "usr/lib/systemd",
	"usr/lib/systemd/*", "usr/lib/tmpfiles.d", "usr/lib/sysusers.d",
	"usr/lib/udev", "usr/lib/udev/*", "usr/lib/mime",
	"usr/lib/mime/packages", "usr/lib/debug", "usr/lib/debug/.build-id",
	"usr/lib/debug/.build-id/*", "usr/lib/cgi-bin", "usr/lib/perl5",
	"usr/lib/ruby", "usr/lib/ruby/*", "usr/lib/jvm", "usr/lib/locale",
	"usr/lib/girepository-1.0", "usr/lib/dbus-1.0", "usr/lib/sysctl.d",
	"usr/lib/modules-load.d", "usr/lib/environment.d",
	"usr/share", "usr/share/applications", "usr/share/applications/*",
	"usr/share/appdata", "usr/share/metainfo", "usr/share/doc",
	"usr/share/doc-base", "usr/share/man", "usr/share/man/*",
	"usr/share/man/*/*", "usr/share/info", "usr/share/locale",
	"usr/share/locale/*", "usr/share/locale/*/*", "usr/share/icons",
	"usr/share/icons/*", "usr/share/icons/*/*", "usr/share/icons/*/*/*",
	/* A context's own subdirectory: thunar's 16x16/stock/navigation. */
	"usr/share/icons/*/*/*/*",
	"usr/share/pixmaps", "usr/share/dbus-1", "usr/share/dbus-1/*",
	"usr/share/glib-2.0", "usr/share/glib-2.0/schemas", "usr/share/mime",
	"usr/share/mime/*", "usr/share/fonts", "usr/share/fonts/*",
	"usr/share/fonts/*/*", "usr/share/themes", "usr/share/sounds",
	"usr/share/help", "usr/share/help/*", "usr/share/help/*/*",
	"usr/share/gnome", "usr/share/gnome/*", "usr/share/gnome-shell",
	"usr/share/gnome-shell/*", "usr/share/gtk-doc",
	"usr/share/gtk-doc/html", "usr/share/lintian",
	"usr/share/lintian/overrides", "usr/share/menu",
	"usr/share/bash-completion", "usr/share/bash-completion/completions",
	"usr/share/zsh", "usr/share/zsh/*", "usr/share/fish",
	"usr/share/fish/*", "usr/share/thumbnailers", "usr/share/polkit-1",
	"usr/share/polkit-1/*", "usr/share/perl5", "usr/share/java",
	"usr/share/javascript", "usr/share/python3", "usr/share/python",
	"usr/share/games", "usr/share/common-licenses", "usr/share/gir-1.0",
	"usr/share/vala", "usr/share/vala/vapi", "usr/share/pkgconfig",
	"usr/share/aclocal", "usr/share/emacs", "usr/share/emacs/*",
	"usr/share/xml", "usr/share/sgml", "usr/share/X11", "usr/share/X11/*",
	"usr/share/kservices5", "usr/share/kxmlgui5",
	"usr/share/knotifications5", "usr/share/plasma", "usr/share/plasma/*",
	"usr/share/mime-info", "usr/share/application-registry",
	"usr/share/desktop-directories", "usr/share/xsessions",
	"usr/share/wayland-sessions", "usr/share/gettext",
	"usr/share/gettext/*", "usr/share/cmake", "usr/share/qt[56]",
	"usr/share/qt[56]/*", "usr/share/binfmts", "usr/share/bug",
	"usr/share/apport", "usr/share/apport/package-hooks",
	"usr/share/xdg-desktop-portal", "usr/share/xdg-desktop-portal/*",
	"usr/share/gnome-control-center", "usr/share/gnome-control-center/*",
	"usr/share/systemd", "usr/share/keyrings", "usr/share/ca-certificates",
	NULL,
};

/* usr/ subdirectories: a namespace path under one came from usr/. */
static const char *const usr_subdirs[] = {
	"bin", "sbin", "lib", "lib32", "lib64", "libx32", "libexec", "share",
	"include", "games", "src", "local", NULL,
};

/* Of those, the ones merged-/usr also makes visible at the top. */
static const char *const merged_usr_dirs[] = {
	"bin", "sbin", "lib", "lib32", "lib64", "libx32", NULL,
};

static const char *const icon_suffixes[] = {
	".png", ".svg", ".svgz", ".xpm", ".ico", ".jpg", ".jpeg", NULL,
};

bool
layout_is_shared_dir(const char *path)
{
	int i;

	for (i = 0; shared_dirs[i]; i++)
		if (fnmatch(shared_dirs[i], path, FNM_PATHNAME) == 0)
			return true;
	return false;
}

bool
layout_has_extras_prefix(const char *name)
{
	return strncmp(name, EXTRAS_PREFIX, strlen(EXTRAS_PREFIX)) == 0;
}

static bool
has_suffix(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls > lx && strcmp(s + ls - lx, suffix) == 0;
}

static bool
is_icon_name(const char *base)
{
	int i;

	for (i = 0; icon_suffixes[i]; i++)
		if (has_suffix(base, icon_suffixes[i]))
			return true;
	return false;
}

static bool
in_list(const char *const *list, const char *s, size_t len)
{
	int i;

	for (i = 0; list[i]; i++)
		if (strlen(list[i]) == len && strncmp(list[i], s, len) == 0)
			return true;
	return false;
}

/*
 * Whether a non-directory PATH is an export, and whether its name moves
 * into the extras name space (RENAME).
 */
static bool
is_export(const struct extras_namespace *ns, const char *path, bool *rename)
{
	const char *base = strrchr(path, '/');
	const char *dir_end = base;
	char profile[PATH_MAX];

	base = base ? base + 1 : path;
	*rename = false;
	/* The app's own AppArmor profile, once dh_extras_apparmor made it. */
	if (profile_name(ns, profile, sizeof(profile)) == 0 &&
	    strncmp(path, "etc/apparmor.d/", 15) == 0 &&
	    strcmp(path + 15, profile) == 0)
		return true;
	if (path_is_under(path, "usr/share/doc") ||
	    path_is_under(path, "usr/share/lintian/overrides"))
		return true;
	if (dir_end == NULL)
		return false;
#define IN_DIR(d) ((size_t)(dir_end - path) == strlen(d) && \
                   strncmp(path, d, strlen(d)) == 0)
	if (IN_DIR("usr/share/dbus-1/services") && has_suffix(base, ".service"))
		return true;
	*rename = true;
	if (IN_DIR("usr/share/applications") && has_suffix(base, ".desktop"))
		return true;
	if ((IN_DIR("usr/share/metainfo") || IN_DIR("usr/share/appdata")) &&
	    has_suffix(base, ".xml"))
		return true;
	if (IN_DIR("usr/share/pixmaps") && is_icon_name(base))
		return true;
	if (path_is_under(path, "usr/share/icons") && is_icon_name(base))
		return true;
#undef IN_DIR
	*rename = false;
	return false;
}

/* usr/share/doc/NAME[/...] of a NAME no extras package has. */
static bool
is_foreign_doc(const char *path)
{
	const char *name;

	if (!path_is_under(path, "usr/share/doc"))
		return false;
	name = path + strlen("usr/share/doc/");
	return strncmp(name, EXTRAS_PREFIX, strlen(EXTRAS_PREFIX)) != 0;
}

int
layout_place(const struct extras_namespace *ns, const char *path,
             bool is_dir, struct layout_place *place)
{
	bool rename;
	int n;

	if (strcmp(path, ns->rel) == 0 || path_is_under(path, ns->rel)) {
		place->kind = LAYOUT_NAMESPACE;
		n = snprintf(place->dest, sizeof(place->dest), "%s", path);
	} else if (strncmp(ns->rel, path, strlen(path)) == 0 &&
	           ns->rel[strlen(path)] == '/') {
		place->kind = LAYOUT_ABOVE;
		n = snprintf(place->dest, sizeof(place->dest), "%s", path);
	} else if (is_foreign_doc(path)) {
		/* An install's own docdir ($(datadir)/doc/NAME) is the app's
		 * data: only usr/share/doc/extras-NAME is a package's own. */
		place->kind = LAYOUT_MOVE;
		n = snprintf(place->dest, sizeof(place->dest), "%s/%s",
		             ns->rel, path + 4);
	} else if (is_dir && (path_is_under(path, "usr/share/doc") ||
	                      strcmp(path, "usr/share/doc") == 0)) {
		place->kind = LAYOUT_EXPORT;
		n = snprintf(place->dest, sizeof(place->dest), "%s", path);
	} else if (!is_dir && is_export(ns, path, &rename)) {
		const char *base = strrchr(path, '/');

		place->kind = LAYOUT_EXPORT;
		if (rename && base && !layout_has_extras_prefix(base + 1))
			n = snprintf(place->dest, sizeof(place->dest), "%.*s%s%s",
			             (int)(base + 1 - path), path, EXTRAS_PREFIX,
			             base + 1);
		else
			n = snprintf(place->dest, sizeof(place->dest), "%s", path);
	} else {
		place->kind = LAYOUT_MOVE;
		if (strcmp(path, "usr") == 0)
			n = snprintf(place->dest, sizeof(place->dest), "%s",
			             ns->rel);
		else if (path_is_under(path, "usr"))
			n = snprintf(place->dest, sizeof(place->dest), "%s/%s",
			             ns->rel, path + 4);
		else
			n = snprintf(place->dest, sizeof(place->dest), "%s/%s",
			             ns->rel, path);
	}
	if (n < 0 || (size_t)n >= sizeof(place->dest))
		return -1;
	return 0;
}

int
layout_origins(const char *nsrest, char origin[2][PATH_MAX])
{
	const char *slash = strchr(nsrest, '/');
	size_t toplen = slash ? (size_t)(slash - nsrest) : strlen(nsrest);
	int count = 0;

	if (in_list(usr_subdirs, nsrest, toplen)) {
		snprintf(origin[count++], PATH_MAX, "usr/%s", nsrest);
		if (in_list(merged_usr_dirs, nsrest, toplen))
			snprintf(origin[count++], PATH_MAX, "%s", nsrest);
	} else {
		snprintf(origin[count++], PATH_MAX, "%s", nsrest);
	}
	return count;
}

/* Bytes that continue a name, or start a template's placeholder. */
static bool
continues_name(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' ||
	       c == '@' || c == '+' || c == '~' || c == '$' || c == '{' ||
	       c == '%' || c >= 0x80;
}

long
layout_find_shared_localedir(const unsigned char *buf, size_t len,
                             size_t from)
{
	const size_t n = sizeof(LAYOUT_SHARED_LOCALEDIR) - 1;
	const unsigned char *p;

	while (from < len && (p = memmem(buf + from, len - from,
	                                 LAYOUT_SHARED_LOCALEDIR, n)) != NULL) {
		size_t start = (size_t)(p - buf), end = start + n;
		unsigned char next = end < len ? buf[end] : 0;

		from = end;
		if (next == '/' && end + 1 < len)
			next = buf[end + 1];
		if (continues_name(next) ||
		    (start > 0 && continues_name(buf[start - 1])))
			continue;
		return (long)start;
	}
	return -1;
}
