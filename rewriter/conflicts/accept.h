/*
 * accept.h: the store's front door: who may upload what.
 *
 * An upload (.changes, or a source-only .dsc) is accepted when, in turn:
 *
 * - gpgv finds a good signature by a key of the store's keyring, and only
 *   the text gpgv says was signed is read from then on;
 * - the key's fingerprint is registered to an uploader;
 * - the app id (the source without "extras-") is that uploader's, or
 *   nobody's yet (first come, first served);
 * - the version is newer than the last accepted for that app (dpkg's
 *   comparison), so an old signed upload cannot be replayed;
 * - each binary package of a .changes belongs to that app and clashes
 *   with nothing (conflicts_check()), an ordinary archive package's name
 *   included: the store upgrades none;
 * - each binary package a source-only upload names (a .dsc's Binary and
 *   Package-List, which must agree; a .changes listing no binary
 *   package, its Binary), renamed as extras-convert will rename it, is
 *   claimed by no other app and is no archive package;
 * - the app id is no archive package, and shares no export names with
 *   another owner's app (identity.h).
 *
 * Then the claim (app, packages, exported paths; a source-only upload
 * claims its packages' names beside those it holds) and the version are
 * recorded in one transaction, which checks ownership and version again:
 * of two uploads racing, one is refused.  Each reason for a refusal is
 * listed, not only the first.  What was decided is the upload's identity
 * (identity.h), handed to every later step.
 */
#ifndef DH_EXTRAS_ACCEPT_H
#define DH_EXTRAS_ACCEPT_H

#include <stdbool.h>
#include <stddef.h>

#include <dpkg/error.h>

#include "conflicts/conflicts.h"
#include "conflicts/registry.h"
#include "namespace/identity.h"

struct accept_report {
	const char *file;
	/* From the signed text (NULL when it was not verified). */
	char *source, *version, *app;
	/* The signing key's fingerprint and its uploader, when known. */
	char fingerprint[65];
	char *uploader;
	bool signature_ok;
	bool accepted;
	char **reasons;
	size_t nreasons;
	/* The binary packages checked, and their clashes. */
	char **packages;
	size_t npackages;
	struct conflict_list conflicts;
	/* Filled once the upload is read: what an accepted upload is. */
	struct identity identity;
};

/*
 * Judge FILE against KEYRING and R (ROOT as for conflicts_check());
 * REPORT says what was found.  Returns 0, or -1 with ERR set on bad input
 * (an unreadable or malformed upload, a missing keyring, a checksum
 * mismatch); REPORT is then to be destroyed all the same.
 */
int accept_upload(struct registry *r, const char *file, const char *keyring,
                  const char *root, struct accept_report *report,
                  struct dpkg_error *err);

void accept_report_destroy(struct accept_report *report);

#endif
