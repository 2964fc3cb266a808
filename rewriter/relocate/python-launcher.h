/*
 * python-launcher.h: make a Python program of a namespace find the
 * modules the namespace ships.
 *
 * setuptools and pybuild install modules into usr/lib/python3/
 * dist-packages, which relocation moves to NS/lib/python3/dist-packages,
 * out of Python's sight.  Rather than asking users for PYTHONPATH (which
 * every child process would inherit), each launcher of the namespace gets
 * one line that puts the namespace's module directories on its own
 * sys.path, right after the script's directory, and its temporary files
 * where its profile lets it write them.  (The namespace's share first on
 * XDG_DATA_DIRS, which every program needs, not only Python's, is
 * dh_extras_launchers' line: launcher.h.)
 */
#ifndef DH_EXTRAS_PYTHON_LAUNCHER_H
#define DH_EXTRAS_PYTHON_LAUNCHER_H

#include <stdbool.h>
#include <stddef.h>

/* The marker ending the inserted line, so that a second run adds none. */
#define PYTHON_LAUNCHER_MARK "# dh_extras_python"

struct python_launcher {
	const char *const *dirs;	/* absolute module directories */
	size_t n_dirs;
	/* The app id: TMPDIR becomes ~/.cache/APP/tmp, the temporary
	 * directory its profile allows (Python's tempfile would otherwise
	 * try /tmp, which it does not); or NULL. */
	const char *app;
};

/* Whether BUF starts with a "#!" line naming a Python interpreter. */
bool python_launcher_is(const char *buf, size_t len);

/*
 * Where a statement may first go in BUF: after the "#!" line, comments,
 * the module's docstring and any "from __future__" import.
 */
size_t python_launcher_insertion_point(const char *buf, size_t len);

/*
 * BUF with the sys.path line inserted where a statement may first go.  NULL when BUF is no Python launcher or has
 * the line already.
 */
char *python_launcher_patch(const char *buf, size_t len, size_t *outlen,
                            void *python_launcher);

#endif
