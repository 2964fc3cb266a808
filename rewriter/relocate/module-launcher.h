/*
 * module-launcher.h: make a Perl, Ruby or Node program of a namespace
 * find the modules the namespace ships.
 *
 * Debian installs a package's Perl modules into /usr/share/perl5 (and
 * /usr/lib/TRIPLET/perl5/VERSION), Ruby's into /usr/lib/ruby/vendor_ruby,
 * Node's into /usr/share/nodejs; relocation moves them under NS/, out of
 * the interpreter's sight.  Each program of the namespace gets one line
 * that puts the namespace's directories first on its own search path:
 *
 *   Perl   BEGIN { unshift @INC, 'NS/lib/TRIPLET/perl5/V', 'NS/share/perl5' }
 *          then "#line 2", so that Perl's messages keep their line numbers;
 *   Ruby   $LOAD_PATH.unshift('NS/lib/ruby/vendor_ruby'), after the first
 *          comments (Ruby's magic "coding:" comments must stay first);
 *   Node   module.paths.unshift('NS/share/nodejs'), after the first
 *          comments and a "use strict" directive (CommonJS programs only:
 *          an ES module has no "module").
 *
 * Why a line in the program rather than PERL5LIB, RUBYLIB or NODE_PATH in
 * a wrapper: a variable is inherited by every process the program starts
 * (another Perl program of the system would load the app's modules
 * first), and Perl ignores PERL5LIB under -T; why not "-I" on the "#!"
 * line: the kernel passes everything after the interpreter as one
 * argument, truncates the line past 255 bytes, and a program run as
 * "perl PROGRAM" would still need Perl to re-read it.  The line is the
 * program's own, whoever starts it and however.
 */
#ifndef DH_EXTRAS_MODULE_LAUNCHER_H
#define DH_EXTRAS_MODULE_LAUNCHER_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The marker ending the inserted line, after the language's comment sign
 * ("# " or "// "), so that a second run adds none.
 */
#define MODULE_LAUNCHER_MARK "dh_extras_modules"

enum module_language {
	MODULE_NONE = -1,
	MODULE_PERL,
	MODULE_RUBY,
	MODULE_NODE,
	MODULE_LANGUAGES
};

struct module_launcher {
	/* Per language: absolute module directories, in search order. */
	const char *const *dirs[MODULE_LANGUAGES];
	size_t n_dirs[MODULE_LANGUAGES];
};

/* The language's name ("Perl"). */
const char *module_language_name(enum module_language lang);

/*
 * The language whose interpreter BUF's "#!" line names ("/usr/bin/perl
 * -w", "/usr/bin/env ruby", "/usr/bin/nodejs"), else MODULE_NONE.
 */
enum module_language module_launcher_language(const char *buf, size_t len);

/*
 * Whether DIR can be written in the inserted line: absolute, and no
 * quote, backslash or control character.
 */
bool module_launcher_dir_ok(const char *dir);

/*
 * Where a line of LANG goes in BUF: after the "#!" line, and for Ruby
 * and Node after the first comments and a "use strict" directive.
 */
size_t module_launcher_insertion_point(enum module_language lang,
                                       const char *buf, size_t len);

/*
 * BUF with the line of its language inserted (see above).  NULL when BUF
 * is no program of a known language, its language has no directories,
 * it has the line already, or (Node) it is an ES module.
 */
char *module_launcher_patch(const char *buf, size_t len, size_t *outlen,
                            void *module_launcher);

#endif
