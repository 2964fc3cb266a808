/*
 * snippet-template.h: maintainer-script snippets kept as templates, and
 * snippets of other tools a helper takes over.
 */
#ifndef DH_EXTRAS_SNIPPET_TEMPLATE_H
#define DH_EXTRAS_SNIPPET_TEMPLATE_H

#include <stddef.h>

#include <dpkg/error.h>

#include "base/template.h"

/*
 * The body of the template TEMPLATES/NAME, whose header must say
 * "Snippet: SCRIPT", with its placeholders filled from SUBST; a new
 * string, or NULL with "PATH: message" in ERR.  extras-review knows the
 * same templates, so what a helper adds this way passes the gate.
 */
char *snippet_template_expand(const char *templates, const char *name,
                              const char *script,
                              const struct template_subst *subst, size_t n,
                              struct dpkg_error *err);

/*
 * BUF (a debian/PKG.SCRIPT.debhelper file) without the blocks that
 * "# Automatically added by TOOL" opens (with or without "/VERSION");
 * NULL when it has none.  A file_transform_fn; TOOL is the argument.
 */
char *snippet_drop_tool(const char *buf, size_t len, size_t *outlen,
                        void *tool);

#endif
