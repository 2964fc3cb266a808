/*
 * dh_extras_icons: keep an app's exported icons in its namespace under
 * the names its own code looks them up by (run by dh after
 * dh_extras_relocate).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "base/file-copy.h"
#include "namespace/declaration.h"
#include "namespace/namespace.h"
#include "dh/dh-helper.h"
#include "dh/dh-namespace.h"

#include "dh_extras_icons.usage.h"

#define NAME "dh_extras_icons"

/* Icon formats icon themes load. */
static const char *const icon_suffixes[] = {
	".png", ".svg", ".svgz", ".xpm", NULL,
};

static bool
is_icon(const char *name)
{
	size_t n = strlen(name), p = strlen(EXTRAS_PREFIX);
	int i;

	if (n <= p || strncmp(name, EXTRAS_PREFIX, p) != 0)
		return false;
	for (i = 0; icon_suffixes[i]; i++) {
		size_t x = strlen(icon_suffixes[i]);

		if (n > p + x && strcmp(name + n - x, icon_suffixes[i]) == 0)
			return true;
	}
	return false;
}

/* mkdir -p of the directory above PATH. */
static void
make_parents(char *path)
{
	char *slash;

	for (slash = strchr(path + 1, '/'); slash != NULL;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			ohshite("cannot create %s", path);
		*slash = '/';
	}
}

/*
 * Every exported extras-NAME icon below FROM (in the package tree) gets
 * a copy NAME in TO, the same place in the namespace, and nothing is
 * exported under a name the archive may use.  A copy, not a hard link:
 * dpkg makes a .deb's hard links with link(2), which fails where /opt
 * and /usr are different file systems.
 */
static size_t
link_icons(const struct dh_helper *h, const char *from, const char *to)
{
	char src[4096], dst[4096];
	struct dirent *d;
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct stat st;
	size_t n = 0;
	DIR *dp = opendir(from);

	if (dp == NULL)
		return 0;
	while ((d = readdir(dp)) != NULL) {
		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
			continue;
		if ((size_t)snprintf(src, sizeof(src), "%s/%s", from,
		                     d->d_name) >= sizeof(src))
			ohshit("%s/%s: path too long", from, d->d_name);
		if (lstat(src, &st) < 0)
			ohshite("cannot stat %s", src);
		if (S_ISDIR(st.st_mode)) {
			snprintf(dst, sizeof(dst), "%s/%s", to, d->d_name);
			n += link_icons(h, src, dst);
			continue;
		}
		if (!S_ISREG(st.st_mode) || !is_icon(d->d_name))
			continue;
		if ((size_t)snprintf(dst, sizeof(dst), "%s/%s", to,
		                     d->d_name + strlen(EXTRAS_PREFIX)) >=
		    sizeof(dst))
			ohshit("%s: path too long", to);
		if (lstat(dst, &st) == 0)
			continue;
		dh_helper_show(h, "cp %s %s", src, dst);
		n++;
		if (h->no_act)
			continue;
		make_parents(dst);
		if (file_copy(src, dst, st.st_mode & 0777, true, &err) < 0)
			ohshit("%s", err.str);
	}
	closedir(dp);
	return n;
}

/* PKGDIR's exported icons, kept in the namespace NS under their names. */
static int
keep_icons(const struct dh_helper *h, size_t index, const char *pkgdir,
           void *ns_)
{
	const struct extras_namespace *ns = ns_;
	char from[1024], to[1024];
	size_t n;

	(void)index;
	snprintf(from, sizeof(from), "%s/usr/share/icons", pkgdir);
	snprintf(to, sizeof(to), "%s/%s/share/icons", pkgdir, ns->rel);
	n = link_icons(h, from, to);
	snprintf(from, sizeof(from), "%s/usr/share/pixmaps", pkgdir);
	snprintf(to, sizeof(to), "%s/%s/share/pixmaps", pkgdir, ns->rel);
	n += link_icons(h, from, to);
	if (n > 0)
		dh_helper_info(h, "%s: %zu icon%s kept under %s/share by their "
		               "own names", pkgdir, n, n == 1 ? "" : "s",
		               ns->path);
	return 0;
}

int
main(int argc, char **argv)
{
	struct dh_helper h;
	struct declaration decl;
	struct extras_namespace ns;
	struct dpkg_error err = DPKG_ERROR_INIT;

	dh_helper_init(&h, NAME, argc, argv, NULL, help_text);
	if (dh_namespace_find(h.control.source, &decl, &ns, &err) < 0)
		ohshit("%s", err.str);
	dh_helper_each_package(&h, DH_EACH_ACTED_ON, keep_icons, &ns);
	declaration_free(&decl);
	dh_helper_done(&h);
	return 0;
}
