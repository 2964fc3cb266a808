/*
 * patch-text.c: patch references in text files.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "relocate/patch.h"

struct outbuf {
	unsigned char *data;
	size_t len, alloc;
	bool oom;
};

static void
out_append(struct outbuf *o, const void *p, size_t n)
{
	/* Nothing to add: o->data may still be NULL, memcpy must not see it. */
	if (o->oom || n == 0)
		return;
	if (o->len + n > o->alloc) {
		size_t a = o->alloc ? o->alloc : 4096;
		void *v;

		while (a < o->len + n)
			a *= 2;
		v = realloc(o->data, a);
		if (v == NULL) {
			o->oom = true;
			return;
		}
		o->data = v;
		o->alloc = a;
	}
	memcpy(o->data + o->len, p, n);
	o->len += n;
}

static bool
has_suffix(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

/*
 * One line of a .desktop file: Exec= and TryExec= naming a program of the
 * package by its bare name get its namespace path (PATH does not reach
 * the namespace); Icon= naming a renamed icon gets its new name.  Appends
 * the line, changed or not, to O.
 */
static void
desktop_line(const struct patch_context *ctx, const char *file,
             const unsigned char *line, size_t len, long lineno,
             struct outbuf *o, struct report *report)
{
	const char *s = (const char *)line;
	size_t keylen = 0, vstart, vend;
	const char *new = NULL;
	const char *kind = NULL;

	if (len > 5 && memcmp(s, "Exec=", 5) == 0)
		keylen = 5, kind = "desktop-exec";
	else if (len > 8 && memcmp(s, "TryExec=", 8) == 0)
		keylen = 8, kind = "desktop-exec";
	else if (len > 5 && memcmp(s, "Icon=", 5) == 0)
		keylen = 5, kind = "desktop-icon";
	else if (len > 5 && memcmp(s, "Icon[", 5) == 0) {
		const char *eq = memchr(s, '=', len);

		if (eq != NULL && eq > s && eq[-1] == ']')
			keylen = (size_t)(eq - s) + 1, kind = "desktop-icon";
	}
	if (kind == NULL) {
		out_append(o, line, len);
		return;
	}
	vstart = keylen;
	while (vstart < len && s[vstart] == ' ')
		vstart++;
	if (strcmp(kind, "desktop-exec") == 0) {
		if (vstart < len && s[vstart] == '"') {
			const char *q = memchr(s + vstart + 1, '"',
			                       len - vstart - 1);

			vstart++;
			vend = q ? (size_t)(q - s) : vstart;
		} else {
			for (vend = vstart; vend < len && s[vend] != ' ' &&
			     s[vend] != '\t' && s[vend] != '\r'; vend++)
				;
		}
		if (vend > vstart && !memchr(s + vstart, '/', vend - vstart))
			new = pathmap_lookup(ctx->programs, s + vstart,
			                     vend - vstart);
	} else {
		for (vend = len; vend > vstart && (s[vend - 1] == ' ' ||
		     s[vend - 1] == '\r'); vend--)
			;
		if (vend > vstart && !memchr(s + vstart, '/', vend - vstart))
			new = pathmap_lookup(ctx->icons, s + vstart,
			                     vend - vstart);
	}
	if (new == NULL) {
		out_append(o, line, len);
		return;
	}
	report_patch(report, file, kind, lineno, -1, s + vstart,
	             vend - vstart, new);
	out_append(o, line, vstart);
	out_append(o, new, strlen(new));
	out_append(o, line + vend, len - vend);
}

/* The .desktop rules over every line of BUF; NULL when nothing changed. */
static unsigned char *
desktop_pass(const struct patch_context *ctx, const char *file,
             const unsigned char *buf, size_t len, size_t *outlen,
             struct report *report, bool *oom)
{
	struct outbuf o = { 0 };
	size_t pos = 0, before = report->n_patches;
	long lineno = 1;

	while (pos < len) {
		const unsigned char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;

		desktop_line(ctx, file, buf + pos, end - pos, lineno, &o, report);
		if (nl)
			out_append(&o, "\n", 1);
		pos = end + 1;
		lineno++;
	}
	if (o.oom || report->n_patches == before) {
		*oom = o.oom;
		free(o.data);
		return NULL;
	}
	*outlen = o.len;
	return o.data;
}

int
patch_text(const struct patch_context *ctx, struct pathmap_scanner *sc,
           const char *file, const unsigned char *buf, size_t len,
           struct patch_result *res, struct report *report)
{
	struct pathmap_match m;
	struct outbuf o = { 0 };
	unsigned char *desktop = NULL;
	size_t pos = 0, counted = 0;
	long lineno = 1;
	bool oom = false;

	if (has_suffix(file, ".desktop")) {
		size_t dlen;

		desktop = desktop_pass(ctx, file, buf, len, &dlen, report, &oom);
		if (oom)
			return -1;
		if (desktop != NULL) {
			buf = desktop;
			len = dlen;
		}
	}
	while (pathmap_next(sc, buf, len, pos, &m)) {
		const unsigned char *p;

		for (p = buf + counted;
		     (p = memchr(p, '\n', buf + m.start - p)) != NULL; p++)
			lineno++;
		counted = m.start;
		report_patch(report, file, "text", lineno, -1, m.old, m.len,
		             m.new);
		out_append(&o, buf + pos, m.start - pos);
		out_append(&o, m.new, strlen(m.new));
		pos = m.start + m.len;
	}
	if (pos == 0 && desktop == NULL)
		return 0;
	if (pos == 0) {
		res->data = desktop;
		res->len = len;
		return 0;
	}
	out_append(&o, buf + pos, len - pos);
	free(desktop);
	if (o.oom) {
		free(o.data);
		return -1;
	}
	res->data = o.data;
	res->len = o.len;
	return 0;
}

void
patch_pad_path(const char *old, size_t oldlen, const char *new, char *out)
{
	size_t newlen = strlen(new);
	size_t pad = oldlen - newlen;
	size_t common = 0, at, i;

	while (common < newlen && common < oldlen &&
	       new[newlen - 1 - common] == old[oldlen - 1 - common])
		common++;
	/* The first slash of the shared tail, else the last slash before. */
	at = newlen;
	for (i = newlen - common; i < newlen; i++)
		if (new[i] == '/') {
			at = i;
			break;
		}
	if (at == newlen)
		for (i = newlen - common; i-- > 1;)
			if (new[i] == '/') {
				at = i;
				break;
			}
	if (at == newlen || at == 0)
		at = 0;
	memcpy(out, new, at);
	memset(out + at, '/', pad);
	memcpy(out + at + pad, new + at, newlen - at);
}

void
patch_relative_path(const char *from, const char *to, char *out, size_t size)
{
	size_t common = 0, i, n = 0;
	const char *rest;

	if (strcmp(from, "/") == 0) {
		snprintf(out, size, "%s", to[1] ? to + 1 : ".");
		return;
	}
	/* The longest common prefix ending at a component boundary. */
	for (i = 0; from[i] && from[i] == to[i]; i++)
		if (from[i] == '/')
			common = i;
	if ((from[i] == '\0' && (to[i] == '/' || to[i] == '\0')) ||
	    (to[i] == '\0' && from[i] == '/'))
		common = i;
	rest = to + common;
	if (*rest == '/')
		rest++;
	out[0] = '\0';
	for (i = common; from[i]; i++)
		if (from[i] == '/' && n + 4 < size)
			n += (size_t)snprintf(out + n, size - n, "../");
	if (n == 0 && *rest == '\0')
		snprintf(out, size, ".");
	else if (*rest == '\0' && n > 0)
		out[n - 1] = '\0';
	else
		snprintf(out + n, size - n, "%s", rest);
}
