/*
 * dh_extras_unprefix: bring what an install put under the namespace
 * prefix back to usr/, etc/ and var/ (run by dh after dh_auto_install).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "namespace/declaration.h"
#include "dh/dh-helper.h"
#include "dh/dh-namespace.h"
#include "relocate/unprefix.h"

#include "dh_extras_unprefix.usage.h"

#define NAME "dh_extras_unprefix"

/* Unprefix DIR if it holds an install under the namespace. */
static void
unprefix(const struct dh_helper *h, const struct extras_namespace *ns,
         const char *dir)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct stat st;
	long moved;

	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return;
	dh_helper_show(h, "mv %s/%s/* %s/usr/ (etc and var to %s/)", dir,
	               ns->rel, dir, dir);
	moved = unprefix_tree(ns, dir, h->no_act, &err);
	if (moved < 0)
		ohshit("%s", err.str);
	if (moved > 0)
		dh_helper_info(h, "moved %ld entries from %s/%s back to %s/usr",
		               moved, dir, ns->rel, dir);
}

int
main(int argc, char **argv)
{
	struct dh_helper h;
	struct declaration decl;
	struct extras_namespace ns;
	struct dpkg_error err = DPKG_ERROR_INIT;
	const char *destdir = NULL;
	const struct dh_option options[] = {
		{ "--destdir", true, &destdir, NULL },
		{ NULL, false, NULL, NULL },
	};
	size_t i;

	dh_helper_init(&h, NAME, argc, argv, options, help_text);
	if (dh_namespace_find(h.control.source, &decl, &ns, &err) < 0)
		ohshit("%s", err.str);
	unprefix(&h, &ns, "debian/tmp");
	if (destdir)
		unprefix(&h, &ns, destdir);
	for (i = 0; i < h.control.count; i++) {
		char dir[512];

		if (!h.act[i])
			continue;
		dh_helper_tmpdir(&h, h.control.packages[i].name, dir, sizeof(dir));
		unprefix(&h, &ns, dir);
	}
	declaration_free(&decl);
	dh_helper_done(&h);
	return 0;
}
