/*
 * dh-programs.c: the programs a package ships in the namespace's program
 * directories.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <dpkg/error.h>

#include "dh/dh-programs.h"

static const char *const program_dirs[] = {
	"bin", "sbin", "games", "libexec", NULL,
};

/* FN with PATH's head when PATH is a regular file; 0, or -1. */
static int
visit(const char *path, dh_program_fn *fn, void *ctx, struct dpkg_error *err)
{
	char head[DH_PROGRAM_HEAD];
	struct stat st;
	size_t n;
	FILE *fp;

	if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	fp = fopen(path, "r");
	if (fp == NULL)
		return dpkg_put_error(err, "cannot open %s: %s", path,
		                      strerror(errno));
	n = fread(head, 1, sizeof(head), fp);
	fclose(fp);
	return fn(path, head, n, ctx);
}

int
dh_programs_each(const struct extras_namespace *ns, const char *pkgdir,
                 dh_program_fn *fn, void *ctx, struct dpkg_error *err)
{
	char dir[1024], path[2048];
	struct dirent *d;
	int rc = 0;
	size_t i;
	DIR *dp;

	for (i = 0; rc == 0 && program_dirs[i]; i++) {
		snprintf(dir, sizeof(dir), "%s/%s/%s", pkgdir, ns->rel,
		         program_dirs[i]);
		dp = opendir(dir);
		if (dp == NULL)
			continue;
		while (rc == 0 && (d = readdir(dp)) != NULL) {
			snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
			rc = visit(path, fn, ctx, err);
		}
		closedir(dp);
	}
	return rc;
}
