/*
 * profile.h: the AppArmor profile of an app, from its declaration.
 *
 * The profile is templates/apparmor/profile.apparmor with the rules of
 * each declared privilege (templates/apparmor/privileges/NAME.apparmor)
 * put in.  Nothing from the declaration or the caller reaches the text
 * without passing profile_check_word: no newline, comma, brace, quote,
 * '#', '@', glob character, white space or '..' can open a rule of its
 * own.  The same input gives the same bytes: privileges and executables
 * are sorted.
 */
#ifndef DH_EXTRAS_PROFILE_H
#define DH_EXTRAS_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include <dpkg/error.h>

#include "namespace/declaration.h"
#include "namespace/namespace.h"

#define PROFILE_WORD_MAX 256

struct profile_request {
	const struct extras_namespace *ns;
	/* The privileges come from here; NULL declares none. */
	const struct declaration *declaration;
	/* Absolute paths of the executables the package installs, each in
	 * the namespace; listed in the profile, which is attached to the
	 * whole namespace anyway.  May be NULL when n_executables is 0. */
	const char *const *executables;
	size_t n_executables;
	/* Accept privileges of class "reserved": all, or those named in
	 * granted (the store's grant to this app). */
	bool allow_reserved;
	const char *const *granted;
	size_t n_granted;
	/* The templates directory; NULL: dh_extras_datadir()/templates. */
	const char *templates;
};

/*
 * Generate the profile into a new NUL-terminated string *TEXT of *LEN
 * bytes.  Returns 0, or -1 with one line in ERR: "FILE:LINE: message"
 * when a declared privilege is refused, "FILE: message" otherwise.
 */
int profile_generate(const struct profile_request *r, char **text,
                     size_t *len, struct dpkg_error *err);

/*
 * 0 when NAME is a privilege of class "reserved" in TEMPLATES (NULL: the
 * default), one a store may grant an app; else -1 with ERR saying that
 * it is unknown or common.
 */
int profile_check_grant(const char *templates, const char *name,
                        struct dpkg_error *err);

/* NULL when S may stand in a profile rule, else the reason. */
const char *profile_check_word(const char *s);

/* NULL when PATH is an acceptable executable of namespace NS. */
const char *profile_check_executable(const struct extras_namespace *ns,
                                     const char *path);

/* One entry of the privilege catalogue. */
struct profile_privilege {
	char *name;
	bool reserved;
	/* What it grants, one line. */
	char *grants;
};

/*
 * The catalogue in TEMPLATES (NULL: the default), sorted by name.
 * Returns 0, or -1 with a message in ERR.
 */
int profile_privileges(const char *templates,
                       struct profile_privilege **list, size_t *n,
                       struct dpkg_error *err);
void profile_privileges_free(struct profile_privilege *list, size_t n);

/*
 * The name in LIST (N entries) nearest to NAME, for the message refusing
 * a mistyped privilege ("netwrok": "network"); NULL when none is near
 * enough to be what was meant.
 */
const char *profile_privilege_nearest(const struct profile_privilege *list,
                                      size_t n, const char *name);

#endif
