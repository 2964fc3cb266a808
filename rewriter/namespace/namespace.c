/*
 * namespace.c: the app id, the namespace root and the namespace.
 */
#include <stdio.h>
#include <string.h>

#include <dpkg/dpkg-db.h>

#include "namespace/namespace.h"

const char *
namespace_check_app(const char *app)
{
	size_t len = strlen(app);
	size_t i;

	if (len == 0)
		return "is empty";
	if (len < 2)
		return "is shorter than 2 characters";
	if (len > EXTRAS_APP_MAX)
		return "is longer than 64 characters";
	/* Debian's own rule first, then the stricter one paths need. */
	if (pkg_name_is_illegal(app) != NULL)
		return "is not a valid Debian package name";
	for (i = 0; i < len; i++) {
		char c = app[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '+' || c == '.'))
			return "may hold only a-z, 0-9, '-', '+' and '.'";
	}
	if (app[0] < 'a' || app[0] > 'z')
		if (app[0] < '0' || app[0] > '9')
			return "must start with a letter or a digit";
	if (strstr(app, "..") != NULL)
		return "contains '..'";
	if (strncmp(app, EXTRAS_PREFIX, strlen(EXTRAS_PREFIX)) == 0)
		return "must not itself start with 'extras-'";
	return NULL;
}

/* Top-level directories a namespace must never be put under. */
static const char *const forbidden_roots[] = {
	"/proc", "/sys", "/dev", "/run", "/tmp", "/var/tmp", "/home",
	"/root", "/boot", "/lost+found", "/media", "/mnt",
	/* Where a namespace would be the system's own configuration or
	 * commands (a package "cron.d" under /etc). */
	"/etc", "/bin", "/sbin", "/usr/bin", "/usr/sbin", "/var/lib/dpkg",
	NULL,
};

const char *
namespace_check_root(const char *root)
{
	size_t len = strlen(root);
	const char *p;
	int i;

	if (len == 0)
		return "is empty";
	if (len > EXTRAS_ROOT_MAX)
		return "is longer than 128 characters";
	if (root[0] != '/')
		return "is not an absolute path";
	if (len == 1)
		return "is the root directory";
	for (p = root; *p; p++) {
		char c = *p;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '/' || c == '-' ||
		      c == '_' || c == '.' || c == '+'))
			return "may hold only letters, digits, '/', '-', '_', "
			       "'.' and '+'";
	}
	if (root[len - 1] == '/')
		return "ends with '/'";
	for (p = root; (p = strchr(p, '/')) != NULL; p++) {
		/* Each component starts after this slash. */
		if (p[1] == '/')
			return "contains an empty component";
		if (p[1] == '.')
			return "has a component starting with '.'";
	}
	for (i = 0; forbidden_roots[i]; i++) {
		size_t n = strlen(forbidden_roots[i]);

		if (strncmp(root, forbidden_roots[i], n) == 0 &&
		    (root[n] == '\0' || root[n] == '/'))
			return "lies in a system directory that cannot hold apps";
	}
	return NULL;
}

const char *
namespace_init(struct extras_namespace *ns, const char *app,
               const char *root)
{
	const char *why;

	if (root == NULL)
		root = EXTRAS_DEFAULT_ROOT;
	why = namespace_check_app(app);
	if (why != NULL)
		return why;
	why = namespace_check_root(root);
	if (why != NULL)
		return why;
	/* NS may be refilled from its own fields. */
	if (app != ns->app)
		strcpy(ns->app, app);
	if (root != ns->root)
		strcpy(ns->root, root);
	snprintf(ns->path, sizeof(ns->path), "%s/%s", root, app);
	ns->rel = ns->path + 1;
	return NULL;
}

const char *
namespace_app_of_package(const char *package)
{
	size_t n = strlen(EXTRAS_PREFIX);

	if (strncmp(package, EXTRAS_PREFIX, n) == 0)
		return package + n;
	return package;
}

int
profile_name(const struct extras_namespace *ns, char *buf, size_t size)
{
	char *p;

	if ((size_t)snprintf(buf, size, "%s", ns->path + 1) >= size)
		return -1;
	for (p = buf; *p; p++)
		if (*p == '/')
			*p = '.';
	return 0;
}
