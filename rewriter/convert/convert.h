/*
 * convert.h: convert an unpacked source tree into an extras source tree.
 *
 * Every step (control, changelog, debhelper files, rules, declaration)
 * reads the tree and plans its changes; only when all have accepted the
 * tree are the changes applied.  A second run on the result plans nothing.
 */
#ifndef DH_EXTRAS_CONVERT_H
#define DH_EXTRAS_CONVERT_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "base/error-at.h"
#include "convert/convert-plan.h"
#include "namespace/identity.h"

struct convert_options {
	const char *privileges;	/* "x11,network", or NULL */
	/* Names the app holds beyond its id's: D-Bus names, AppStream
	 * component ids ("org.example.Tool,org.example.Other"), or NULL. */
	const char *bus_names, *ids;
	const char *root;	/* namespace root, or NULL for the default */
	/* The upstream source, not in the tree, has a configure.ac. */
	bool autoconf;
	/* The store's decision (extras-conflicts accept), read from
	 * IDENTITY_FILE: a source whose app, name, version or packages
	 * disagree is refused before anything is written; or NULL. */
	const struct identity *identity;
	const char *identity_file;
};

struct convert_result {
	char *app;		/* "hello" */
	char *source;		/* "extras-hello" */
	char *version;		/* from debian/changelog */
	time_t timestamp;	/* of the changelog's first entry */
};

/* Convert the tree DIR in place; PLAN holds the notes afterwards. */
int convert_tree(const char *dir, const struct convert_options *opt,
                 struct convert_plan *plan, struct convert_result *res,
                 struct dpkg_error *err);

void convert_result_free(struct convert_result *res);

/* The JSON report: source, version, and one entry per note. */
void convert_report_json(FILE *fp, const struct convert_result *res,
                         const struct convert_plan *plan);

#endif
