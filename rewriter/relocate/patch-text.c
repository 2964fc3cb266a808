/*
 * patch-text.c: patch references in text files.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <dpkg/dpkg.h>
#include <dpkg/string.h>

#include "namespace/layout.h"
#include "relocate/patch.h"

/* *P (*LEN bytes) without the blanks around it, as the gate reads it. */
static void
trim(const char **p, size_t *len)
{
	while (*len > 0 && (**p == ' ' || **p == '\t'))
		(*p)++, (*len)--;
	while (*len > 0 && ((*p)[*len - 1] == ' ' || (*p)[*len - 1] == '\t' ||
	                    (*p)[*len - 1] == '\r'))
		(*len)--;
}

/* Whether TYPE (LEN bytes, trimmed) is one of CTX's unclaimable types. */
static bool
unclaimable(const struct patch_context *ctx, const char *type, size_t len)
{
	size_t i;

	for (i = 0; i < ctx->n_unclaimable; i++)
		if (strlen(ctx->unclaimable[i]) == len &&
		    strncasecmp(ctx->unclaimable[i], type, len) == 0)
			return true;
	return false;
}

/*
 * MimeType= (S, LEN bytes, its value from POS): the claims of CTX's
 * unclaimable types dropped, each reported; the others kept as they were.
 * Appends the line to O, and returns true; or, when every claim was
 * dropped, nothing (an empty MimeType= is a warning to the desktop's
 * validator), and returns false.
 */
static bool
mimetype_line(const struct patch_context *ctx, const char *file,
              const char *s, size_t len, size_t pos, long lineno,
              struct patch_out *o, struct report *report)
{
	size_t start = o->len, before = report->n_patches;
	bool kept = false;

	patch_out_append(o, s, pos);
	while (pos < len) {
		const char *semi = memchr(s + pos, ';', len - pos);
		size_t end = semi ? (size_t)(semi - s) : len;
		const char *type = s + pos;
		size_t tlen = end - pos;

		trim(&type, &tlen);
		if (tlen > 0 && unclaimable(ctx, type, tlen))
			report_patch(report, file, "desktop-mimetype", lineno,
			             -1, type, tlen, "");
		else {
			patch_out_append(o, s + pos, end - pos + (semi != NULL));
			kept |= tlen > 0;
		}
		pos = end + 1;
	}
	if (!kept && report->n_patches > before) {
		o->len = start;
		return false;
	}
	return true;
}

/*
 * One line of a .desktop file: Exec= and TryExec= naming a program of the
 * package by its bare name get its namespace path (PATH does not reach
 * the namespace); Icon= naming a renamed icon gets its new name;
 * MimeType= loses the claims the app may not make.  Appends
 * the line, changed or not, to O; returns false when it is dropped whole.
 */
static bool
desktop_line(const struct patch_context *ctx, const char *file,
             const unsigned char *line, size_t len, long lineno,
             struct patch_out *o, struct report *report)
{
	const char *s = (const char *)line;
	size_t keylen = 0, vstart, vend;
	const char *new = NULL;
	const char *kind = NULL;
	int i;

	/* The key, blanks, '=' (the specification lets blanks in). */
	if (ctx->n_unclaimable > 0 && len > 8 &&
	    memcmp(s, "MimeType", 8) == 0) {
		size_t eq = 8;

		while (eq < len && (s[eq] == ' ' || s[eq] == '\t'))
			eq++;
		if (eq < len && s[eq] == '=')
			return mimetype_line(ctx, file, s, len, eq + 1,
			                     lineno, o, report);
	}
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
		patch_out_append(o, line, len);
		return true;
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
		static const char *const exts[] = {
			".png", ".svg", ".svgz", ".xpm", NULL,
		};

		for (vend = len; vend > vstart && (s[vend - 1] == ' ' ||
		     s[vend - 1] == '\r'); vend--)
			;
		if (vend > vstart && !memchr(s + vstart, '/', vend - vstart))
			new = pathmap_lookup(ctx->icons, s + vstart,
			                     vend - vstart);
		/* "Icon=foo.png": GIO drops the extension and looks up
		 * "foo", so the name before it follows the rename. */
		for (i = 0; new == NULL && exts[i] && vend > vstart &&
		     !memchr(s + vstart, '/', vend - vstart); i++) {
			size_t n = strlen(exts[i]);

			if (vend - vstart > n &&
			    memcmp(s + vend - n, exts[i], n) == 0)
				new = pathmap_lookup(ctx->icons, s + vstart,
				                     vend - vstart - n);
			if (new != NULL)
				vend -= n;
		}
	}
	if (new == NULL) {
		patch_out_append(o, line, len);
		return true;
	}
	report_patch(report, file, kind, lineno, -1, s + vstart,
	             vend - vstart, new);
	patch_out_append(o, line, vstart);
	patch_out_append(o, new, strlen(new));
	patch_out_append(o, line + vend, len - vend);
	return true;
}

/* The .desktop rules over every line of BUF; NULL when nothing changed. */
static unsigned char *
desktop_pass(const struct patch_context *ctx, const char *file,
             const unsigned char *buf, size_t len, size_t *outlen,
             struct report *report, bool *oom)
{
	struct patch_out o = { 0 };
	size_t pos = 0, before = report->n_patches;
	long lineno = 1;

	while (pos < len) {
		const unsigned char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;

		if (desktop_line(ctx, file, buf + pos, end - pos, lineno, &o,
		                 report) && nl)
			patch_out_append(&o, "\n", 1);
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

/* The line of OFFSET in BUF, counting on from *AT (line *LINE). */
static long
line_at(const unsigned char *buf, size_t offset, size_t *at, long *line)
{
	const unsigned char *p;

	for (p = buf + *at; (p = memchr(p, '\n', buf + offset - p)) != NULL;
	     p++)
		(*line)++;
	*at = offset;
	return *line;
}

/*
 * The shared locale directory named by itself ("/usr/share/locale", or
 * with a trailing slash) becomes the namespace's, where the package's
 * catalogues are: a program binds its text domain to the directory, and
 * gettext looks for DIR/LANG/LC_MESSAGES/DOMAIN.mo.  Files below it and
 * longer names are left to the path map.
 */
static unsigned char *
localedir_pass(const struct patch_context *ctx, const char *file,
               const unsigned char *buf, size_t len, size_t *outlen,
               struct text_edits *edits, struct report *report, bool *oom)
{
	const size_t n = sizeof(LAYOUT_SHARED_LOCALEDIR) - 1;
	struct patch_out o = { 0 };
	size_t pos = 0, at = 0;
	long line = 1, start;

	if (ctx->localedir == NULL)
		return NULL;
	while ((start = layout_find_shared_localedir(buf, len, pos)) >= 0) {
		report_patch(report, file, "text-localedir",
		             line_at(buf, (size_t)start, &at, &line), -1,
		             LAYOUT_SHARED_LOCALEDIR, n, ctx->localedir);
		patch_out_append(&o, buf + pos, (size_t)start - pos);
		patch_out_append(&o, ctx->localedir, strlen(ctx->localedir));
		if (text_edits_add(edits, (size_t)start, n,
		                   strlen(ctx->localedir)) < 0)
			o.oom = true;
		pos = (size_t)start + n;
	}
	if (pos == 0 || o.oom) {
		*oom = o.oom;
		free(o.data);
		return NULL;
	}
	patch_out_append(&o, buf + pos, len - pos);
	*outlen = o.len;
	return o.data;
}

/*
 * Replace, in BUF, each icon name found by FIND that names a renamed
 * icon.  FIND(buf, len, from, &start, &end) gives the next name's bounds
 * at or after FROM, or false.
 */
static unsigned char *
icon_names_pass(const struct patch_context *ctx, const char *file,
                const char *kind, const unsigned char *buf, size_t len,
                bool (*find)(const unsigned char *, size_t, size_t,
                             size_t *, size_t *),
                size_t *outlen, struct report *report, bool *oom)
{
	struct patch_out o = { 0 };
	size_t pos = 0, from = 0, start, end, at = 0;
	long line = 1;

	while (find(buf, len, from, &start, &end)) {
		const char *new = pathmap_lookup(ctx->icons,
		                                 (const char *)buf + start,
		                                 end - start);

		from = end;
		if (new == NULL)
			continue;
		report_patch(report, file, kind, line_at(buf, start, &at, &line),
		             -1, (const char *)buf + start, end - start, new);
		patch_out_append(&o, buf + pos, start - pos);
		patch_out_append(&o, new, strlen(new));
		pos = end;
	}
	if (pos == 0 || o.oom) {
		*oom = o.oom;
		free(o.data);
		return NULL;
	}
	patch_out_append(&o, buf + pos, len - pos);
	*outlen = o.len;
	return o.data;
}

/* GtkBuilder: <property name="icon-name">NAME</property> and its kin. */
static bool
find_builder_icon(const unsigned char *buf, size_t len, size_t from,
                  size_t *start, size_t *end)
{
	static const char *const attrs[] = {
		"name=\"icon-name\"", "name=\"icon_name\"",
		"name=\"logo-icon-name\"", "name=\"logo_icon_name\"",
		"name=\"default-icon-name\"", "name=\"default_icon_name\"",
		NULL,
	};
	const unsigned char *p = buf + from;

	while ((p = memmem(p, len - (size_t)(p - buf), "<property",
	                   9)) != NULL) {
		const unsigned char *gt = memchr(p, '>', len - (size_t)(p - buf));
		const unsigned char *lt;
		int i;

		if (gt == NULL)
			return false;
		for (i = 0; attrs[i]; i++)
			if (memmem(p, (size_t)(gt - p), attrs[i],
			           strlen(attrs[i])) != NULL)
				break;
		p = gt + 1;
		if (attrs[i] == NULL || gt[-1] == '/')
			continue;
		lt = memchr(p, '<', len - (size_t)(p - buf));
		if (lt == NULL)
			return false;
		while (p < lt && (*p == ' ' || *p == '\n' || *p == '\t'))
			p++;
		*start = (size_t)(p - buf);
		while (lt > p && (lt[-1] == ' ' || lt[-1] == '\n' ||
		                  lt[-1] == '\t'))
			lt--;
		*end = (size_t)(lt - buf);
		if (*end > *start)
			return true;
	}
	return false;
}

/* Python: set_icon_name("NAME"), set_default_icon_name('NAME'),
 * icon_name="NAME" (a keyword argument or a property). */
static bool
find_python_icon(const unsigned char *buf, size_t len, size_t from,
                 size_t *start, size_t *end)
{
	static const char key[] = "icon_name";
	const unsigned char *p = buf + from;

	while ((p = memmem(p, len - (size_t)(p - buf), key,
	                   sizeof(key) - 1)) != NULL) {
		const unsigned char *q = p + sizeof(key) - 1, *close;
		const unsigned char *stop = buf + len;

		p = q;
		while (q < stop && (*q == ' ' || *q == '\t'))
			q++;
		if (q < stop && (*q == '(' || *q == '='))
			q++;
		else
			continue;
		while (q < stop && (*q == ' ' || *q == '\t'))
			q++;
		if (q >= stop || (*q != '"' && *q != '\''))
			continue;
		close = memchr(q + 1, *q, (size_t)(stop - q - 1));
		if (close == NULL || close == q + 1 ||
		    memchr(q + 1, '\n', (size_t)(close - q - 1)) != NULL)
			continue;
		*start = (size_t)(q + 1 - buf);
		*end = (size_t)(close - buf);
		return true;
	}
	return false;
}

static bool
is_python(const char *file, const unsigned char *buf, size_t len)
{
	const unsigned char *nl;

	if (str_match_end(file, ".py"))
		return true;
	if (len < 2 || buf[0] != '#' || buf[1] != '!')
		return false;
	nl = memchr(buf, '\n', len);
	return memmem(buf, nl ? (size_t)(nl - buf) : len, "python", 6) != NULL;
}

/* The interpreter of a "#!" line: "sh" for "#!/bin/sh -e", "bash" for
 * "#!/usr/bin/env bash"; into OUT (SIZE bytes), or "". */
static void
interpreter(const unsigned char *buf, size_t len, char *out, size_t size)
{
	const unsigned char *nl = memchr(buf, '\n', len), *p = buf + 2, *end;
	size_t n;
	int words;

	out[0] = '\0';
	if (len < 2 || buf[0] != '#' || buf[1] != '!')
		return;
	end = nl ? nl : buf + len;
	for (words = 0; words < 2 && p < end; words++) {
		const unsigned char *start, *base;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		start = p;
		while (p < end && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		for (base = p; base > start && base[-1] != '/'; base--)
			;
		n = (size_t)(p - base);
		if (n == 0 || n >= size)
			return;
		memcpy(out, base, n);
		out[n] = '\0';
		if (strcmp(out, "env") != 0)
			return;
	}
}

static bool
is_word_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' ||
	       c == '+';
}

/*
 * A shell script among the namespace's programs that runs another of them
 * by its bare name (uxterm's "${XTERM_PROGRAM=xterm}") would not find it:
 * the namespace is not on PATH.  Its directory goes first on the script's
 * PATH, on a line after the "#!" line.
 */
static unsigned char *
sibling_path_pass(const struct patch_context *ctx, const char *file,
                  const unsigned char *buf, size_t len, size_t *outlen,
                  struct report *report, bool *oom)
{
	static const char *const shells[] = {
		"sh", "bash", "dash", "ksh", "mksh", "zsh", NULL,
	};
	const char *self = strrchr(file, '/'), *sibling = NULL;
	const unsigned char *nl;
	char shell[32], line[PATH_MAX + 64];
	struct patch_out o = { 0 };
	size_t pos, dirlen;
	int i;

	interpreter(buf, len, shell, sizeof(shell));
	for (i = 0; shells[i] && strcmp(shell, shells[i]) != 0; i++)
		;
	nl = memchr(buf, '\n', len);
	if (shells[i] == NULL || nl == NULL || self == NULL ||
	    pathmap_lookup(ctx->programs, self + 1, strlen(self + 1)) == NULL)
		return NULL;
	/* Words after the "#!" line naming another program of the namespace. */
	for (pos = (size_t)(nl - buf) + 1; pos < len && sibling == NULL;) {
		size_t start;

		while (pos < len && !is_word_byte(buf[pos]))
			pos++;
		start = pos;
		while (pos < len && is_word_byte(buf[pos]))
			pos++;
		if (pos == start || buf[start] == '-' ||
		    (start > 0 && buf[start - 1] == '/') ||
		    (pos - start == strlen(self + 1) &&
		     memcmp(buf + start, self + 1, pos - start) == 0))
			continue;
		sibling = pathmap_lookup(ctx->programs,
		                         (const char *)buf + start, pos - start);
	}
	if (sibling == NULL)
		return NULL;
	dirlen = (size_t)(strrchr(sibling, '/') - sibling);
	snprintf(line, sizeof(line), "PATH=%.*s:$PATH; export PATH\n",
	         (int)dirlen, sibling);
	/* Patched before (dh_extras_links runs the patchers again). */
	if ((size_t)(buf + len - (nl + 1)) >= strlen(line) &&
	    memcmp(nl + 1, line, strlen(line)) == 0)
		return NULL;
	report_patch(report, file, "text-path", 2, -1, "", 0, line);
	patch_out_append(&o, buf, (size_t)(nl - buf) + 1);
	patch_out_append(&o, line, strlen(line));
	patch_out_append(&o, nl + 1, len - (size_t)(nl - buf) - 1);
	if (o.oom) {
		*oom = true;
		free(o.data);
		return NULL;
	}
	*outlen = o.len;
	return o.data;
}

/* Run PASS's result, if any, in place of *BUF (owned in *OWNED). */
static int
take(unsigned char *new, size_t newlen, bool oom, const unsigned char **buf,
     size_t *len, unsigned char **owned)
{
	if (oom)
		return -1;
	if (new == NULL)
		return 0;
	free(*owned);
	*owned = new;
	*buf = new;
	*len = newlen;
	return 0;
}

int
patch_text(const struct patch_context *ctx, struct pathmap_scanner *sc,
           const char *file, const unsigned char *buf, size_t len,
           struct patch_result *res, struct report *report)
{
	struct pathmap_match m;
	struct patch_out o = { 0 };
	/* An Info manual's edits, for its tag table: one list a pass. */
	struct text_edits info[2] = { { 0 }, { 0 } };
	bool is_info = patch_is_info(buf, len);
	unsigned char *named = NULL, *new, *done;
	size_t pos = 0, counted = 0, newlen = 0;
	long lineno = 1;
	bool oom = false;

	/* Names first, then paths: each pass hands on its result.  An Info
	 * manual has its paths only, the offsets of its tag table moving
	 * with them. */
	if (!is_info && str_match_end(file, ".desktop")) {
		new = desktop_pass(ctx, file, buf, len, &newlen, report, &oom);
		if (take(new, newlen, oom, &buf, &len, &named) < 0)
			goto oom;
	}
	if (!is_info &&
	    (str_match_end(file, ".ui") || str_match_end(file, ".glade"))) {
		new = icon_names_pass(ctx, file, "builder-icon", buf, len,
		                      find_builder_icon, &newlen, report, &oom);
		if (take(new, newlen, oom, &buf, &len, &named) < 0)
			goto oom;
	}
	if (!is_info && is_python(file, buf, len)) {
		new = icon_names_pass(ctx, file, "python-icon", buf, len,
		                      find_python_icon, &newlen, report, &oom);
		if (take(new, newlen, oom, &buf, &len, &named) < 0)
			goto oom;
	}
	new = localedir_pass(ctx, file, buf, len, &newlen,
	                     is_info ? &info[0] : NULL, report, &oom);
	if (take(new, newlen, oom, &buf, &len, &named) < 0)
		goto oom;
	if (!is_info) {
		new = sibling_path_pass(ctx, file, buf, len, &newlen, report,
		                        &oom);
		if (take(new, newlen, oom, &buf, &len, &named) < 0)
			goto oom;
	}
	while (pathmap_next(sc, buf, len, pos, &m)) {
		const unsigned char *p;

		for (p = buf + counted;
		     (p = memchr(p, '\n', buf + m.start - p)) != NULL; p++)
			lineno++;
		counted = m.start;
		report_patch(report, file, "text", lineno, -1, m.old, m.len,
		             m.new);
		patch_out_append(&o, buf + pos, m.start - pos);
		patch_out_append(&o, m.new, strlen(m.new));
		if (is_info && text_edits_add(&info[1], m.start, m.len,
		                              strlen(m.new)) < 0)
			o.oom = true;
		pos = m.start + m.len;
	}
	if (pos == 0 && named == NULL)
		goto unchanged;
	if (pos == 0) {
		done = named;
	} else {
		patch_out_append(&o, buf + pos, len - pos);
		free(named);
		if (o.oom) {
			named = NULL;
			goto oom;
		}
		done = o.data;
		len = o.len;
	}
	named = NULL;
	o.data = NULL;
	if (is_info) {
		new = patch_info_retag(done, len, info, 2, &newlen, &oom);
		if (oom || new != NULL) {
			free(done);
			done = new;
			len = newlen;
		}
		if (oom)
			goto oom;
	}
	res->data = done;
	res->len = len;
unchanged:
	text_edits_free(&info[0]);
	text_edits_free(&info[1]);
	return 0;
oom:
	free(o.data);
	free(named);
	text_edits_free(&info[0]);
	text_edits_free(&info[1]);
	return -1;
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
