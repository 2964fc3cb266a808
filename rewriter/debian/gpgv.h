/*
 * gpgv.h: verify an upload's OpenPGP signature with gpgv(1).
 *
 * gpgv checks a clear-signed .changes or .dsc against one keyring and
 * nothing else (no trust database, no key fetching).  What it reports on
 * its status descriptor decides; on a good signature, the text is the one
 * gpgv wrote (--output): exactly what was signed, never what surrounds it.
 */
#ifndef DH_EXTRAS_GPGV_H
#define DH_EXTRAS_GPGV_H

#include <stddef.h>

#include <dpkg/error.h>

enum gpgv_status {
	GPGV_GOOD,
	GPGV_UNSIGNED,		/* no OpenPGP data at all */
	GPGV_NO_KEY,		/* signed by a key not in the keyring */
	GPGV_BAD,		/* a bad, expired or revoked signature */
};

struct gpgv_result {
	enum gpgv_status status;
	/* The signing key's primary fingerprint (upper-case hex). */
	char fingerprint[65];
	/* For GPGV_GOOD: the signed text (malloc'd, NUL-terminated). */
	char *text;
	size_t len;
	/* For the others: what gpgv said, in a few words. */
	char reason[256];
};

/*
 * Verify FILE against KEYRING.  Returns 0 with RES filled (whatever the
 * verdict), or -1 with ERR set when gpgv cannot be run or the keyring
 * cannot be read.
 */
int gpgv_verify(const char *file, const char *keyring, struct gpgv_result *res,
                struct dpkg_error *err);

void gpgv_result_destroy(struct gpgv_result *res);

#endif
