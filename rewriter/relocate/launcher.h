/*
 * launcher.h: a compiled program of a namespace started with the
 * namespace's data in sight.
 *
 * GLib, GTK and Qt find GSettings schemas, icons, help and other data
 * only under $XDG_DATA_DIRS (and GSETTINGS_SCHEMA_DIR), never under a
 * program's own prefix; a namespace's data may not join the system's.  A
 * Python launcher puts NS/share first on XDG_DATA_DIRS itself
 * (python-launcher.h); a compiled program cannot, so NS/bin/PROG becomes
 * a small script that does it and runs the program, kept in the same
 * directory as NS/bin/.PROG so that paths relative to it still hold,
 * under the name it was started by ("exec -a", which is why bash, an
 * Essential shell: GTK takes the window's class from it, a multi-call
 * program its command).  Whoever starts it, the menu, D-Bus or a
 * terminal, gets the same environment; AppArmor confines both, the
 * profile attaching to the whole namespace.
 */
#ifndef DH_EXTRAS_LAUNCHER_H
#define DH_EXTRAS_LAUNCHER_H

#include <stdbool.h>
#include <stddef.h>

/* The second line of every launcher, so that a second run adds none. */
#define LAUNCHER_MARK "# dh_extras_launchers"

/* Whether BUF (a file's first bytes at least) is such a launcher. */
bool launcher_is(const char *buf, size_t len);

/*
 * The launcher running PROGRAM (absolute, the hidden name) with DATADIR
 * (NS/share) first on XDG_DATA_DIRS: a new string, or NULL when either
 * cannot be written in a shell word (a quote, a backslash, a control
 * character, or not absolute).
 */
char *launcher_script(const char *program, const char *datadir);

#endif
