/*
 * metainfo.h: an exported AppStream metainfo file named as its export.
 *
 * Relocation exports usr/share/metainfo/ID.metainfo.xml as
 * extras-ID.metainfo.xml and the .desktop file it launches as
 * extras-NAME.desktop; AppStream wants the component's <id> to match the
 * file's name and its <launchable type="desktop-id"> to name the exported
 * .desktop file, or software centres show a broken or clashing entry.
 */
#ifndef DH_EXTRAS_METAINFO_H
#define DH_EXTRAS_METAINFO_H

#include <stddef.h>

struct metainfo {
	char id[256];		/* the component id the file name gives */
	size_t n_changes;	/* filled by metainfo_patch */
};

/*
 * Fill MI from the exported file's BASENAME ("extras-ID.metainfo.xml",
 * "extras-ID.appdata.xml"); returns -1 when it names no component.
 */
int metainfo_init(struct metainfo *mi, const char *basename);

/*
 * BUF with the component's <id> (the first) set to MI's, and every
 * desktop-id launchable and every former id of its own under <provides>
 * or <replaces> given the extras- prefix; NULL when nothing changes.
 */
char *metainfo_patch(const char *buf, size_t len, size_t *outlen,
                     void *metainfo);

#endif
