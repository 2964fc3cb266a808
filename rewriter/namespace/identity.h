/*
 * identity.h: who an upload is, decided once by the store.
 *
 * extras-conflicts accept decides an upload's app id, source name, version
 * and binary package names (as they are once renamed: extras-NAME) against
 * the registry, and writes them beside its report as one deb822 stanza:
 *
 *	App: foo
 *	Source: extras-foo
 *	Version: 1.0-1
 *	Uploader: alice
 *	Packages: extras-foo, extras-foo-data
 *
 * Every later step (extras-convert, extras-review, extras-conflicts claim)
 * is given that file and refuses a package whose names disagree with it.
 * It is the store's own file, but it is read as hostile input all the same:
 * one stanza, these five fields once each, every name valid.
 *
 * The export name space of an app: the names an exported file may have
 * after its "extras-" prefix that belong to APP alone: APP itself, and
 * APP followed by '-' or '.' and more ("foo", "foo-bar.desktop",
 * "foo.png").  Two app ids share a name when one is the other followed by
 * '-' or '.' and more ("foo" and "foo-bar").
 */
#ifndef DH_EXTRAS_IDENTITY_H
#define DH_EXTRAS_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <dpkg/error.h>

#define IDENTITY_FILE_MAX (256 * 1024)
#define IDENTITY_PACKAGES_MAX 1000

struct identity {
	char *app;		/* "foo" */
	char *source;		/* "extras-foo" */
	char *version;		/* "1.0-1" */
	char *uploader;		/* the registry's name for the signer */
	char **packages;	/* sorted, each once */
	size_t npackages;
};

/*
 * Parse TEXT (LEN bytes) read from FILE.  Returns 0, or -1 with
 * "FILE:LINE: what" in ERR and ID empty; either way ID is released with
 * identity_free().
 */
int identity_parse(struct identity *id, const char *file, const char *text,
                   size_t len, struct dpkg_error *err);

/* Read FILE (a regular file, not a symbolic link) and parse it. */
int identity_read(struct identity *id, const char *file,
                  struct dpkg_error *err);

/* Write ID as the stanza identity_parse() reads. */
void identity_write(FILE *fp, const struct identity *id);

/* Sort ID's packages and drop repeated ones. */
void identity_sort(struct identity *id);

/* Add NAME to ID's packages (unsorted until identity_sort()). */
void identity_add_package(struct identity *id, const char *name);

bool identity_has_package(const struct identity *id, const char *name);

/*
 * NULL when NAME is a binary package name as Debian policy has them
 * (libdpkg's rule, and only [a-z0-9+.-], starting with a letter or a
 * digit), else the reason.
 */
const char *identity_check_package(const char *name);

void identity_free(struct identity *id);

/* The name binary package NAME has once converted (malloc'd). */
char *identity_renamed(const char *name);

/* Whether NAME ("foo-bar.desktop", without "extras-") is in APP's space. */
bool identity_in_space(const char *app, const char *name);

/*
 * The app ids whose space holds NAME: each prefix of NAME ending before a
 * '-' or '.', and NAME itself, that is a valid app id.  Calls EACH for
 * every one, shortest first.
 */
void identity_space_owners(const char *name,
                           void (*each)(void *ctx, const char *app),
                           void *ctx);

#endif
