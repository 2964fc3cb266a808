/*
 * clearsign.h: the text an OpenPGP clear-signed message signs.
 *
 * Uploads (.changes, .dsc) are usually clear-signed.  This only unwraps
 * the text (RFC 4880, section 7: armor headers, dash-escaping); it does
 * not verify the signature, which is the upload queue's job (gpgv).  What
 * is unwrapped is exactly what the signature covers, read as dpkg reads it
 * (Dpkg::Control::HashCore): the armor lines are matched whole (trailing
 * spaces, tabs and a CR aside), a line of the text that starts with '-'
 * must be dash-escaped, and nothing but blank lines may follow the
 * signature, so that no unsigned stanza rides along with a signed one.
 */
#ifndef DH_EXTRAS_CLEARSIGN_H
#define DH_EXTRAS_CLEARSIGN_H

#include <stddef.h>

/*
 * A malloc'd copy of the signed text of TEXT (LEN bytes), or of TEXT
 * itself when it is not signed; its length in *OUTLEN.  NULL when TEXT is
 * a malformed signed message, or unsigned text holding an armor line,
 * with the reason in *WHY and its line (from 1) in *LINE.
 */
char *clearsign_text(const char *text, size_t len, size_t *outlen,
                     const char **why, size_t *line);

#endif
