/*
 * dh-substvar.c: adding to the substvars of a binary package.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/atomic-file.h>
#include <dpkg/ehandle.h>

#include "base/error-at.h"
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

int
dh_helper_addsubstvar(const struct dh_helper *h, const char *package,
                      const char *var, const char *item,
                      struct dpkg_error *err)
{
	char path[512], *line = NULL;
	size_t varlen = strlen(var), alloc = 0;
	struct atomic_file *file;
	bool done = false;
	ssize_t len;
	FILE *old;

	snprintf(path, sizeof(path), "debian/%s.substvars", package);
	dh_helper_show(h, "echo '%s=%s' >> %s", var, item, path);
	if (h->no_act)
		return 0;
	old = fopen(path, "r");
	if (old == NULL && errno != ENOENT)
		return put_error_at(err, path, 0, "cannot open: %s",
		                    strerror(errno));
	file = atomic_file_new(path, ATOMIC_FILE_NORMAL);
	atomic_file_open(file);
	while (old && (len = getline(&line, &alloc, old)) >= 0) {
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!done && strncmp(line, var, varlen) == 0 &&
		    line[varlen] == '=') {
			done = true;
			if (line[varlen + 1] == '\0')
				fprintf(file->fp, "%s=%s\n", var, item);
			else if (list_has(line + varlen + 1, item))
				fprintf(file->fp, "%s\n", line);
			else
				fprintf(file->fp, "%s, %s\n", line, item);
			continue;
		}
		fprintf(file->fp, "%s\n", line);
	}
	free(line);
	if (old && ferror(old)) {
		int e = errno;

		fclose(old);
		/* The old file stays as it was, without a new one beside
		 * (atomic_file_remove() would remove the old one too). */
		atomic_file_close(file);
		unlink(file->name_new);
		atomic_file_free(file);
		return put_error_at(err, path, 0, "cannot read: %s",
		                    strerror(e));
	}
	if (!done)
		fprintf(file->fp, "%s=%s\n", var, item);
	if (old)
		fclose(old);
	/* A staged build file: atomic, not synced (as debhelper). */
	atomic_file_close(file);
	atomic_file_commit(file);
	atomic_file_free(file);
	return 0;
}
