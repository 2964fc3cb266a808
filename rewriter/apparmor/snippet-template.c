/*
 * snippet-template.c: maintainer-script snippets kept as templates, and
 * snippets of other tools a helper takes over.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apparmor/snippet-template.h"

#define END_MARK "# End automatically added section\n"

char *
snippet_template_expand(const char *templates, const char *name,
                        const char *script, const struct template_subst *subst,
                        size_t n, struct dpkg_error *err)
{
	char path[4096], *text = NULL;
	const char *field, *p;
	struct template t;
	unsigned long lineno;
	size_t size = 0;
	FILE *fp;
	int rc;

	snprintf(path, sizeof(path), "%s/snippets/%s", templates, name);
	rc = template_load(&t, path, err);
	if (rc == 1)
		dpkg_put_error(err, "%s: no such snippet", path);
	if (rc != 0)
		return NULL;
	field = template_field(&t, "Snippet");
	if (field == NULL || strcmp(field, script) != 0) {
		dpkg_put_error(err, "%s: header field Snippet is not '%s'",
		               path, script);
		template_free(&t);
		return NULL;
	}
	fp = open_memstream(&text, &size);
	if (fp == NULL) {
		dpkg_put_error(err, "%s: out of memory", path);
		template_free(&t);
		return NULL;
	}
	for (p = t.body, lineno = t.body_line; *p; lineno++) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = template_expand_line(&t, lineno, p, len, subst, n,
		                                  err);

		if (line == NULL) {
			fclose(fp);
			free(text);
			template_free(&t);
			return NULL;
		}
		fprintf(fp, "%s\n", line);
		free(line);
		p += len + (nl != NULL);
	}
	fclose(fp);
	template_free(&t);
	return text;
}

char *
snippet_drop_tool(const char *buf, size_t len, size_t *outlen, void *arg)
{
	const char *tool = arg;
	char open[256];
	size_t pos = 0, o = 0, olen;
	bool dropped = false;
	char *out = malloc(len + 1);

	olen = (size_t)snprintf(open, sizeof(open), "# Automatically added by %s",
	                        tool);
	if (out == NULL || olen >= sizeof(open)) {
		free(out);
		return NULL;
	}
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) + 1 : len;
		const char *close;

		if (end - pos > olen && memcmp(buf + pos, open, olen) == 0 &&
		    (buf[pos + olen] == '\n' || buf[pos + olen] == '/') &&
		    (close = memmem(buf + end, len - end, END_MARK,
		                    strlen(END_MARK))) != NULL) {
			pos = (size_t)(close - buf) + strlen(END_MARK);
			dropped = true;
			continue;
		}
		memcpy(out + o, buf + pos, end - pos);
		o += end - pos;
		pos = end;
	}
	if (!dropped) {
		free(out);
		return NULL;
	}
	*outlen = o;
	return out;
}
