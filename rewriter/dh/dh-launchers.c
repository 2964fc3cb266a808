/*
 * dh-launchers.c: start the programs of a namespace with its data on
 * XDG_DATA_DIRS (dh_extras_launchers).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/error.h>

#include "base/file-rewrite.h"
#include "base/path.h"
#include "dh/dh-launchers.h"
#include "relocate/elf-read.h"
#include "relocate/launcher.h"

static const char *const program_dirs[] = {
	"bin", "sbin", "games", "libexec", NULL,
};

/* What GLib, GTK and Qt look up under XDG_DATA_DIRS, in NS/share. */
static const char *const xdg_data[] = {
	"icons", "pixmaps", "glib-2.0/schemas", "mime", "help", NULL,
};

/* What each package's walk needs. */
struct launch {
	const struct extras_namespace *ns;
	struct dpkg_error *err;
};

static bool
is_dir(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether PKGDIR ships data of the namespace found through XDG_DATA_DIRS. */
static bool
has_xdg_data(const struct extras_namespace *ns, const char *pkgdir)
{
	char dir[2048];
	int i;

	for (i = 0; xdg_data[i]; i++) {
		snprintf(dir, sizeof(dir), "%s/%s/share/%s", pkgdir, ns->rel,
		         xdg_data[i]);
		if (is_dir(dir))
			return true;
	}
	return false;
}

enum program_kind {
	NOT_A_PROGRAM,
	WRAPPED,	/* compiled, or a script of another interpreter */
	GIVEN_A_LINE,	/* a script whose language says it in a line */
	LAUNCHER,	/* a launcher already (a second run) */
};

/*
 * What PATH is (see launcher.h): an executable regular file, compiled or
 * a script, else nothing to do; *LANG the script's language.  0, or -1
 * with ERR when PATH cannot be read.
 */
static int
program_kind(const char *path, const struct stat *st,
             enum program_kind *kind, enum launcher_language *lang,
             struct dpkg_error *err)
{
	static char head[65536];
	ssize_t n;
	int fd;

	*kind = NOT_A_PROGRAM;
	*lang = LAUNCHER_NONE;
	if (!S_ISREG(st->st_mode) || !(st->st_mode & 0111))
		return 0;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return dpkg_put_error(err, "cannot open %s: %s", path,
		                      strerror(errno));
	n = read(fd, head, sizeof(head));
	if (n < 0) {
		dpkg_put_error(err, "cannot read %s: %s", path,
		               strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	if (elf_is_program((unsigned char *)head, (size_t)n))
		*kind = WRAPPED;
	else if (n < 2 || memcmp(head, "#!", 2) != 0)
		*kind = NOT_A_PROGRAM;
	else if (launcher_is(head, (size_t)n))
		*kind = LAUNCHER;
	else {
		*lang = launcher_language(head, (size_t)n);
		*kind = *lang == LAUNCHER_NONE ? WRAPPED : GIVEN_A_LINE;
	}
	return 0;
}

static int
write_launcher(const char *path, const char *script, struct dpkg_error *err)
{
	FILE *fp = fopen(path, "wx");

	if (fp == NULL)
		return dpkg_put_error(err, "cannot create %s: %s", path,
		                      strerror(errno));
	if (fputs(script, fp) == EOF || fchmod(fileno(fp), 0755) < 0) {
		dpkg_put_error(err, "cannot write %s: %s", path,
		               strerror(errno));
		fclose(fp);
		return -1;
	}
	if (fclose(fp) != 0)
		return dpkg_put_error(err, "cannot write %s: %s", path,
		                      strerror(errno));
	return 0;
}

/*
 * Give the script FILE, in language LANG, its line: 1 when it changed,
 * 0 when it had it, -1 with ERR.
 */
static int
give_line(const struct dh_helper *h, const char *file, char *datadir,
          enum launcher_language lang, struct dpkg_error *err)
{
	if (!launcher_word_ok(datadir))
		return dpkg_put_error(err, "%s: cannot be named in a %s "
		                      "program", datadir,
		                      launcher_language_name(lang));
	return file_rewrite(file, launcher_line_patch, datadir, h->no_act,
	                    err);
}

/* Whether the installed PATH is in one of the namespace's program
 * directories, whose programs this helper visits themselves. */
static bool
in_program_dir(const struct extras_namespace *ns, const char *path)
{
	char dir[1024];
	int k;

	for (k = 0; program_dirs[k]; k++) {
		snprintf(dir, sizeof(dir), "%s/%s", ns->path, program_dirs[k]);
		if (path_is_under(path, dir))
			return true;
	}
	return false;
}

/* A file to launch, named NS/SUB/NAME. */
struct program {
	const char *sub, *name;
	/* NS/SUB/NAME in the package, in its directory DIR. */
	const char *path, *dir;
	/* The program's file in the package and its stat. */
	const char *file;
	const struct stat *st;
	/* When PATH is a link to FILE: FILE's installed path, else NULL. */
	const char *link;
};

/*
 * The program P, compiled or of another interpreter, behind a launcher
 * at P's PATH: a link is replaced by it, a file moved to NS/SUB/.NAME.
 */
static int
wrap(const struct dh_helper *h, const struct extras_namespace *ns,
     const struct program *p, char *datadir, struct dpkg_error *err)
{
	char hidden[2048], hidden_real[2048];
	const char *runs = p->link;
	struct stat hidden_st;
	char *script;

	if (p->link == NULL) {
		/* Renaming one name of a hard-linked file would leave the
		 * other running without the namespace's data. */
		if (p->st->st_nlink > 1) {
			dh_helper_info(h, "%s: hard-linked, not wrapped",
			               p->path);
			return 0;
		}
		snprintf(hidden, sizeof(hidden), "%s/.%s", p->dir, p->name);
		snprintf(hidden_real, sizeof(hidden_real), "%s/%s/.%s",
		         ns->path, p->sub, p->name);
		if (lstat(hidden, &hidden_st) == 0)
			return dpkg_put_error(err, "%s: cannot keep %s there, "
			                      "the package ships that name",
			                      hidden, p->path);
		runs = hidden_real;
	}
	script = launcher_script(runs, datadir);
	if (script == NULL)
		return dpkg_put_error(err, "%s: cannot be named in a shell "
		                      "script", runs);
	if (p->link != NULL)
		dh_helper_show(h, "rm %s", p->path);
	else
		dh_helper_show(h, "mv %s %s", p->path, hidden);
	if (!h->no_act) {
		if (p->link != NULL && unlink(p->path) < 0) {
			dpkg_put_error(err, "cannot remove %s: %s", p->path,
			               strerror(errno));
			free(script);
			return -1;
		}
		if (p->link == NULL && rename(p->path, hidden) < 0) {
			dpkg_put_error(err, "cannot rename %s: %s", p->path,
			               strerror(errno));
			free(script);
			return -1;
		}
		if (write_launcher(p->path, script, err) < 0) {
			free(script);
			return -1;
		}
	}
	dh_helper_info(h, "%s/%s/%s: %sruns %s with %s first on "
	               "XDG_DATA_DIRS", ns->path, p->sub, p->name,
	               p->link != NULL ? "was a link, " : "", runs, datadir);
	free(script);
	return 0;
}

/*
 * Launch one program P: a script whose language has a line gets it in
 * its file, any other program goes behind a launcher (wrap()).
 */
static int
launch_file(const struct dh_helper *h, const struct extras_namespace *ns,
            const struct program *p, char *datadir, struct dpkg_error *err)
{
	enum program_kind kind;
	enum launcher_language lang;
	int rc;

	if (program_kind(p->file, p->st, &kind, &lang, err) < 0)
		return -1;
	switch (kind) {
	case NOT_A_PROGRAM:
	case LAUNCHER:
		return 0;
	case GIVEN_A_LINE:
		rc = give_line(h, p->file, datadir, lang, err);
		if (rc > 0)
			dh_helper_info(h, "%s/%s/%s%s%s: a %s program, puts "
			               "%s first on XDG_DATA_DIRS itself",
			               ns->path, p->sub, p->name,
			               p->link != NULL ? " -> " : "",
			               p->link != NULL ? p->link : "",
			               launcher_language_name(lang), datadir);
		return rc < 0 ? -1 : 0;
	case WRAPPED:
		break;
	}
	return wrap(h, ns, p, datadir, err);
}

/*
 * The symlink NS/SUB/NAME (PATH in PKGDIR's directory DIR) to a program
 * elsewhere in the namespace (bin/app -> ../lib/app/app, as many apps
 * install), launched as the file it names.
 */
static int
launch_link(const struct dh_helper *h, const struct extras_namespace *ns,
            const char *pkgdir, const char *dir, const char *sub,
            const char *name, const char *path, char *datadir,
            struct dpkg_error *err)
{
	char target[PATH_MAX], real[PATH_MAX], file[PATH_MAX + 1024];
	struct stat st;
	ssize_t n;
	int len;

	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return dpkg_put_error(err, "cannot read the link %s: %s", path,
		                      strerror(errno));
	target[n] = '\0';
	if (target[0] == '/')
		len = snprintf(real, sizeof(real), "%s", target);
	else
		len = snprintf(real, sizeof(real), "%s/%s/%s", ns->path, sub,
		               target);
	if (len < 0 || (size_t)len >= sizeof(real))
		return 0;
	path_clean(real);
	if (!path_is_under(real, ns->path) || in_program_dir(ns, real))
		return 0;
	snprintf(file, sizeof(file), "%s%s", pkgdir, real);
	if (lstat(file, &st) < 0)
		return 0;
	return launch_file(h, ns, &(struct program){ sub, name, path, dir,
	                   file, &st, real }, datadir, err);
}

/* Each program of PKGDIR's NS/SUB, or link to one elsewhere. */
static int
launch_programs(const struct dh_helper *h, const struct extras_namespace *ns,
                const char *pkgdir, const char *sub, struct dpkg_error *err)
{
	char dir[1024], path[2048], datadir[1024];
	struct dirent *d;
	struct stat st;
	int rc = 0;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/%s/%s", pkgdir, ns->rel, sub);
	snprintf(datadir, sizeof(datadir), "%s/share", ns->path);
	dp = opendir(dir);
	if (dp == NULL)
		return 0;
	while (rc == 0 && (d = readdir(dp)) != NULL) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (lstat(path, &st) < 0)
			rc = dpkg_put_error(err, "cannot stat %s: %s", path,
			                    strerror(errno));
		else if (S_ISLNK(st.st_mode))
			rc = launch_link(h, ns, pkgdir, dir, sub, d->d_name,
			                 path, datadir, err);
		else
			rc = launch_file(h, ns, &(struct program){ sub,
			                 d->d_name, path, dir, path, &st, NULL },
			                 datadir, err);
	}
	closedir(dp);
	return rc;
}

static int
ships_xdg_data(const struct dh_helper *h, size_t index, const char *pkgdir,
               void *ctx)
{
	const struct launch *l = ctx;

	(void)h;
	(void)index;
	return has_xdg_data(l->ns, pkgdir);
}

static int
launch_package(const struct dh_helper *h, size_t index, const char *pkgdir,
               void *ctx)
{
	const struct launch *l = ctx;
	int k;

	(void)index;
	for (k = 0; program_dirs[k]; k++)
		if (launch_programs(h, l->ns, pkgdir, program_dirs[k],
		                    l->err) < 0)
			return -1;
	return 0;
}

int
dh_launchers(const struct dh_helper *h, const struct extras_namespace *ns,
             struct dpkg_error *err)
{
	struct launch l = { ns, err };

	/* The packages of one source share the namespace and its data. */
	if (!dh_helper_each_package(h, DH_EACH_LISTED, ships_xdg_data, &l))
		return 0;
	return dh_helper_each_package(h, DH_EACH_ACTED_ON, launch_package,
	                              &l);
}
