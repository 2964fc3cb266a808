/*
 * version.h: what every command answers to --version and --help.
 */
#ifndef DH_EXTRAS_VERSION_H
#define DH_EXTRAS_VERSION_H

#include <dpkg/options.h>

/* "PROGNAME VERSION" on standard output, as dpkg's commands print it. */
void version_print(void);

/* The --version action for dpkg_options_parse(): print, exit 0. */
void version_action(const struct cmdinfo *ci, const char *value);

/* The --help action: the command's help text, its cmdinfo's arg_ptr, on
 * standard output; exit 0. */
void help_action(const struct cmdinfo *ci, const char *value);

#endif
