/*
 * maintscript-generate.h: the maintainer scripts of an extras package.
 *
 * An extras package runs no maintainer script but these, generated from
 * templates/snippets/ and what the package declares: the package that
 * ships the app's AppArmor profile loads it in its postinst and unloads
 * it in its postrm; every other script of every package is absent.
 * dh_extras_scripts writes them into the package at build time, and the
 * review gate generates them again and compares byte for byte, so that
 * nothing of the author's reaches a script run as root.
 */
#ifndef DH_EXTRAS_MAINTSCRIPT_GENERATE_H
#define DH_EXTRAS_MAINTSCRIPT_GENERATE_H

#include <stddef.h>

#include <dpkg/error.h>

/* The scripts dpkg runs, in the order it knows them. */
enum maintscript_kind {
	MAINTSCRIPT_PREINST,
	MAINTSCRIPT_POSTINST,
	MAINTSCRIPT_PRERM,
	MAINTSCRIPT_POSTRM,
	MAINTSCRIPT_CONFIG,	/* debconf's, run before preinst by apt */
	MAINTSCRIPT_KINDS,
};

/* "preinst" ... "config". */
extern const char *const maintscript_names[MAINTSCRIPT_KINDS];

/* What a package's maintainer scripts are. */
struct maintscripts {
	/* Each script's text, or NULL where the package has none. */
	char *text[MAINTSCRIPT_KINDS];
	/* The relation the scripts need in Depends (the profile's
	 * "apparmor (>= 3.0)"), or NULL. */
	char *depends;
};

/*
 * Generate into S the scripts of binary package PACKAGE from the
 * templates in TEMPLATES (the directory holding snippets/): PROFILE is the
 * name of the AppArmor profile the package ships (a checked profile name),
 * NULL when it ships none.  Returns 0, or -1 with one line in ERR (a bad
 * package name, a template missing or broken) and S empty.
 */
int maintscripts_generate(struct maintscripts *s, const char *templates,
                          const char *package, const char *profile,
                          struct dpkg_error *err);

void maintscripts_free(struct maintscripts *s);

#endif
