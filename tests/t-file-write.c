/*
 * Facts about the atomic writers: file_write_atomically, output_replace,
 * file_install.
 */
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
	char script[64], busy[64], inside[80];
	struct stat st, like = { .st_mode = 0750 };

	test_plan(23);
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

	/* file_install: the mode given, whatever the umask. */
	snprintf(script, sizeof(script), "%s/postinst", dir);
	umask(077);
	test_int(file_install(script, "#!/bin/sh\n", 10, 0755, &err), ==, 0);
	test_str(slurp(script), ==, "#!/bin/sh\n");
	test_ok(stat(script, &st) == 0 && (st.st_mode & 07777) == 0755);
	test_int(file_install(script, "set -e\n", 7, 0644, &err), ==, 0);
	test_str(slurp(script), ==, "set -e\n");
	test_ok(stat(script, &st) == 0 && (st.st_mode & 07777) == 0644);

	/* A directory in the way: libdpkg's error caught, naming the
	 * file, and nothing left beside it. */
	snprintf(busy, sizeof(busy), "%s/busy", dir);
	snprintf(inside, sizeof(inside), "%s/x", busy);
	mkdir(busy, 0755);
	mkdir(inside, 0755);
	test_int(file_install(busy, "x", 1, 0644, &err), ==, -1);
	test_ok(err.str != NULL && strstr(err.str, busy) != NULL);
	dpkg_error_destroy(&err);
	test_int(entries(dir), ==, 3);
	test_int(entries(busy), ==, 1);

	rmdir(inside);
	rmdir(busy);
	unlink(script);
	unlink(path);
	rmdir(dir);
	dpkg_program_done();
	return 0;
}
