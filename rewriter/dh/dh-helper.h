/*
 * dh-helper.h: what every dh_extras_* helper shares with debhelper's own
 * helpers, so they behave alike inside dh:
 *
 *   - options: -p/--package, -N/--no-package, -a/--arch (-s), -i/--indep,
 *     --remaining-packages, -v/--verbose, --no-act, -O OPTION (passed on
 *     by dh; unknown ones ignored), -P/--tmpdir (the package build
 *     directory), -n/--no-scripts (no maintainer-script snippets),
 *     -X/--exclude (for the helpers where excluding files means
 *     something), --mainpackage accepted;
 *   - the environment: DH_VERBOSE, DH_QUIET, DH_NO_ACT, DH_OPTIONS
 *     (unknown options warned about and ignored) and DH_INTERNAL_OPTIONS
 *     (how dh narrows the packages of an override target);
 *   - package selection from debian/control, with architecture
 *     restrictions matched for the host and Build-Profiles evaluated;
 *   - messages "NAME: error: ..." and exit status 2 on bad usage or input;
 *   - maintainer-script snippets in debian/PKG.SCRIPT.debhelper.
 */
#ifndef DH_EXTRAS_DH_HELPER_H
#define DH_EXTRAS_DH_HELPER_H

#include <stdbool.h>
#include <stddef.h>

#include "dh/dh-packages.h"

/* An option of the helper itself. */
struct dh_option {
	const char *name;	/* "--root" */
	bool has_arg;
	const char **value;	/* set when has_arg */
	bool *flag;		/* set when not */
};

struct dh_helper {
	const char *name;
	bool verbose, quiet, no_act;
	bool no_scripts;	/* -n: maintainer scripts left alone */
	char *tmpdir;		/* -P, or NULL: debian/PKG */
	char **excluded;	/* -X items */
	size_t n_excluded;
	char *env_options;	/* DH_OPTIONS, split: values point into it */
	struct dh_control control;
	/* Parallel to control.packages: whether to act on each. */
	bool *act;
	size_t n_act;
};

/*
 * Parse the options and environment, read debian/control and select the
 * packages.  USAGE is printed for --help.  Exits with status 2 and one
 * line on anything wrong.
 */
void dh_helper_init(struct dh_helper *h, const char *name, int argc,
                    char **argv, const struct dh_option *options,
                    const char *usage);
void dh_helper_done(struct dh_helper *h);

/*
 * The build directory of PACKAGE, as debhelper's tmpdir(): the -P
 * directory when given and the helper acts on PACKAGE, else
 * debian/PACKAGE (a package only read, for what the source's packages
 * share, keeps its own); written to BUF.
 */
const char *dh_helper_tmpdir(const struct dh_helper *h, const char *package,
                             char *buf, size_t size);

/* Which packages dh_helper_each_package() visits. */
enum dh_each {
	DH_EACH_ACTED_ON,	/* those the helper acts on (-p, -a, ...) */
	DH_EACH_BUILT,		/* those built for the host and profiles */
	DH_EACH_LISTED,		/* every package of debian/control: what
				 * the packages of one source share */
};

/*
 * Called with each package (its INDEX in H's control.packages) and its
 * build directory PKGDIR, as dh_helper_tmpdir() names it; 0 to go on,
 * anything else to stop there.
 */
typedef int dh_package_fn(const struct dh_helper *h, size_t index,
                          const char *pkgdir, void *ctx);

/*
 * FN for each package WHICH selects, in debian/control's order: 0, or
 * what FN returned that stopped the walk.
 */
int dh_helper_each_package(const struct dh_helper *h, enum dh_each which,
                           dh_package_fn *fn, void *ctx);

/* Print a command the helper runs, as debhelper does under -v. */
void dh_helper_show(const struct dh_helper *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Print an informational line unless DH_QUIET is set. */
void dh_helper_info(const struct dh_helper *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
