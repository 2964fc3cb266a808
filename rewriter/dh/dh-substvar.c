/*
 * dh-substvar.c: adding to the substvars of a binary package.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error-at.h"
#include "base/file-rewrite.h"
#include "dh/dh-substvar.h"

/* Whether the comma-separated LIST holds ITEM, white space aside. */
static bool
list_has(const char *list, const char *item)
{
	size_t n = strlen(item);
	const char *p = list;

	while (*p) {
		const char *end = strchr(p, ',');
		size_t len;

		if (end == NULL)
			end = p + strlen(p);
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		len = (size_t)(end - p);
		while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len == n && memcmp(p, item, n) == 0)
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}

/*
 * The substvars of OLD (NULL: none yet) with ITEM added to VAR, on OUT.
 * -1 with errno set when OLD cannot be read.
 */
static int
substvars_added(FILE *old, const char *var, const char *item, FILE *out)
{
	size_t varlen = strlen(var), alloc = 0;
	char *line = NULL;
	bool done = false;
	ssize_t len;

	while (old && (len = getline(&line, &alloc, old)) >= 0) {
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!done && strncmp(line, var, varlen) == 0 &&
		    line[varlen] == '=') {
			done = true;
			if (line[varlen + 1] == '\0')
				fprintf(out, "%s=%s\n", var, item);
			else if (list_has(line + varlen + 1, item))
				fprintf(out, "%s\n", line);
			else
				fprintf(out, "%s, %s\n", line, item);
			continue;
		}
		fprintf(out, "%s\n", line);
	}
	if (old && ferror(old)) {
		int e = errno;

		free(line);
		errno = e;
		return -1;
	}
	free(line);
	if (!done)
		fprintf(out, "%s=%s\n", var, item);
	return 0;
}

int
dh_helper_addsubstvar(const struct dh_helper *h, const char *package,
                      const char *var, const char *item,
                      struct dpkg_error *err)
{
	char path[512], *text = NULL;
	size_t len = 0;
	FILE *old, *out;
	int rc;

	snprintf(path, sizeof(path), "debian/%s.substvars", package);
	dh_helper_show(h, "echo '%s=%s' >> %s", var, item, path);
	if (h->no_act)
		return 0;
	old = fopen(path, "r");
	if (old == NULL && errno != ENOENT)
		return put_error_at(err, path, 0, "cannot open: %s",
		                    strerror(errno));
	/* Composed first, so that a read error leaves the old file alone. */
	out = open_memstream(&text, &len);
	if (out == NULL) {
		if (old)
			fclose(old);
		return put_error_at(err, path, 0, "out of memory");
	}
	rc = substvars_added(old, var, item, out);
	if (rc < 0)
		rc = put_error_at(err, path, 0, "cannot read: %s",
		                  strerror(errno));
	if (old)
		fclose(old);
	if (fclose(out) != 0 && rc == 0)
		rc = put_error_at(err, path, 0, "out of memory");
	/* A staged build file: atomic, not synced (as debhelper). */
	if (rc == 0)
		rc = file_write_atomically(path, file_write_bytes,
		                           &(struct file_bytes){ text, len },
		                           NULL, 0, err);
	free(text);
	return rc;
}
