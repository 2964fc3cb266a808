/*
 * dh_extras_metainfo: give exported AppStream metainfo files the
 * component id and launchable of their export (run by dh after
 * dh_extras_relocate).
 */
#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "dh/dh-helper.h"
#include "base/file-rewrite.h"
#include "namespace/layout.h"
#include "relocate/metainfo.h"

#include "dh_extras_metainfo.usage.h"

#define NAME "dh_extras_metainfo"

static void
patch_dir(const struct dh_helper *h, const char *dir)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	char path[2048];
	struct metainfo mi;
	struct dirent *d;
	DIR *dp = opendir(dir);
	int rc;

	if (dp == NULL)
		return;
	while ((d = readdir(dp)) != NULL) {
		if (fnmatch("*.xml", d->d_name, 0) != 0 ||
		    !layout_has_extras_prefix(d->d_name) ||
		    metainfo_init(&mi, d->d_name) < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		rc = file_rewrite(path, metainfo_patch, &mi, h->no_act, &err);
		if (rc < 0)
			ohshit("%s", err.str);
		if (rc > 0)
			dh_helper_info(h, "%s: component %s", path, mi.id);
	}
	closedir(dp);
}

int
main(int argc, char **argv)
{
	struct dh_helper h;
	size_t i;

	dh_helper_init(&h, NAME, argc, argv, NULL, help_text);
	for (i = 0; i < h.control.count; i++) {
		char pkgdir[512], dir[1024];

		if (!h.act[i])
			continue;
		dh_helper_tmpdir(&h, h.control.packages[i].name, pkgdir,
		                 sizeof(pkgdir));
		snprintf(dir, sizeof(dir), "%s/usr/share/metainfo", pkgdir);
		patch_dir(&h, dir);
		snprintf(dir, sizeof(dir), "%s/usr/share/appdata", pkgdir);
		patch_dir(&h, dir);
	}
	dh_helper_done(&h);
	return 0;
}
