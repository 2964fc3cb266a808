/* Facts about the atomic writers: file_write_atomically, output_replace. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>

#include "../tests/tap.h"
#include "base/file-rewrite.h"
#include "base/output.h"

static int
write_text(FILE *fp, const void *data)
{
	return fputs(data, fp) < 0 ? -1 : 0;
}

/* Writes half, then fails as a writer whose data ran out would. */
static int
write_half_then_fail(FILE *fp, const void *data)
{
	fputs("half", fp);
	(void)data;
	return -1;
}

static char *
slurp(const char *path)
{
	static char buf[256];
	FILE *fp = fopen(path, "r");
	size_t n;

	if (fp == NULL)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

/* How many names DIR holds besides . and .. */
static int
entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d != NULL && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	if (d != NULL)
		closedir(d);
	return n;
}

int
main(void)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	char dir[] = "/tmp/t-file-write.XXXXXX", path[64], missing[96];
	struct stat st, like = { .st_mode = 0750 };

	test_plan(13);
	dpkg_program_init("t-file-write");
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(path, sizeof(path), "%s/report", dir);

	test_int(file_write_atomically(path, write_text, "one\n", &like,
	                               FILE_WRITE_SYNC, &err), ==, 0);
	test_str(slurp(path), ==, "one\n");
	test_ok(stat(path, &st) == 0 && (st.st_mode & 07777) == 0750);

	/* A writer's error: the old file as it was, nothing beside it. */
	test_int(file_write_atomically(path, write_half_then_fail, NULL, NULL,
	                               0, &err), ==, -1);
	test_ok(err.str != NULL && strstr(err.str, path) != NULL);
	dpkg_error_destroy(&err);
	test_str(slurp(path), ==, "one\n");
	test_int(entries(dir), ==, 1);

	test_int(output_replace(path, write_text, "two\n", &err), ==, 0);
	test_str(slurp(path), ==, "two\n");

	/* A directory that is not there: an error naming the file, no exit. */
	snprintf(missing, sizeof(missing), "%s/none/report", dir);
	test_int(output_replace(missing, write_text, "x", &err), ==, -1);
	test_ok(err.str != NULL && strstr(err.str, missing) != NULL);
	dpkg_error_destroy(&err);
	test_int(entries(dir), ==, 1);
	test_str(slurp(path), ==, "two\n");

	unlink(path);
	rmdir(dir);
	dpkg_program_done();
	return 0;
}
