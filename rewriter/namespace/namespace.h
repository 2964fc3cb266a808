/*
 * namespace.h: the app id, the namespace root and the namespace.
 *
 * The root defaults to /opt/extras.ubuntu.com and is named here only; the
 * namespace of an app is ROOT/APP.  Every string that becomes a path, a
 * package name or an AppArmor rule is checked here first, against strict
 * patterns, so that nothing hostile reaches a file name or a profile.
 */
#ifndef DH_EXTRAS_NAMESPACE_H
#define DH_EXTRAS_NAMESPACE_H

#include <stdbool.h>
#include <stddef.h>

#define EXTRAS_DEFAULT_ROOT "/opt/extras.ubuntu.com"
#define EXTRAS_PREFIX "extras-"
#define EXTRAS_APP_MAX 64
#define EXTRAS_ROOT_MAX 128

struct extras_namespace {
	char app[EXTRAS_APP_MAX + 1];
	char root[EXTRAS_ROOT_MAX + 1];
	/* ROOT/APP, absolute ("/opt/extras.ubuntu.com/foo"). */
	char path[EXTRAS_ROOT_MAX + EXTRAS_APP_MAX + 2];
	/* The same without the leading slash, as in a staged tree. */
	const char *rel;
};

/*
 * Each check returns NULL when the value is acceptable, else a short
 * reason ("contains a comma") for the caller to put in its error line.
 */
const char *namespace_check_app(const char *app);
const char *namespace_check_root(const char *root);

/*
 * Fill NS from APP and ROOT (NULL: the default root); returns the reason
 * either is refused, or NULL.
 */
const char *namespace_init(struct extras_namespace *ns, const char *app,
                           const char *root);

/*
 * The name of the namespace's AppArmor profile, which is also the name of
 * its file under /etc/apparmor.d and of its local/ include: the namespace
 * path without its leading slash, slashes turned into dots, as dh_apparmor
 * names profiles ("opt.extras.ubuntu.com.hello").  Returns -1 if SIZE is
 * short.  Here, beside the namespace it is made from, since the layout
 * (the profile is an export) and the gate need it as much as the profile.
 */
#define PROFILE_NAME_MAX (EXTRAS_ROOT_MAX + EXTRAS_APP_MAX + 2)
int profile_name(const struct extras_namespace *ns, char *buf, size_t size);

/* The app id of a source or binary package name: without "extras-". */
const char *namespace_app_of_package(const char *package);

#endif
