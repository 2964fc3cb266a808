/*
 * dh-scripts.c: give every binary package the maintainer scripts dh-extras
 * generates, and only those (dh_extras_scripts).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/error.h>

#include "apparmor/profile.h"
#include "base/datadir.h"
#include "base/file-rewrite.h"
#include "dh/dh-scripts.h"
#include "namespace/identity.h"
#include "scripts/maintscript-generate.h"

#define PROFILE_DIR "etc/apparmor.d"

/*
 * PATH's contents in *TEXT, or NULL when there is no such file; 0, or -1
 * with ERR.
 */
static int
read_script(const char *path, char **text, size_t *len,
            struct dpkg_error *err)
{
	FILE *fp = fopen(path, "r");
	size_t size = 0;
	ssize_t n;

	*text = NULL;
	if (fp == NULL && errno == ENOENT)
		return 0;
	if (fp == NULL)
		return dpkg_put_error(err, "cannot open %s: %s", path,
		                      strerror(errno));
	n = getdelim(text, &size, '\0', fp);
	if (n < 0 && ferror(fp)) {
		dpkg_put_error(err, "cannot read %s: %s", path,
		               strerror(errno));
		fclose(fp);
		free(*text);
		*text = NULL;
		return -1;
	}
	fclose(fp);
	*len = n < 0 ? 0 : (size_t)n;
	if (*text == NULL)
		*text = m_strdup("");
	return 0;
}

/*
 * What the script dh_installdeb wrote held, for the author: its first
 * line that is neither the #! line, blank, "set -e" nor "exit 0".
 */
static void
describe(const char *text, char *buf, size_t size)
{
	const char *p = text;

	buf[0] = '\0';
	while (*p) {
		size_t n = strcspn(p, "\n"), b = strspn(p, " \t");

		if (b < n && strncmp(p + b, "#!", 2) != 0 &&
		    !(n - b == 6 && strncmp(p + b, "set -e", 6) == 0) &&
		    !(n - b == 6 && strncmp(p + b, "exit 0", 6) == 0)) {
			snprintf(buf, size, "%.*s", (int)(n - b > 72 ? 72 :
			         n - b), p + b);
			return;
		}
		p += n + (p[n] == '\n');
	}
}

/*
 * The script DIR/DEBIAN/NAME made TEXT (NULL: removed), replacing what it
 * held; 0, or -1 with ERR.
 */
static int
write_script(const struct dh_helper *h, const char *dir, const char *name,
             const char *text, struct dpkg_error *err)
{
	char path[1024], *had, what[80];
	size_t len = 0;

	snprintf(path, sizeof(path), "%s/DEBIAN/%s", dir, name);
	if (read_script(path, &had, &len, err) < 0)
		return -1;
	if (had != NULL && text != NULL && strlen(text) == len &&
	    memcmp(had, text, len) == 0) {
		free(had);
		return 0;
	}
	if (had != NULL) {
		describe(had, what, sizeof(what));
		dh_helper_info(h, "%s: replaced by the one dh-extras "
		               "generates%s%s%s", path, what[0] ?
		               " (it held `" : "", what, what[0] ?
		               "`)" : "");
	}
	free(had);
	if (text == NULL) {
		dh_helper_show(h, "rm -f %s", path);
		if (!h->no_act && unlink(path) < 0 && errno != ENOENT)
			return dpkg_put_error(err, "cannot remove %s: %s",
			                      path, strerror(errno));
		return 0;
	}
	dh_helper_show(h, "install -m0755 (generated) %s", path);
	if (h->no_act)
		return 0;
	snprintf(path, sizeof(path), "%s/DEBIAN", dir);
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return dpkg_put_error(err, "cannot create %s: %s", path,
		                      strerror(errno));
	snprintf(path, sizeof(path), "%s/DEBIAN/%s", dir, name);
	/* Mode 0755, as dh_installdeb. */
	return file_install(path, text, strlen(text), 0755, err);
}

static int
write_scripts(const struct dh_helper *h, const char *package, const char *dir,
              const char *profile, struct dpkg_error *err)
{
	struct maintscripts s;
	char templates[4096], ship[1024];
	struct stat st;
	char *renamed;
	int k, rc;

	snprintf(ship, sizeof(ship), "%s/" PROFILE_DIR "/%s", dir, profile);
	if (lstat(ship, &st) < 0 || !S_ISREG(st.st_mode))
		profile = NULL;
	snprintf(templates, sizeof(templates), "%s/templates",
	         dh_extras_datadir());
	/* The scripts are the .deb's, which has the extras name
	 * (dh_extras_rename gives it at the edge). */
	renamed = identity_renamed(package);
	rc = maintscripts_generate(&s, templates, renamed, profile, err);
	free(renamed);
	if (rc < 0)
		return -1;
	for (k = 0; rc == 0 && k < MAINTSCRIPT_KINDS; k++)
		rc = write_script(h, dir, maintscript_names[k], s.text[k],
		                  err);
	maintscripts_free(&s);
	return rc;
}

struct scripts {
	const char *profile;
	struct dpkg_error *err;
};

static int
scripts_package(const struct dh_helper *h, size_t index, const char *pkgdir,
                void *ctx)
{
	const struct scripts *s = ctx;
	struct stat st;

	if (stat(pkgdir, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	return write_scripts(h, h->control.packages[index].name, pkgdir,
	                     s->profile, s->err);
}

int
dh_scripts(const struct dh_helper *h, const struct extras_namespace *ns,
           struct dpkg_error *err)
{
	char profile[PROFILE_NAME_MAX + 1];
	struct scripts s = { profile, err };

	if (profile_name(ns, profile, sizeof(profile)) < 0)
		return dpkg_put_error(err, "namespace %s is too long for a "
		                      "profile name", ns->path);
	return dh_helper_each_package(h, DH_EACH_ACTED_ON, scripts_package,
	                              &s);
}
