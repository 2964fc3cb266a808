/*
 * file-rewrite.c: replace a staged file by a transformation of its
 * content, atomically and keeping its mode.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <dpkg/dpkg.h>
#include <dpkg/atomic-file.h>
#include <dpkg/ehandle.h>

#include "base/file-rewrite.h"

/* The whole of FP, NUL-terminated for the transformations' sake. */
static char *
read_all(FILE *fp, const char *path, size_t *len)
{
	size_t alloc = 8192, n;
	char *buf = malloc(alloc);

	*len = 0;
	while (buf != NULL && (n = fread(buf + *len, 1, alloc - *len - 1,
	                                 fp)) > 0) {
		*len += n;
		if (alloc - *len - 1 == 0) {
			char *v = realloc(buf, alloc * 2);

			if (v == NULL)
				free(buf);
			buf = v;
			alloc *= 2;
		}
	}
	if (buf == NULL)
		ohshit("out of memory reading %s", path);
	if (ferror(fp))
		ohshite("cannot read %s", path);
	buf[*len] = '\0';
	return buf;
}

bool
file_rewrite(const char *path, file_transform_fn *fn, void *arg,
             bool no_act)
{
	struct atomic_file *file;
	struct stat st;
	char *buf, *out;
	size_t len, outlen;
	FILE *fp;

	fp = fopen(path, "r");
	if (fp == NULL)
		ohshite("cannot open %s", path);
	if (fstat(fileno(fp), &st) < 0)
		ohshite("cannot stat %s", path);
	buf = read_all(fp, path, &len);
	fclose(fp);
	out = fn(buf, len, &outlen, arg);
	free(buf);
	if (out == NULL)
		return false;
	if (!no_act) {
		file = atomic_file_new(path, ATOMIC_FILE_NORMAL);
		atomic_file_open(file);
		if (fwrite(out, 1, outlen, file->fp) != outlen)
			ohshite("cannot write %s", file->name_new);
		/* A launcher stays executable. */
		if (fchmod(fileno(file->fp), st.st_mode & 07777) < 0)
			ohshite("cannot change the mode of %s", file->name_new);
		/* A staged build file: atomic, not synced (as debhelper). */
		atomic_file_close(file);
		atomic_file_commit(file);
		atomic_file_free(file);
	}
	free(out);
	return true;
}
