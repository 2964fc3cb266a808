/*
 * dh_extras_apparmor: confine the app: generate its AppArmor profile from
 * debian/extras.yaml, compile it and install it (run by dh after
 * dh_extras_relocate, before dh_installdeb); dh_extras_scripts gives the
 * package the scripts that load it on install.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <dpkg/dpkg.h>
#include <dpkg/atomic-file.h>
#include <dpkg/ehandle.h>

#include "apparmor/apparmor-install.h"
#include "base/datadir.h"
#include "base/strings.h"
#include "namespace/declaration.h"
#include "dh/dh-helper.h"
#include "dh/dh-namespace.h"
#include "dh/dh-setid.h"
#include "dh/dh-substvar.h"
#include "apparmor/profile.h"
#include "scripts/maintscript-generate.h"

#include "dh_extras_apparmor.usage.h"

#define NAME "dh_extras_apparmor"
#define WORK_DIR "debian/.debhelper/extras"
#define PROFILE_DIR "etc/apparmor.d"

static void
make_dir(const char *path)
{
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		ohshite("cannot create %s", path);
}

/* Replace PATH atomically with TEXT, mode 0644. */
static void
write_file(const char *path, const char *text, size_t len)
{
	struct atomic_file *file = atomic_file_new(path, ATOMIC_FILE_NORMAL);

	atomic_file_open(file);
	if (fchmod(fileno(file->fp), 0644) < 0)
		ohshite("cannot set the mode of %s", file->name_new);
	if (fwrite(text, 1, len, file->fp) != len)
		ohshite("cannot write %s", file->name_new);
	/* A staged build file: atomic, not synced (as debhelper). */
	atomic_file_close(file);
	atomic_file_commit(file);
	atomic_file_free(file);
}

/* The executables found so far, and the first package shipping one. */
struct executables {
	const struct extras_namespace *ns;
	char ***list;
	size_t *n;
	int owner;
};

static int
add_executables(const struct dh_helper *h, size_t index, const char *pkgdir,
                void *ctx)
{
	struct executables *e = ctx;
	struct dpkg_error err = DPKG_ERROR_INIT;
	size_t before = *e->n;

	(void)h;
	if (apparmor_executables(pkgdir, e->ns, e->list, e->n, &err) < 0)
		ohshit("%s", err.str);
	if (e->owner < 0 && *e->n > before)
		e->owner = (int)index;
	return 0;
}

/*
 * The executables every package of the source installs in the namespace,
 * and the package that ships the profile: the first in debian/control
 * order with an executable there, or -1.
 */
static int
find_executables(const struct dh_helper *h, const struct extras_namespace *ns,
                 char ***list, size_t *n)
{
	struct executables e = { ns, list, n, -1 };

	dh_helper_each_package(h, DH_EACH_BUILT, add_executables, &e);
	return e.owner;
}

/* The profile, generated from the declaration; exits on a refusal. */
static char *
generate(const struct extras_namespace *ns, const struct declaration *decl,
         char **exes, size_t n_exes, size_t *len)
{
	struct profile_request req = { 0 };
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *text;

	req.ns = ns;
	req.declaration = decl;
	req.executables = (const char *const *)exes;
	req.n_executables = n_exes;
	/* Who may hold a reserved privilege is the store's decision, made
	 * when it converts and reviews the package; a build grants what
	 * the declaration says. */
	req.allow_reserved = true;
	if (profile_generate(&req, &text, len, &err) < 0)
		ohshit("%s", err.str);
	return text;
}

static void
compile(const struct dh_helper *h, const char *name, const char *text,
        size_t len)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	char work[512], features[4096];

	snprintf(work, sizeof(work), WORK_DIR "/%s", name);
	snprintf(features, sizeof(features), "%s/templates/" APPARMOR_FEATURES,
	         dh_extras_datadir());
	dh_helper_show(h, "apparmor_parser -QK -M %s %s", features, work);
	if (h->no_act)
		return;
	make_dir("debian/.debhelper");
	make_dir(WORK_DIR);
	write_file(work, text, len);
	if (apparmor_validate_cached(work, features, APPARMOR_STAMPS, &err) < 0)
		ohshit("%s", err.str);
}

static void
install(const struct dh_helper *h, const char *package, const char *name,
        const char *text, size_t len)
{
	char pkgdir[512], dir[1024], path[1536];

	dh_helper_tmpdir(h, package, pkgdir, sizeof(pkgdir));
	snprintf(dir, sizeof(dir), "%s/" PROFILE_DIR, pkgdir);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	dh_helper_show(h, "install -p -m0644 " WORK_DIR "/%s %s", name, path);
	if (h->no_act)
		return;
	snprintf(path, sizeof(path), "%s/etc", pkgdir);
	make_dir(path);
	make_dir(dir);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	write_file(path, text, len);
}

/*
 * The relation the scripts that load and unload the profile need (their
 * templates' Depends), in ${misc:Depends}; dh_extras_scripts writes the
 * scripts themselves.
 */
static void
add_depends(const struct dh_helper *h, const char *package, const char *name)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct maintscripts s;
	char templates[4096];

	snprintf(templates, sizeof(templates), "%s/templates",
	         dh_extras_datadir());
	if (maintscripts_generate(&s, templates, package, name, &err) < 0)
		ohshit("%s", err.str);
	if (s.depends != NULL &&
	    dh_helper_addsubstvar(h, package, "misc:Depends", s.depends,
	                          &err) < 0)
		ohshit("%s", err.str);
	maintscripts_free(&s);
}

int
main(int argc, char **argv)
{
	struct dh_helper h;
	struct declaration decl;
	struct extras_namespace ns;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char name[PROFILE_NAME_MAX + 1], **exes = NULL, *text;
	const char *package;
	size_t n_exes = 0, n_setid, len;
	int owner;

	dh_helper_init(&h, NAME, argc, argv, NULL, help_text);
	if (dh_namespace_find(h.control.source, &decl, &ns, &err) < 0)
		ohshit("%s", err.str);
	if (profile_name(&ns, name, sizeof(name)) < 0)
		ohshit("namespace %s is too long for a profile name", ns.path);
	/* After dh_fixperms, so that an override setting them again is
	 * caught: the profile is all the privilege the app gets. */
	if (dh_strip_setid(&h, &n_setid, &err) < 0)
		ohshit("%s", err.str);
	owner = find_executables(&h, &ns, &exes, &n_exes);
	/* Generated even when nothing is installed, so that a declaration
	 * the profile cannot be made from fails every build. */
	text = generate(&ns, &decl, exes, n_exes, &len);
	if (owner < 0) {
		dh_helper_info(&h, "no package installs an executable in %s: "
		               "no profile", ns.path);
	} else if (h.act[owner]) {
		package = h.control.packages[owner].name;
		dh_helper_info(&h, "profile %s in %s: %zu executable%s, %zu "
		               "privilege%s declared", name, package, n_exes,
		               n_exes == 1 ? "" : "s", decl.n_privileges,
		               decl.n_privileges == 1 ? "" : "s");
		compile(&h, name, text, len);
		install(&h, package, name, text, len);
		add_depends(&h, package, name);
	}
	free(text);
	strings_free(exes, n_exes);
	declaration_free(&decl);
	dh_helper_done(&h);
	return 0;
}
