/*
 * file-rewrite.c: replace a staged file by a transformation of its
 * content, atomically and keeping its mode.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/atomic-file.h>
#include <dpkg/ehandle.h>

#include "base/dpkg-catch.h"
#include "base/error-at.h"
#include "base/file-rewrite.h"

/* The whole of FP, NUL-terminated for the transformations' sake. */
static char *
read_all(FILE *fp, const char *path, size_t *len, struct dpkg_error *err)
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
	if (buf == NULL) {
		put_error_at(err, path, 0, "out of memory reading it");
		return NULL;
	}
	if (ferror(fp)) {
		put_error_at(err, path, 0, "cannot read: %s", strerror(errno));
		free(buf);
		return NULL;
	}
	buf[*len] = '\0';
	return buf;
}

struct atomic_write {
	const char *path;
	file_writer *writer;
	const void *data;
	const struct stat *like;
	unsigned flags;
	/* Set once made: what a failure removes. */
	struct atomic_file *file;
};

/* libdpkg's atomic_file reports through ohshit(): run under dpkg_catch(). */
static void
write_atomically(void *arg)
{
	struct atomic_write *w = arg;
	struct atomic_file *file;

	file = w->file = atomic_file_new(w->path, ATOMIC_FILE_NORMAL);
	atomic_file_open(file);
	if (w->writer(file->fp, w->data) < 0 || ferror(file->fp))
		ohshite("cannot write %s", file->name_new);
	if ((w->flags & FILE_WRITE_OWNER) &&
	    fchown(fileno(file->fp), w->like->st_uid, w->like->st_gid) < 0)
		ohshite("cannot change the owner of %s", file->name_new);
	/* A launcher stays executable. */
	if (w->like != NULL &&
	    fchmod(fileno(file->fp), w->like->st_mode & 07777) < 0)
		ohshite("cannot change the mode of %s", file->name_new);
	if (w->flags & FILE_WRITE_SYNC)
		atomic_file_sync(file);
	atomic_file_close(file);
	atomic_file_commit(file);
	w->file = NULL;
	atomic_file_free(file);
}

/* MSG, caught from libdpkg, in ERR; FILE, when made, removed. */
static int
write_failed(struct atomic_file *file, const char *msg,
             struct dpkg_error *err)
{
	/* The stream is closed: atomic_file_open() left a cleanup. */
	if (file != NULL) {
		/* Not atomic_file_remove(): it removes PATH too. */
		unlink(file->name_new);
		atomic_file_free(file);
	}
	return dpkg_put_error(err, "%s", msg);
}

int
file_write_atomically(const char *path, file_writer *writer, const void *data,
                      const struct stat *like, unsigned flags,
                      struct dpkg_error *err)
{
	struct atomic_write w = { path, writer, data, like, flags, NULL };
	char msg[ERROR_AT_MAX];

	if (dpkg_catch(write_atomically, &w, msg, sizeof(msg)) == 0)
		return 0;
	return write_failed(w.file, msg, err);
}

struct install {
	const char *path;
	const void *data;
	size_t len;
	mode_t mode;
	/* Set once made: what a failure removes. */
	struct atomic_file *file;
};

/* libdpkg's atomic_file reports through ohshit(): run under dpkg_catch(). */
static void
install_atomically(void *arg)
{
	struct install *in = arg;
	struct atomic_file *file;

	file = in->file = atomic_file_new(in->path, ATOMIC_FILE_NORMAL);
	atomic_file_open(file);
	if (fchmod(fileno(file->fp), in->mode) < 0)
		ohshite("cannot set the mode of %s", file->name_new);
	if (fwrite(in->data, 1, in->len, file->fp) != in->len)
		ohshite("cannot write %s", file->name_new);
	/* A staged build file: atomic, not synced (as debhelper). */
	atomic_file_close(file);
	atomic_file_commit(file);
	in->file = NULL;
	atomic_file_free(file);
}

int
file_install(const char *path, const void *data, size_t len, mode_t mode,
             struct dpkg_error *err)
{
	struct install in = { path, data, len, mode, NULL };
	char msg[ERROR_AT_MAX];

	if (dpkg_catch(install_atomically, &in, msg, sizeof(msg)) == 0)
		return 0;
	return write_failed(in.file, msg, err);
}

int
file_write_bytes(FILE *fp, const void *data)
{
	const struct file_bytes *b = data;

	return fwrite(b->data, 1, b->len, fp) == b->len ? 0 : -1;
}

int
file_replace(const char *path, const void *data, size_t len,
             const struct stat *like, bool owner, struct dpkg_error *err)
{
	/* A staged build file: atomic, not synced (as debhelper). */
	return file_write_atomically(path, file_write_bytes,
	                             &(struct file_bytes){ data, len }, like,
	                             owner ? FILE_WRITE_OWNER : 0, err);
}

int
file_rewrite(const char *path, file_transform_fn *fn, void *arg,
             bool no_act, struct dpkg_error *err)
{
	struct stat st;
	char *buf, *out;
	size_t len, outlen;
	FILE *fp;

	fp = fopen(path, "r");
	if (fp == NULL)
		return put_error_at(err, path, 0, "cannot open: %s",
		                    strerror(errno));
	if (fstat(fileno(fp), &st) < 0) {
		fclose(fp);
		return put_error_at(err, path, 0, "cannot stat: %s",
		                    strerror(errno));
	}
	buf = read_all(fp, path, &len, err);
	fclose(fp);
	if (buf == NULL)
		return -1;
	out = fn(buf, len, &outlen, arg);
	free(buf);
	if (out == NULL)
		return 0;
	if (!no_act && file_replace(path, out, outlen, &st, false, err) < 0) {
		free(out);
		return -1;
	}
	free(out);
	return 1;
}
