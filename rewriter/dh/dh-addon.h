/*
 * dh-addon.h: what the extras add-on does to dh's sequence and tells each
 * build system, as data (templates/addon/sequence and
 * templates/addon/buildsystems), which the Perl add-on reads too.
 */
#ifndef DH_EXTRAS_DH_ADDON_H
#define DH_EXTRAS_DH_ADDON_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error-at.h"

/*
 * A dh command with the helpers the add-on runs right before and right
 * after it, in dh's order: NAMES[AT] is the command.
 */
struct dh_addon_place {
	char **names;
	size_t nnames, at;
};

/* An option the add-on gives a command wherever it runs. */
struct dh_addon_option {
	char *command, *option;
};

enum dh_step {
	DH_STEP_CONFIGURE, DH_STEP_BUILD, DH_STEP_TEST, DH_STEP_INSTALL,
	DH_STEP_CLEAN, DH_STEPS,
};

/* Each list ends with NULL. */
struct dh_buildsystem {
	char *name;
	/* Files at the top of a source that make it this build system's. */
	char **detect;
	/* Patterns (fnmatch) of more files it sets paths in. */
	char **sources;
	/* What dh_auto_STEP adds: NAME=%NS% or NAME=%NS%/DIR. */
	char **params[DH_STEPS];
};

struct dh_addon {
	struct dh_addon_place *places;
	size_t nplaces;
	struct dh_addon_option *options;
	size_t noptions;
	/* The commands removed from dh's sequence. */
	char **removed;
	size_t nremoved;
	struct dh_buildsystem *buildsystems;
	size_t nbuildsystems;
};

/* What stands for the namespace in a build system's params. */
#define DH_ADDON_NS "%NS%"

/*
 * Read DIR/sequence and DIR/buildsystems into ADDON.  A malformed line
 * fails with "FILE:LINE: ..." in ERR.
 */
int dh_addon_load(struct dh_addon *addon, const char *dir,
                  struct dpkg_error *err);
void dh_addon_free(struct dh_addon *addon);

/*
 * The add-on's data from the data directory's templates/addon/, read on
 * the first call and kept; NULL with ERR set when it cannot be read.
 */
const struct dh_addon *dh_addon_data(struct dpkg_error *err);

/* The helpers around dh command COMMAND (N bytes), or NULL: none. */
const struct dh_addon_place *dh_addon_place(const struct dh_addon *addon,
                                            const char *command, size_t n);

/* The build system named NAME, or NULL: the add-on does not know it. */
const struct dh_buildsystem *dh_addon_buildsystem(const struct dh_addon *addon,
                                                  const char *name);

#endif
