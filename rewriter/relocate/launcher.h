/*
 * launcher.h: the programs of a namespace started with the namespace's
 * data in sight.
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
 *
 * A script is not wrapped when its language can say the same in a line
 * of its own: the kernel would hand the interpreter the hidden name, so
 * $0, sys.argv[0] and $PROGRAM_NAME would name .PROG in usage messages
 * and to a multi-call script.  The shell, Python, Perl, Ruby and Node
 * get one line, the namespace's share first on XDG_DATA_DIRS unless it
 * is there already, where the language's own launcher lines go
 * (python-launcher.h, module-launcher.h): after the "#!" line (Perl's
 * followed by "#line 2"), past Python's comments, docstring and
 * __future__ imports, Ruby's magic comments, Node's "use strict".  Any
 * other interpreter, and a shell script that hands itself to another
 * (Perl's "eval 'exec perl -S $0'", Tcl's comment ending in a
 * backslash), which that interpreter reads whole, is wrapped.
 */
#ifndef DH_EXTRAS_LAUNCHER_H
#define DH_EXTRAS_LAUNCHER_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The second line of every launcher, and what ends the line of a script
 * after the language's comment sign ("# ", "// "), so that a second run
 * adds none.
 */
#define LAUNCHER_MARK "# dh_extras_launchers"
#define LAUNCHER_WORD "dh_extras_launchers"

enum launcher_language {
	LAUNCHER_NONE = -1,
	LAUNCHER_SHELL,
	LAUNCHER_PYTHON,
	LAUNCHER_PERL,
	LAUNCHER_RUBY,
	LAUNCHER_NODE,
	LAUNCHER_LANGUAGES
};

/* The language's name ("Perl"). */
const char *launcher_language_name(enum launcher_language lang);

/*
 * Whether the path S can stand in single quotes and in a case pattern,
 * and so in every line: absolute, no quote, backslash, "$", "`", glob
 * character, blank or control character.
 */
bool launcher_word_ok(const char *s);

/* Whether BUF (a file's first bytes at least) is such a launcher. */
bool launcher_is(const char *buf, size_t len);

/*
 * The language of the script BUF (its whole text) that takes the line:
 * its "#!" line names sh, bash, dash, ksh, mksh, zsh, posh, python,
 * perl, ruby, node or nodejs (with a version or not, directly or through
 * env), and no other interpreter reads it.  LAUNCHER_NONE otherwise.
 */
enum launcher_language launcher_language(const char *buf, size_t len);

/*
 * Whether BUF puts the namespace's share on XDG_DATA_DIRS itself: a
 * launcher, or a script with the line.
 */
bool launcher_sets_data(const char *buf, size_t len);

/*
 * The script BUF with the line of its language putting DATADIR (NS/share,
 * the void *) first on XDG_DATA_DIRS; NULL when BUF is no such script,
 * has the line already, or DATADIR cannot be written in it.
 */
char *launcher_line_patch(const char *buf, size_t len, size_t *outlen,
                          void *datadir);

/*
 * The launcher running PROGRAM (absolute, the hidden name) with DATADIR
 * (NS/share) first on XDG_DATA_DIRS: a new string, or NULL when either
 * cannot be written in a shell word (a quote, a backslash, a control
 * character, or not absolute).
 */
char *launcher_script(const char *program, const char *datadir);

#endif
