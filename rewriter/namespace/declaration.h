/*
 * declaration.h: debian/extras.yaml, what an app declares about itself.
 *
 * The declaration names the app, optionally the namespace root, the
 * privileges the app asks for, files left unpatched, and the D-Bus names
 * (bus-names:) and AppStream ids (ids:) it holds beyond those its app id
 * gives.  It is hostile input: the loader refuses
 * anything it does not understand (unknown or duplicate keys, wrong types,
 * aliases, anchors, tags, directives, several documents, non-UTF-8, NUL
 * bytes, overlong values) with one line "FILE:LINE: message".  An absent
 * file is an empty declaration: no app, the default root, no privileges.
 *
 * Adding a key means one row in the key table of declaration.c and one
 * field here; every command that loads a declaration then refuses or
 * accepts it alike.
 */
#ifndef DH_EXTRAS_DECLARATION_H
#define DH_EXTRAS_DECLARATION_H

#include <stdbool.h>
#include <stddef.h>

#include <dpkg/error.h>

/* Limits, so that a hostile file cannot make us allocate without bound. */
/* The declaration as a binary package carries it: DEBIAN/extras.yaml. */
#define DECLARATION_CONTROL_MEMBER "extras.yaml"
#define DECLARATION_FILE_MAX 65536
#define DECLARATION_VALUE_MAX 256
#define DECLARATION_PRIVILEGE_MAX 32
#define DECLARATION_PRIVILEGES_MAX 64

/* A declared string and the line (from 1) it was declared on. */
struct declaration_value {
	char *value;
	unsigned long line;
};

struct declaration {
	/* The file as named by the caller, for messages. */
	char *path;
	/* Whether the file exists; when not, everything below is empty. */
	bool present;
	/* app: the app id; value NULL when not declared. */
	struct declaration_value app;
	/* root: the namespace root; value NULL when not declared. */
	struct declaration_value root;
	/* privileges: as declared, in order; names are checked against
	 * [a-z0-9][a-z0-9-]*, not against the catalogue (see profile.h). */
	struct declaration_value *privileges;
	size_t n_privileges;
	/* unpatched: files (absolute, as installed; a trailing '/' for a
	 * directory and everything below it) whose references to moved
	 * paths the author accepts unpatched: reported, but not failing the
	 * build; "FILE STRING" accepts only the reference STRING in FILE
	 * (a fallback the program tries after a path it finds first). */
	struct declaration_value *unpatched;
	size_t n_unpatched;
	/* bus-names: D-Bus names the app's exported services own, beyond
	 * those its app id gives (see review-exports.c); the store's
	 * registry holds each with the path of the service file named
	 * after it, first come, first served. */
	struct declaration_value *bus_names;
	size_t n_bus_names;
	/* ids: AppStream component ids of the app's metainfo, the same. */
	struct declaration_value *ids;
	size_t n_ids;
};

/*
 * Load the declaration at PATH into D.  Returns 0, or -1 with a one-line
 * message "PATH:LINE: what is wrong" (or "PATH: ...") in ERR and D empty.
 * Either way, D is released with declaration_free.  PATH must not be a
 * symbolic link (it could make us read, and quote in errors, any file).
 */
int declaration_load(struct declaration *d, const char *path,
                     struct dpkg_error *err);

/* The same from a buffer; NAME is used in messages. */
int declaration_load_buffer(struct declaration *d, const char *name,
                            const char *buf, size_t len,
                            struct dpkg_error *err);

void declaration_free(struct declaration *d);

/* Whether the declaration lists privilege NAME. */
bool declaration_has_privilege(const struct declaration *d,
                               const char *name);

/* NULL when PATH may be listed under unpatched:, else the reason. */
const char *declaration_check_unpatched_path(const char *path);

/* NULL when NAME is a well-formed D-Bus well-known name, else the
 * reason (the D-Bus specification's rules). */
const char *declaration_check_bus_name(const char *name);

/* NULL when ID is a well-formed AppStream component id, else the reason. */
const char *declaration_check_component_id(const char *id);

/* NULL when NAME is a well-formed privilege name, else the reason. */
const char *declaration_check_privilege_name(const char *name);

#endif
