/*
 * rules-rewrite.h: debian/rules reaches the namespace.
 *
 * The maintainer's build keeps the package names debian/control gives
 * (dh_extras_rename renames each package at its edge), so nothing here
 * renames: an autoconf package's own ./configure runs debhelper's, the
 * staged paths in the recipes of targets that run after the relocation
 * name where the relocation put the files, and a debian/rules without dh
 * gets the add-on's helpers (rules-classic.c).
 */
#ifndef DH_EXTRAS_RULES_REWRITE_H
#define DH_EXTRAS_RULES_REWRITE_H

#include <stdbool.h>
#include <stddef.h>

#include "convert/control-rewrite.h"
#include "base/error-at.h"
#include "convert/convert-plan.h"
#include "namespace/namespace.h"

/*
 * TEXT with, in the recipes of targets that run after dh_extras_relocate
 * ("override_dh_shlibdeps:", "execute_after_dh_fixperms:"), each staged
 * path of the source's packages (debian/PKG/usr/..., or a make variable
 * set to debian/PKG) written where the relocation puts it in NS
 * (debian/PKG/ROOT/APP/...); a note for each to PLAN when not NULL.
 * NULL with ERR filled when the package names make too large a pattern.
 */
char *rules_rewrite_late_paths(const char *file, const char *text,
                               size_t len, const struct control_info *info,
                               const struct extras_namespace *ns,
                               struct convert_plan *plan,
                               struct dpkg_error *err);

/*
 * TEXT with each recipe line that runs ./configure itself (an autoconf
 * package's) running "dh_auto_configure -- ARGS" instead, which the
 * namespace reaches; a note for each to PLAN when not NULL.  NULL with ERR
 * filled when the pattern cannot be compiled.
 */
char *rules_rewrite_configure(const char *file, const char *text, size_t len,
                              struct convert_plan *plan,
                              struct dpkg_error *err);

/*
 * Plan the rewrite of the tree's debian/rules; in the recipes of targets
 * that run after dh_extras_relocate, staged paths name the namespace of
 * ROOT (NULL: the default).  AUTOCONF: the source is an autoconf package
 * (else the tree says whether it is).
 */
int rules_rewrite(struct convert_plan *plan, const struct control_info *info,
                  const char *root, bool autoconf, struct dpkg_error *err);

/*
 * The dh commands dh's sequence runs after dh_extras_relocate (NULL
 * ends it): their overrides and hooks find the files in the namespace,
 * and a rules without dh gets the relocation before the first of them.
 */
extern const char *const rules_after_relocation[];

/* Whether the N bytes at S are one of the words of LIST (NULL ends it). */
bool rules_word_in(const char *s, size_t n, const char *const *list);

/* Whether debian/rules TEXT runs dh, whose sequence the add-on reaches. */
bool rules_runs_dh(const char *text, size_t len);

/*
 * TEXT of FILE (debian/rules) with the dh_extras helpers written into its
 * recipes when it runs the debhelper commands without dh, and the prefix
 * and system directories its recipes build with naming the namespace NS
 * (a new string, the same text when it runs dh), noted in PLAN.  NULL
 * with ERR set when the helpers cannot be placed (CDBS; none of the
 * commands they go next to).
 */
char *rules_add_helpers(const char *file, const char *text, size_t len,
                        const char *ns, struct convert_plan *plan,
                        struct dpkg_error *err);

#endif
