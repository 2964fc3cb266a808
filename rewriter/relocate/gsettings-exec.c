/*
 * gsettings-exec.c: launch an app's programs with its compiled GSettings
 * schemas in sight.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relocate/gsettings-exec.h"

/* Whether the Exec= value at P (LEN bytes) runs a program under NS. */
static bool
runs_from_namespace(const char *p, size_t len, const char *ns)
{
	size_t n = strlen(ns);

	if (len > 0 && *p == '"')
		p++, len--;
	return len > n && memcmp(p, ns, n) == 0 && p[n] == '/';
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
			if (runs_from_namespace(line + v, end - pos - v,
			                        g->ns_path)) {
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
