/*
 * utf8.c: telling valid UTF-8 from other bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <dpkg/dpkg.h>

#include "base/utf8.h"

size_t
utf8_sequence_length(const unsigned char *s, size_t len)
{
	size_t n, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

char *
utf8_clean(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	char *out = m_malloc(len * 4 + 1), *o = out;
	size_t i = 0, n;

	while (i < len) {
		n = s[i] == '\0' ? 0 : utf8_sequence_length(s + i, len - i);
		if (n == 0) {
			o += sprintf(o, "\\x%02x", s[i]);
			i++;
			continue;
		}
		memcpy(o, s + i, n);
		o += n;
		i += n;
	}
	*o = '\0';
	return out;
}
