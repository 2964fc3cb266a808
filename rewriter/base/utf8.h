/*
 * utf8.h: telling valid UTF-8 from other bytes, for JSON, which must be
 * UTF-8.
 */
#ifndef DH_EXTRAS_UTF8_H
#define DH_EXTRAS_UTF8_H

#include <stddef.h>

/* Length of the valid UTF-8 sequence at S (at most LEN bytes), or 0:
 * overlong forms, surrogates and values past U+10FFFF are not valid. */
size_t utf8_sequence_length(const unsigned char *s, size_t len);

/*
 * S (LEN bytes) as valid UTF-8, for json-c, which writes a string's
 * bytes as they are (base/json.c passes every string through it): each
 * byte not part of valid UTF-8 becomes the four characters \xNN, and so
 * does a NUL byte.  Malloc'd.
 */
char *utf8_clean(const char *s, size_t len);

#endif
