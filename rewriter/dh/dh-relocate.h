/*
 * dh-relocate.h: the rewriter run over the staged trees of the packages a
 * dh_extras_* helper acts on, as dh_extras_relocate (before dh_link) and
 * dh_extras_links (after it) both run it.
 */
#ifndef DH_EXTRAS_DH_RELOCATE_H
#define DH_EXTRAS_DH_RELOCATE_H

#include "namespace/declaration.h"
#include "dh/dh-helper.h"
#include "namespace/namespace.h"

#define DH_RELOCATE_REPORT_DIR "debian/.debhelper/extras"

/*
 * Relocate debian/PKG/ of every package H acts on into NS, accepting the
 * references DECL lists under unpatched:, and write the report to
 * DH_RELOCATE_REPORT_DIR/REPORT.  AFTER_DH_LINK: the links dh_link made
 * replace what lies where they go (relocate_options' links_replace).
 * Returns the exit status: 0, or 1 when references remain unpatched
 * (listed on stderr); -1 with ERR on bad input or a failure.
 */
int dh_relocate(const struct dh_helper *h, const struct declaration *decl,
                struct extras_namespace *ns, const char *report_name,
                bool after_dh_link, struct dpkg_error *err);

#endif
