/*
 * dh_extras_launchers: start the programs of a namespace with its data
 * on XDG_DATA_DIRS (run by dh after dh_extras_icons).
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
#include <dpkg/ehandle.h>

#include "base/file-rewrite.h"
#include "base/path.h"
#include "namespace/declaration.h"
#include "dh/dh-helper.h"
#include "dh/dh-namespace.h"
#include "relocate/elf-read.h"
#include "relocate/launcher.h"

#include "dh_extras_launchers.usage.h"

#define NAME "dh_extras_launchers"

static const char *const program_dirs[] = {
	"bin", "sbin", "games", "libexec", NULL,
};

/* What GLib, GTK and Qt look up under XDG_DATA_DIRS, in NS/share. */
static const char *const xdg_data[] = {
	"icons", "pixmaps", "glib-2.0/schemas", "mime", "help", NULL,
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
 * a script, else nothing to do; *LANG the script's language.
 */
static enum program_kind
program_kind(const char *path, const struct stat *st,
             enum launcher_language *lang)
{
	static char head[65536];
	ssize_t n;
	int fd;

	*lang = LAUNCHER_NONE;
	if (!S_ISREG(st->st_mode) || !(st->st_mode & 0111))
		return NOT_A_PROGRAM;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		ohshite("cannot open %s", path);
	n = read(fd, head, sizeof(head));
	if (n < 0)
		ohshite("cannot read %s", path);
	close(fd);
	if (elf_is_program((unsigned char *)head, (size_t)n))
		return WRAPPED;
	if (n < 2 || memcmp(head, "#!", 2) != 0)
		return NOT_A_PROGRAM;
	if (launcher_is(head, (size_t)n))
		return LAUNCHER;
	*lang = launcher_language(head, (size_t)n);
	return *lang == LAUNCHER_NONE ? WRAPPED : GIVEN_A_LINE;
}

static void
write_launcher(const char *path, const char *script)
{
	FILE *fp = fopen(path, "wx");

	if (fp == NULL)
		ohshite("cannot create %s", path);
	if (fputs(script, fp) == EOF || fchmod(fileno(fp), 0755) < 0 ||
	    fclose(fp) != 0)
		ohshite("cannot write %s", path);
}

/* Give the script FILE, in language LANG, its line; whether it changed. */
static bool
give_line(const struct dh_helper *h, const char *file, char *datadir,
          enum launcher_language lang)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	int rc;

	if (!launcher_word_ok(datadir))
		ohshit("%s: cannot be named in a %s program", datadir,
		       launcher_language_name(lang));
	rc = file_rewrite(file, launcher_line_patch, datadir, h->no_act, &err);
	if (rc < 0)
		ohshit("%s", err.str);
	return rc > 0;
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

/*
 * The symlink NS/SUB/NAME (PATH in PKGDIR) to a program elsewhere in the
 * namespace (bin/app -> ../lib/app/app, as many apps install): a script
 * whose language has a line gets it in the file the link names; any
 * other program, the link becomes a launcher of the file it names.
 */
static void
launch_link(const struct dh_helper *h, const struct extras_namespace *ns,
            const char *pkgdir, const char *sub, const char *name,
            const char *path, char *datadir)
{
	char target[PATH_MAX], real[PATH_MAX], file[PATH_MAX + 1024];
	enum launcher_language lang;
	struct stat st;
	ssize_t n;
	char *script;
	int len;

	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		ohshite("cannot read the link %s", path);
	target[n] = '\0';
	if (target[0] == '/')
		len = snprintf(real, sizeof(real), "%s", target);
	else
		len = snprintf(real, sizeof(real), "%s/%s/%s", ns->path, sub,
		               target);
	if (len < 0 || (size_t)len >= sizeof(real))
		return;
	path_clean(real);
	if (!path_is_under(real, ns->path) || in_program_dir(ns, real))
		return;
	snprintf(file, sizeof(file), "%s%s", pkgdir, real);
	if (lstat(file, &st) < 0)
		return;
	switch (program_kind(file, &st, &lang)) {
	case NOT_A_PROGRAM:
	case LAUNCHER:
		return;
	case GIVEN_A_LINE:
		if (give_line(h, file, datadir, lang))
			dh_helper_info(h, "%s/%s/%s -> %s: a %s program, puts "
			               "%s first on XDG_DATA_DIRS itself",
			               ns->path, sub, name, real,
			               launcher_language_name(lang), datadir);
		return;
	case WRAPPED:
		break;
	}
	script = launcher_script(real, datadir);
	if (script == NULL)
		ohshit("%s: cannot be named in a shell script", real);
	dh_helper_show(h, "rm %s", path);
	if (!h->no_act) {
		if (unlink(path) < 0)
			ohshite("cannot remove %s", path);
		write_launcher(path, script);
	}
	dh_helper_info(h, "%s/%s/%s: was a link, runs %s with %s first on "
	               "XDG_DATA_DIRS", ns->path, sub, name, real, datadir);
	free(script);
}

/*
 * Each program of PKGDIR's NS/DIR becomes NS/DIR/.PROG behind a launcher,
 * or gets the line of its language.
 */
static void
launch_programs(const struct dh_helper *h, const struct extras_namespace *ns,
              const char *pkgdir, const char *sub)
{
	char dir[1024], path[2048], hidden[2048], real[2048], datadir[1024];
	struct dirent *d;
	struct stat st;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/%s/%s", pkgdir, ns->rel, sub);
	snprintf(datadir, sizeof(datadir), "%s/share", ns->path);
	dp = opendir(dir);
	if (dp == NULL)
		return;
	while ((d = readdir(dp)) != NULL) {
		enum launcher_language lang;
		char *script;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (lstat(path, &st) < 0)
			ohshite("cannot stat %s", path);
		if (S_ISLNK(st.st_mode)) {
			launch_link(h, ns, pkgdir, sub, d->d_name, path,
			            datadir);
			continue;
		}
		switch (program_kind(path, &st, &lang)) {
		case NOT_A_PROGRAM:
		case LAUNCHER:
			continue;
		case GIVEN_A_LINE:
			if (give_line(h, path, datadir, lang))
				dh_helper_info(h, "%s/%s/%s: a %s program, puts "
				               "%s first on XDG_DATA_DIRS itself",
				               ns->path, sub, d->d_name,
				               launcher_language_name(lang),
				               datadir);
			continue;
		case WRAPPED:
			break;
		}
		/* Renaming one name of a hard-linked file would leave the
		 * other running without the namespace's data. */
		if (st.st_nlink > 1) {
			dh_helper_info(h, "%s: hard-linked, not wrapped", path);
			continue;
		}
		snprintf(hidden, sizeof(hidden), "%s/.%s", dir, d->d_name);
		snprintf(real, sizeof(real), "%s/%s/.%s", ns->path, sub,
		         d->d_name);
		if (lstat(hidden, &st) == 0)
			ohshit("%s: cannot keep %s there, the package ships "
			       "that name", hidden, path);
		script = launcher_script(real, datadir);
		if (script == NULL)
			ohshit("%s: cannot be named in a shell script", real);
		dh_helper_show(h, "mv %s %s", path, hidden);
		if (!h->no_act) {
			if (rename(path, hidden) < 0)
				ohshite("cannot rename %s", path);
			write_launcher(path, script);
		}
		dh_helper_info(h, "%s/%s/%s: runs %s with %s first on "
		               "XDG_DATA_DIRS", ns->path, sub, d->d_name, real,
		               datadir);
		free(script);
	}
	closedir(dp);
}

static int
ships_xdg_data(const struct dh_helper *h, size_t index, const char *pkgdir,
               void *ns)
{
	(void)h;
	(void)index;
	return has_xdg_data(ns, pkgdir);
}

static int
launch_package(const struct dh_helper *h, size_t index, const char *pkgdir,
             void *ns)
{
	int k;

	(void)index;
	for (k = 0; program_dirs[k]; k++)
		launch_programs(h, ns, pkgdir, program_dirs[k]);
	return 0;
}

int
main(int argc, char **argv)
{
	struct dh_helper h;
	struct declaration decl;
	struct extras_namespace ns;
	struct dpkg_error err = DPKG_ERROR_INIT;

	dh_helper_init(&h, NAME, argc, argv, NULL, help_text);
	if (dh_namespace_find(h.control.source, &decl, &ns, &err) < 0)
		ohshit("%s", err.str);
	/* The packages of one source share the namespace and its data. */
	if (dh_helper_each_package(&h, DH_EACH_LISTED, ships_xdg_data, &ns))
		dh_helper_each_package(&h, DH_EACH_ACTED_ON, launch_package, &ns);
	declaration_free(&decl);
	dh_helper_done(&h);
	return 0;
}
