/*
 * gsettings-exec.h: launch an app's programs with its compiled GSettings
 * schemas in sight.
 *
 * GLib looks for schemas in XDG_DATA_DIRS and GSETTINGS_SCHEMA_DIR only,
 * never under a program's own prefix, and a namespace's schemas may not
 * join the system's.  So the exported entry points (.desktop and D-Bus
 * service files) run a program of the namespace through
 * "/usr/bin/env GSETTINGS_SCHEMA_DIR=NS/share/glib-2.0/schemas", unless
 * the program puts NS/share on XDG_DATA_DIRS itself (a launcher of
 * dh_extras_launchers or dh_extras_python).
 */
#ifndef DH_EXTRAS_GSETTINGS_EXEC_H
#define DH_EXTRAS_GSETTINGS_EXEC_H

#include <stdbool.h>
#include <stddef.h>

struct gsettings_exec {
	const char *ns_path;	/* "/opt/extras.ubuntu.com/foo" */
	const char *schema_dir;	/* NS_PATH "/share/glib-2.0/schemas" */
	/* Whether the program at PATH (absolute, as installed) sets
	 * XDG_DATA_DIRS itself; NULL: none does. */
	bool (*sees_data)(const char *path, void *ctx);
	void *ctx;
};

/*
 * BUF (a .desktop or D-Bus .service file) with every Exec= line that runs
 * a program under NS_PATH that does not see its data by itself prefixed
 * by the env command; NULL when no line changes (none runs such a
 * program, or all are prefixed already).
 */
char *gsettings_exec_patch(const char *buf, size_t len, size_t *outlen,
                           void *gsettings_exec);

#endif
