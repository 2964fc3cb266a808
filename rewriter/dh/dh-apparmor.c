/*
 * dh-apparmor.c: confine the app: generate its AppArmor profile, compile
 * it and install it (dh_extras_apparmor).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <dpkg/dpkg.h>
#include <dpkg/error.h>

#include "apparmor/apparmor-install.h"
#include "apparmor/profile.h"
#include "base/datadir.h"
#include "base/file-rewrite.h"
#include "base/strings.h"
#include "dh/dh-apparmor.h"
#include "dh/dh-setid.h"
#include "dh/dh-substvar.h"
#include "scripts/maintscript-generate.h"

#define WORK_DIR "debian/.debhelper/extras"
#define PROFILE_DIR "etc/apparmor.d"

static int
make_dir(const char *path, struct dpkg_error *err)
{
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return dpkg_put_error(err, "cannot create %s: %s", path,
		                      strerror(errno));
	return 0;
}

/* The executables found so far, and the first package shipping one. */
struct executables {
	const struct extras_namespace *ns;
	char ***list;
	size_t *n;
	int owner;
	struct dpkg_error *err;
};

static int
add_executables(const struct dh_helper *h, size_t index, const char *pkgdir,
                void *ctx)
{
	struct executables *e = ctx;
	size_t before = *e->n;

	(void)h;
	if (apparmor_executables(pkgdir, e->ns, e->list, e->n, e->err) < 0)
		return -1;
	if (e->owner < 0 && *e->n > before)
		e->owner = (int)index;
	return 0;
}

/*
 * The executables every package of the source installs in the namespace,
 * and in *OWNER the package that ships the profile: the first in
 * debian/control order with an executable there, or -1.  0, or -1 with
 * ERR.
 */
static int
find_executables(const struct dh_helper *h, const struct extras_namespace *ns,
                 char ***list, size_t *n, int *owner, struct dpkg_error *err)
{
	struct executables e = { ns, list, n, -1, err };

	if (dh_helper_each_package(h, DH_EACH_BUILT, add_executables, &e) < 0)
		return -1;
	*owner = e.owner;
	return 0;
}

/* The profile, generated from the declaration; NULL with ERR on a refusal. */
static char *
generate(const struct extras_namespace *ns, const struct declaration *decl,
         char **exes, size_t n_exes, size_t *len, struct dpkg_error *err)
{
	struct profile_request req = { 0 };
	char *text;

	req.ns = ns;
	req.declaration = decl;
	req.executables = (const char *const *)exes;
	req.n_executables = n_exes;
	/* Who may hold a reserved privilege is the store's decision, made
	 * when it converts and reviews the package; a build grants what
	 * the declaration says. */
	req.allow_reserved = true;
	if (profile_generate(&req, &text, len, err) < 0)
		return NULL;
	return text;
}

static int
compile(const struct dh_helper *h, const char *name, const char *text,
        size_t len, struct dpkg_error *err)
{
	char work[512], features[4096];

	snprintf(work, sizeof(work), WORK_DIR "/%s", name);
	snprintf(features, sizeof(features), "%s/templates/" APPARMOR_FEATURES,
	         dh_extras_datadir());
	dh_helper_show(h, "apparmor_parser -QK -M %s %s", features, work);
	if (h->no_act)
		return 0;
	if (make_dir("debian/.debhelper", err) < 0 ||
	    make_dir(WORK_DIR, err) < 0 ||
	    file_install(work, text, len, 0644, err) < 0)
		return -1;
	return apparmor_validate_cached(work, features, APPARMOR_STAMPS, err);
}

static int
install(const struct dh_helper *h, const char *package, const char *name,
        const char *text, size_t len, struct dpkg_error *err)
{
	char pkgdir[512], dir[1024], path[1536];

	dh_helper_tmpdir(h, package, pkgdir, sizeof(pkgdir));
	snprintf(dir, sizeof(dir), "%s/" PROFILE_DIR, pkgdir);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	dh_helper_show(h, "install -p -m0644 " WORK_DIR "/%s %s", name, path);
	if (h->no_act)
		return 0;
	snprintf(path, sizeof(path), "%s/etc", pkgdir);
	if (make_dir(path, err) < 0 || make_dir(dir, err) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return file_install(path, text, len, 0644, err);
}

/*
 * The relation the scripts that load and unload the profile need (their
 * templates' Depends), in ${misc:Depends}; dh_extras_scripts writes the
 * scripts themselves.
 */
static int
add_depends(const struct dh_helper *h, const char *package, const char *name,
            struct dpkg_error *err)
{
	struct maintscripts s;
	char templates[4096];
	int rc = 0;

	snprintf(templates, sizeof(templates), "%s/templates",
	         dh_extras_datadir());
	if (maintscripts_generate(&s, templates, package, name, err) < 0)
		return -1;
	if (s.depends != NULL)
		rc = dh_helper_addsubstvar(h, package, "misc:Depends",
		                           s.depends, err);
	maintscripts_free(&s);
	return rc;
}

/* Compile and install the profile NAME in the package at INDEX. */
static int
ship(const struct dh_helper *h, const struct declaration *decl, size_t index,
     const char *name, size_t n_exes, const char *text, size_t len,
     struct dpkg_error *err)
{
	const char *package = h->control.packages[index].name;

	dh_helper_info(h, "profile %s in %s: %zu executable%s, %zu "
	               "privilege%s declared", name, package, n_exes,
	               n_exes == 1 ? "" : "s", decl->n_privileges,
	               decl->n_privileges == 1 ? "" : "s");
	if (compile(h, name, text, len, err) < 0 ||
	    install(h, package, name, text, len, err) < 0 ||
	    add_depends(h, package, name, err) < 0)
		return -1;
	return 0;
}

int
dh_apparmor(const struct dh_helper *h, const struct declaration *decl,
            const struct extras_namespace *ns, struct dpkg_error *err)
{
	char name[PROFILE_NAME_MAX + 1], **exes = NULL, *text;
	size_t n_exes = 0, n_setid, len;
	int owner, rc = 0;

	if (profile_name(ns, name, sizeof(name)) < 0)
		return dpkg_put_error(err, "namespace %s is too long for a "
		                      "profile name", ns->path);
	/* After dh_fixperms, so that an override setting them again is
	 * caught: the profile is all the privilege the app gets. */
	if (dh_strip_setid(h, &n_setid, err) < 0)
		return -1;
	if (find_executables(h, ns, &exes, &n_exes, &owner, err) < 0) {
		strings_free(exes, n_exes);
		return -1;
	}
	/* Generated even when nothing is installed, so that a declaration
	 * the profile cannot be made from fails every build. */
	text = generate(ns, decl, exes, n_exes, &len, err);
	if (text == NULL)
		rc = -1;
	else if (owner < 0)
		dh_helper_info(h, "no package installs an executable in %s: "
		               "no profile", ns->path);
	else if (h->act[owner])
		rc = ship(h, decl, (size_t)owner, name, n_exes, text, len,
		          err);
	free(text);
	strings_free(exes, n_exes);
	return rc;
}
