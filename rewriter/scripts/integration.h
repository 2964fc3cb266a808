/*
 * integration.h: the commands a maintainer script runs only to integrate
 * its package into the system, and what dropping each one costs.
 *
 * The knowledge is data, templates/scripts/integration.yaml (its header
 * says what each key means); this file reads it with libyaml and answers
 * two questions: is this command system integration, and what report
 * lines does dropping it give.
 */
#ifndef DH_EXTRAS_INTEGRATION_H
#define DH_EXTRAS_INTEGRATION_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include <dpkg/error.h>

#define INTEGRATION_FILE "scripts/integration.yaml"

struct integration_entry {
	char **commands;
	size_t ncommands;
	char *argument;		/* the first argument must be this, or NULL */
	char *option;		/* one report a time it is given, or NULL */
	char *loses;
	char *instead;
	char *link;		/* a .links line given instead, or NULL */
	char *rank;		/* its links' rank (a number), or NULL */
	char *name;		/* a name it registers, or NULL */
	int line;		/* in the data file */
};

struct integration {
	struct integration_entry *list;
	size_t n;
};

/*
 * Read PATH, or (NULL) the templates' INTEGRATION_FILE.  Returns 0, or -1
 * with "FILE:LINE: message" in ERR.
 */
int integration_load(struct integration *db, const char *path,
                     struct dpkg_error *err);
void integration_free(struct integration *db);

/*
 * Whether the command ARGV[0] (ARGC words, written out; NULL for a word
 * that expands something) only integrates the package into the system.
 */
bool integration_match(const struct integration *db, char *const *argv,
                       size_t argc);

/*
 * The report of dropping that command from PACKAGE's script: "LOSES:
 * INSTEAD" lines, each a new string, in *LINES (a new array).  Returns
 * their number.
 */
size_t integration_explain(const struct integration *db, char *const *argv,
                           size_t argc, const char *package, char ***lines);

/*
 * The .links lines ("SOURCE DESTINATION") that take the place of that
 * command, each a new string, in *LINKS (a new array); only from words
 * written out.  *RANK is their rank (update-alternatives' priority), or
 * INTEGRATION_NO_RANK.  Returns their number.
 */
#define INTEGRATION_NO_RANK LONG_MIN
size_t integration_links(const struct integration *db, char *const *argv,
                         size_t argc, char ***links, long *rank);

/*
 * The names that command registers for the package outside its namespace
 * (an alternative's, "awk"), each a new string and one path component,
 * in *NAMES (a new array); only from words written out.  Returns their
 * number.
 */
size_t integration_names(const struct integration *db, char *const *argv,
                         size_t argc, char ***names);

#endif
