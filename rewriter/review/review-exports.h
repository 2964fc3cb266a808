/*
 * review-exports.h: the exports judged by what they make the desktop do
 * (rule "export").  review-works.c reads each exported .desktop, D-Bus
 * service and metainfo file once, and hands each key and element that
 * reaches outside the app to these checks.
 */
#ifndef DH_EXTRAS_REVIEW_EXPORTS_H
#define DH_EXTRAS_REVIEW_EXPORTS_H

#include <stdbool.h>
#include <stddef.h>

#include "review/desktop-entry.h"
#include "review/review.h"

struct review_exports {
	struct review *r;
	const struct review_links *links;
	/* templates/exports/url-handlers: MIME types, lower case. */
	char **handlers;
	size_t nhandlers;
	/* templates/exports/desktop-names: name prefixes, ending in '.'. */
	char **desktop_names;
	size_t ndesktop_names;
	/* The component ids the upload's metainfo files are named after,
	 * sorted; made at the first id that needs them. */
	char **components;
	size_t ncomponents;
	bool components_made;
	/* Bare program names of the namespace (for a hint), or NULL. */
	const char *(*shipped)(const void *ctx, const char *name);
	const void *shipped_ctx;
};

/* Load the lists from the templates; -1 with one line in ERR. */
int review_exports_init(struct review_exports *x, struct review *r,
                        const struct review_links *links,
                        struct dpkg_error *err);
void review_exports_free(struct review_exports *x);

/*
 * The whole file M of package I, before its lines: a NUL byte, which
 * GLib reads as the end of its line, is refused.  False when so.
 */
bool review_exports_text(struct review_exports *x, size_t i,
                         const struct debfile_member *m);

/*
 * An Exec= line L of member PATH of package I (DBUS: a D-Bus service).
 * Returns the program it runs (a new string) when it is a canonical path
 * in the namespace, for review-works to find; NULL when a problem was
 * recorded.
 */
char *review_exports_exec(struct review_exports *x, size_t i,
                          const char *path, const struct desktop_line *l,
                          bool dbus);

/* Every other key of an exported .desktop file (Icon=, MimeType=). */
void review_exports_desktop_key(struct review_exports *x, size_t i,
                                const char *path,
                                const struct desktop_line *l);

/* Every other key of a D-Bus service file (Name=, SystemdService=...). */
void review_exports_dbus_key(struct review_exports *x, size_t i,
                             const char *path, const struct desktop_line *l);

/*
 * A component id of metainfo file PATH of package I at LINE: WHAT is
 * "id" (the component's own), "replaces" or "provides".
 */
void review_exports_metainfo_id(struct review_exports *x, size_t i,
                                const char *path, int line,
                                const char *what, const char *id);

/* An icon path or name (Icon=, a metainfo local icon); false when a
 * problem was recorded. */
bool review_exports_icon(struct review_exports *x, size_t i,
                         const char *path, int line, const char *what,
                         const char *icon);

#endif
