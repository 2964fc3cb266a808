/*
 * version.h: what every command answers to --version.
 */
#ifndef DH_EXTRAS_VERSION_H
#define DH_EXTRAS_VERSION_H

#include <dpkg/options.h>

/* "PROGNAME VERSION" on standard output, as dpkg's commands print it. */
void version_print(void);

/* The --version action for dpkg_options_parse(): print, exit 0. */
void version_action(const struct cmdinfo *ci, const char *value);

#endif
