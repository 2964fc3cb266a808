/*
 * datadir.c: where the templates and other data live.
 */
#include <stdlib.h>

#include "base/datadir.h"

const char *
dh_extras_datadir(void)
{
	const char *dir = getenv("DH_EXTRAS_DATADIR");

	if (dir != NULL && dir[0] != '\0')
		return dir;
	return DH_EXTRAS_DATADIR;
}
