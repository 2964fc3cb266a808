/*
 * rules-rewrite.h: debian/rules follows the renamed packages.
 *
 * "debian/NAME/" (the staging directory), "debian/NAME.SUFFIX" of a
 * renamed debhelper file, and "-pNAME", "--package=NAME", "-NNAME",
 * "--no-package=NAME" options become extras-NAME (pcre2).  A reference
 * built from a make variable ("debian/$(PKG)/") cannot be judged and is
 * noted for the author to check.
 */
#ifndef DH_EXTRAS_RULES_REWRITE_H
#define DH_EXTRAS_RULES_REWRITE_H

#include <stdbool.h>
#include <stddef.h>

#include "convert/control-rewrite.h"
#include "base/error-at.h"
#include "convert/convert-plan.h"

/* The rewritten TEXT (malloc'ed); notes go to PLAN when not NULL. */
char *rules_rewrite_text(const char *file, const char *text, size_t len,
                         const struct control_info *info,
                         struct convert_plan *plan);

/*
 * TEXT with each recipe line that runs ./configure itself (an autoconf
 * package's) running "dh_auto_configure -- ARGS" instead, which the
 * namespace reaches; a note for each to PLAN when not NULL.
 */
/*
 * TEXT of FILE (a debhelper file that lists paths, such as
 * debian/PKG.install) with its references to debian/NAME/ and
 * debian/NAME.SUFFIX of the source's packages renamed as debian/rules's
 * are: a new string; each renaming noted in PLAN (if not NULL).
 */
char *rules_rewrite_references(const char *file, const char *text,
                               size_t len, const struct control_info *info,
                               struct convert_plan *plan);

char *rules_rewrite_configure(const char *file, const char *text, size_t len,
                              struct convert_plan *plan);

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
