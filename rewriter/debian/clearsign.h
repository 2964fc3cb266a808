/*
 * clearsign.h: the text an OpenPGP clear-signed message signs.
 *
 * Uploads (.changes, .dsc) are usually clear-signed.  This only unwraps
 * the text (RFC 4880, section 7: armor headers, dash-escaping); it does
 * not verify the signature, which is the upload queue's job.
 */
#ifndef DH_EXTRAS_CLEARSIGN_H
#define DH_EXTRAS_CLEARSIGN_H

#include <stddef.h>

/*
 * A malloc'd copy of the signed text of TEXT (LEN bytes), or of TEXT
 * itself when it is not signed; its length in *OUTLEN.  NULL when TEXT
 * starts a signed message that is malformed (no blank line after the
 * armor headers, or no signature after the text).
 */
char *clearsign_text(const char *text, size_t len, size_t *outlen);

#endif
