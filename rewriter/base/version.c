/*
 * version.c: what every command answers to --version and --help.
 */
#include <stdio.h>
#include <stdlib.h>

#include <dpkg/dpkg.h>
#include <dpkg/progname.h>

#include "base/version.h"

void
version_print(void)
{
	printf("%s %s\n", dpkg_get_progname(), DH_EXTRAS_VERSION);
}

void
version_action(const struct cmdinfo *ci, const char *value)
{
	(void)ci;
	(void)value;
	version_print();
	exit(0);
}

void
help_action(const struct cmdinfo *ci, const char *value)
{
	(void)value;
	fputs(ci->arg_ptr, stdout);
	exit(0);
}
