/*
 * command.h: what extras-profile prints: the privileges there are, an
 * app's AppArmor profile from its declaration, or one of the maintainer
 * scripts of the package that ships it.
 *
 * Each writes to standard output and returns 0, PROFILE_FAILED with ERR
 * for bad input or a failure, or PROFILE_USAGE with ERR for a wrong call.
 */
#ifndef DH_EXTRAS_PROFILE_COMMAND_H
#define DH_EXTRAS_PROFILE_COMMAND_H

#include <stddef.h>

#include <dpkg/error.h>

#define PROFILE_FAILED (-1)
#define PROFILE_USAGE (-2)

struct profile_command {
	/* The options, as given (NULL: not given). */
	const char *app, *root, *script, *package;
	/* Flags, as libdpkg's option parser sets them. */
	int allow_reserved;
	/* --executable, each time given. */
	const char **executables;
	size_t n_executables;
	/* --grant, each time given: the reserved privileges granted. */
	const char **granted;
	size_t n_granted;
};

/* The privilege catalogue, a line each: name, class, what it grants. */
int profile_list_command(struct dpkg_error *err);

/*
 * The profile of the app DECLARATION (debian/extras.yaml) declares, or
 * with C's script and package options that maintainer script of the
 * package.
 */
int profile_print_command(const struct profile_command *c,
                          const char *declaration, struct dpkg_error *err);

#endif
