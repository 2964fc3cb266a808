/*
 * apparmor-install.h: what dh_extras_apparmor does with a generated
 * profile: find the executables it covers in the staged trees, compile it
 * with apparmor_parser against pinned kernel features, and the
 * maintainer-script snippets (templates/snippets/SCRIPT-apparmor) that
 * load it and clean up after it.
 */
#ifndef DH_EXTRAS_APPARMOR_INSTALL_H
#define DH_EXTRAS_APPARMOR_INSTALL_H

#include <stdbool.h>
#include <stddef.h>

#include <dpkg/error.h>

#include "namespace/namespace.h"

/* The pinned kernel features, below the templates directory. */
#define APPARMOR_FEATURES "apparmor/apparmor-features"

/*
 * Append to *LIST (*N entries, each a new string) the absolute paths of
 * the executables the staged tree DIR (debian/PKG) installs in namespace
 * NS: regular files with an execute bit below DIR/NS, in bytewise order.
 * A path already in *LIST is not added again: two binary packages of one
 * source may ship the same program (flavours that conflict with each
 * other), and the profile names it once.  A tree without the namespace
 * adds nothing.  Returns 0, or -1 with one line in ERR naming the file.
 * The list is released with strings_free (base/strings.h).
 */
int apparmor_executables(const char *dir, const struct extras_namespace *ns,
                         char ***list, size_t *n, struct dpkg_error *err);

/*
 * apparmor_parser as found in $PATH, else in /usr/sbin or /sbin (not in
 * a user's $PATH); NULL when AppArmor's parser is not installed.
 */
const char *apparmor_parser(void);

/*
 * Compile the profile in the file PROFILE with "apparmor_parser -QK -M
 * FEATURES": against the build machine's abstractions, for the pinned
 * kernel features rather than the running kernel's, loading nothing and
 * caching nothing.  Returns 0, or -1 with one line in ERR: the parser's
 * message, its lines joined.
 */
int apparmor_validate(const char *profile, const char *features,
                      struct dpkg_error *err);

/*
 * apparmor_validate, remembered in the directory STAMPS (NULL: always
 * compile): a profile whose text, features and parser compiled before is
 * not compiled again, so that a debhelper step run again costs little.
 * A stamp only saves time at build; the store's extras-review compiles
 * every profile it reviews.
 */
int apparmor_validate_cached(const char *profile, const char *features,
                             const char *stamps, struct dpkg_error *err);

/*
 * Whether the profile TEXT (LEN bytes) compiled against FEATURES before,
 * by a stamp apparmor_validate_cached left in STAMPS: a caller holding
 * the text in memory need not write it to a file to find out.
 */
bool apparmor_validated_before(const char *text, size_t len,
                               const char *features, const char *stamps);

/* Where the dh_extras_* helpers keep their stamps. */
#define APPARMOR_STAMPS "debian/.debhelper/extras/apparmor-compiled"

/* A maintainer-script snippet for one profile. */
struct apparmor_snippet {
	char *script;	/* "postinst" */
	char *text;	/* the snippet, placeholders filled in */
	char *depends;	/* the relation it needs, or NULL */
};

/*
 * Load TEMPLATES/SCRIPT-apparmor for the profile NAME (already checked by
 * profile_check_word).  Returns 0, or -1 with one line in ERR.
 */
int apparmor_snippet_load(struct apparmor_snippet *s, const char *templates,
                          const char *script, const char *name,
                          struct dpkg_error *err);
void apparmor_snippet_free(struct apparmor_snippet *s);

#endif
