/*
 * datadir.h: where the templates and other data live.
 */
#ifndef DH_EXTRAS_DATADIR_H
#define DH_EXTRAS_DATADIR_H

/*
 * The data directory: $DH_EXTRAS_DATADIR when set and not empty (the
 * uninstalled tree, for tests), else the compiled-in PREFIX/share/dh-extras.
 * It holds templates/.
 */
const char *dh_extras_datadir(void);

#endif
