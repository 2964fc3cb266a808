/*
 * convert-plan.c: collect a conversion's changes, then apply them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>

#include "base/file-rewrite.h"
#include "convert/convert-plan.h"

void
convert_plan_init(struct convert_plan *p, const char *dir)
{
	memset(p, 0, sizeof(*p));
	p->dir = dir;
}

void
convert_plan_free(struct convert_plan *p)
{
	int i;

	for (i = 0; i < p->nops; i++) {
		free(p->ops[i].path);
		free(p->ops[i].to);
		free(p->ops[i].data);
	}
	free(p->ops);
	for (i = 0; i < p->nnotes; i++) {
		free(p->notes[i].file);
		free(p->notes[i].what);
	}
	free(p->notes);
	memset(p, 0, sizeof(*p));
}

static struct convert_op *
add_op(struct convert_plan *p, enum convert_op_kind kind, const char *path)
{
	struct convert_op *op;

	p->ops = m_realloc(p->ops, sizeof(*op) * (p->nops + 1));
	op = &p->ops[p->nops++];
	memset(op, 0, sizeof(*op));
	op->kind = kind;
	op->path = m_strdup(path);
	return op;
}

void
convert_plan_write(struct convert_plan *p, const char *path, const char *data,
                   size_t len, mode_t mode)
{
	struct convert_op *op = add_op(p, CONVERT_WRITE, path);

	op->data = m_malloc(len + 1);
	memcpy(op->data, data, len);
	op->data[len] = '\0';
	op->len = len;
	op->mode = mode & 07777;
}

void
convert_plan_rename(struct convert_plan *p, const char *from, const char *to)
{
	add_op(p, CONVERT_RENAME, from)->to = m_strdup(to);
}

void
convert_plan_remove(struct convert_plan *p, const char *path)
{
	add_op(p, CONVERT_REMOVE, path);
}

void
convert_plan_note(struct convert_plan *p, const char *file, int line,
                  const char *fmt, ...)
{
	struct convert_note *n;
	va_list args;
	char buf[1024];

	va_start(args, fmt);
	vsnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	p->notes = m_realloc(p->notes, sizeof(*n) * (p->nnotes + 1));
	n = &p->notes[p->nnotes++];
	n->file = m_strdup(file);
	n->line = line;
	n->what = m_strdup(buf);
}

bool
convert_plan_touches(const struct convert_plan *p, const char *path)
{
	int i;

	for (i = 0; i < p->nops; i++)
		if (p->ops[i].kind != CONVERT_WRITE &&
		    strcmp(p->ops[i].path, path) == 0)
			return true;
	return false;
}

static char *
tree_path(const struct convert_plan *p, const char *path)
{
	char *full = m_malloc(strlen(p->dir) + strlen(path) + 2);

	sprintf(full, "%s/%s", p->dir, path);
	return full;
}

int
convert_read(const struct convert_plan *p, const char *path, char **data,
             size_t *len, mode_t *mode, bool may_be_absent,
             struct dpkg_error *err)
{
	char *full = tree_path(p, path);
	struct stat st;
	ssize_t n;
	size_t got = 0;
	int fd;

	*data = NULL;
	fd = open(full, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	free(full);
	if (fd < 0) {
		if (errno == ENOENT && may_be_absent)
			return 1;
		if (errno == ELOOP)
			return put_error_at(err, path, 0, "is a symbolic link");
		return put_error_at(err, path, 0, "cannot open: %s",
		                    strerror(errno));
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return put_error_at(err, path, 0, "is not a regular file");
	}
	if (st.st_size > CONVERT_FILE_MAX) {
		close(fd);
		return put_error_at(err, path, 0, "is larger than %d bytes",
		                    CONVERT_FILE_MAX);
	}
	*data = m_malloc(st.st_size + 1);
	while (got < (size_t)st.st_size &&
	       (n = read(fd, *data + got, st.st_size - got)) > 0)
		got += n;
	close(fd);
	(*data)[got] = '\0';
	*len = got;
	if (mode)
		*mode = st.st_mode & 07777;
	return 0;
}

static int
write_op(FILE *fp, const void *data)
{
	const struct convert_op *op = data;

	return fwrite(op->data, 1, op->len, fp) == op->len ? 0 : -1;
}

static int
write_atomically(const struct convert_plan *p, const struct convert_op *op,
                 struct dpkg_error *err)
{
	char *full = tree_path(p, op->path);
	struct stat like = { .st_mode = op->mode };
	int ret;

	ret = file_write_atomically(full, write_op, op, &like, FILE_WRITE_SYNC,
	                            err);
	free(full);
	return ret;
}

int
convert_plan_apply(struct convert_plan *p, struct dpkg_error *err)
{
	enum convert_op_kind order[] = { CONVERT_WRITE, CONVERT_RENAME,
	                                 CONVERT_REMOVE };
	size_t k;
	int i;

	for (k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		for (i = 0; i < p->nops; i++) {
			struct convert_op *op = &p->ops[i];
			char *from, *to;
			int ret = 0;

			if (op->kind != order[k])
				continue;
			if (op->kind == CONVERT_WRITE) {
				if (write_atomically(p, op, err) < 0)
					return -1;
				continue;
			}
			from = tree_path(p, op->path);
			if (op->kind == CONVERT_RENAME) {
				to = tree_path(p, op->to);
				/* Never overwrite: a clash was refused earlier. */
				ret = renameat2(AT_FDCWD, from, AT_FDCWD, to,
				                RENAME_NOREPLACE);
				free(to);
			} else {
				ret = unlink(from);
			}
			free(from);
			if (ret < 0)
				return put_error_at(err, op->path, 0, "cannot %s: %s",
				                    op->kind == CONVERT_RENAME ?
				                    "rename" : "remove",
				                    strerror(errno));
		}
	}
	return 0;
}

void
convert_plan_print(const struct convert_plan *p, FILE *fp)
{
	int i;

	for (i = 0; i < p->nnotes; i++) {
		if (p->notes[i].line > 0)
			fprintf(fp, "%s:%d: %s\n", p->notes[i].file,
			        p->notes[i].line, p->notes[i].what);
		else
			fprintf(fp, "%s: %s\n", p->notes[i].file,
			        p->notes[i].what);
	}
}
