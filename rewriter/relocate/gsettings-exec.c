/*
 * gsettings-exec.c: launch an app's programs with its compiled GSettings
 * schemas in sight.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relocate/gsettings-exec.h"

/*
 * Whether the Exec= value at P (LEN bytes) runs a program under the
 * namespace that needs the schema directory given.
 */
static bool
needs_env(const char *p, size_t len, const struct gsettings_exec *g)
{
	size_t n = strlen(g->ns_path), end;
	bool quoted = len > 0 && *p == '"';
	char path[4096];

	if (quoted)
		p++, len--;
	if (!(len > n && memcmp(p, g->ns_path, n) == 0 && p[n] == '/'))
		return false;
	if (g->sees_data == NULL)
		return true;
	for (end = 0; end < len && p[end] != (quoted ? '"' : ' ') &&
	     p[end] != '\n' && p[end] != '\r'; end++)
		;
	if (end >= sizeof(path))
		return true;
	memcpy(path, p, end);
	path[end] = '\0';
	return !g->sees_data(path, g->ctx);
}

char *
gsettings_exec_patch(const char *buf, size_t len, size_t *outlen, void *arg)
{
	const struct gsettings_exec *g = arg;
	size_t pos = 0, o = 0, changed = 0, extra;
	char *out, prefix[512];

	/* dbus-daemon runs Exec='s first word without searching PATH. */
	extra = (size_t)snprintf(prefix, sizeof(prefix),
	                         "/usr/bin/env GSETTINGS_SCHEMA_DIR=%s ",
	                         g->schema_dir);
	if (extra >= sizeof(prefix))
		return NULL;
	/* At worst every line grows by the prefix. */
	out = malloc(len + (len / 6 + 1) * extra + 1);
	if (out == NULL)
		return NULL;
	while (pos < len) {
		const char *line = buf + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) + 1 : len;
		size_t v = 5;

		if (end - pos > 5 && memcmp(line, "Exec=", 5) == 0) {
			while (v < end - pos && line[v] == ' ')
				v++;
			if (needs_env(line + v, end - pos - v, g)) {
				memcpy(out + o, line, v);
				o += v;
				memcpy(out + o, prefix, extra);
				o += extra;
				line += v;
				pos += v;
				changed++;
			}
		}
		memcpy(out + o, line, end - pos);
		o += end - pos;
		pos = end;
	}
	if (changed == 0) {
		free(out);
		return NULL;
	}
	out[o] = '\0';
	*outlen = o;
	return out;
}
