/*
 * dh_extras_scripts: give every binary package the maintainer scripts
 * dh-extras generates, and only those (run by dh after dh_installdeb).
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

#include "apparmor/profile.h"
#include "base/datadir.h"
#include "dh/dh-helper.h"
#include "namespace/identity.h"
#include "dh/dh-namespace.h"
#include "namespace/declaration.h"
#include "scripts/maintscript-generate.h"

#include "dh_extras_scripts.usage.h"

#define NAME "dh_extras_scripts"
#define PROFILE_DIR "etc/apparmor.d"

/* PATH's contents, or NULL when there is no such file. */
static char *
read_script(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "r");
	char *text = NULL;
	size_t size = 0;
	ssize_t n;

	if (fp == NULL && errno == ENOENT)
		return NULL;
	if (fp == NULL)
		ohshite("cannot open %s", path);
	n = getdelim(&text, &size, '\0', fp);
	if (n < 0 && ferror(fp))
		ohshite("cannot read %s", path);
	fclose(fp);
	*len = n < 0 ? 0 : (size_t)n;
	if (text == NULL)
		text = m_strdup("");
	return text;
}

/* Replace PATH atomically with TEXT, mode 0755, as dh_installdeb. */
static void
write_script(const char *path, const char *text)
{
	struct atomic_file *file = atomic_file_new(path, ATOMIC_FILE_NORMAL);
	size_t len = strlen(text);

	atomic_file_open(file);
	if (fchmod(fileno(file->fp), 0755) < 0)
		ohshite("cannot set the mode of %s", file->name_new);
	if (fwrite(text, 1, len, file->fp) != len)
		ohshite("cannot write %s", file->name_new);
	/* A staged build file: atomic, not synced (as debhelper). */
	atomic_file_close(file);
	atomic_file_commit(file);
	atomic_file_free(file);
}

/*
 * What the script dh_installdeb wrote held, for the author: its first
 * line that is neither the #! line, blank, "set -e" nor "exit 0".
 */
static void
describe(const char *text, char *buf, size_t size)
{
	const char *p = text;

	buf[0] = '\0';
	while (*p) {
		size_t n = strcspn(p, "\n"), b = strspn(p, " \t");

		if (b < n && strncmp(p + b, "#!", 2) != 0 &&
		    !(n - b == 6 && strncmp(p + b, "set -e", 6) == 0) &&
		    !(n - b == 6 && strncmp(p + b, "exit 0", 6) == 0)) {
			snprintf(buf, size, "%.*s", (int)(n - b > 72 ? 72 :
			         n - b), p + b);
			return;
		}
		p += n + (p[n] == '\n');
	}
}

static void
write_scripts(const struct dh_helper *h, const char *package,
              const char *profile)
{
	struct maintscripts s;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char templates[4096], dir[512], path[1024], ship[1024];
	struct stat st;
	int k;

	dh_helper_tmpdir(h, package, dir, sizeof(dir));
	snprintf(ship, sizeof(ship), "%s/" PROFILE_DIR "/%s", dir, profile);
	if (lstat(ship, &st) < 0 || !S_ISREG(st.st_mode))
		profile = NULL;
	snprintf(templates, sizeof(templates), "%s/templates",
	         dh_extras_datadir());
	{
		/* The scripts are the .deb's, which has the extras name
		 * (dh_extras_rename gives it at the edge). */
		char *renamed = identity_renamed(package);

		if (maintscripts_generate(&s, templates, renamed, profile,
		                          &err) < 0)
			ohshit("%s", err.str);
		free(renamed);
	}
	for (k = 0; k < MAINTSCRIPT_KINDS; k++) {
		char *had, what[80];
		size_t len = 0;

		snprintf(path, sizeof(path), "%s/DEBIAN/%s", dir,
		         maintscript_names[k]);
		had = read_script(path, &len);
		if (had != NULL && s.text[k] != NULL &&
		    strlen(s.text[k]) == len &&
		    memcmp(had, s.text[k], len) == 0) {
			free(had);
			continue;
		}
		if (had != NULL) {
			describe(had, what, sizeof(what));
			dh_helper_info(h, "%s: replaced by the one dh-extras "
			               "generates%s%s%s", path, what[0] ?
			               " (it held `" : "", what, what[0] ?
			               "`)" : "");
		}
		free(had);
		if (s.text[k] == NULL) {
			dh_helper_show(h, "rm -f %s", path);
			if (!h->no_act && unlink(path) < 0 && errno != ENOENT)
				ohshite("cannot remove %s", path);
			continue;
		}
		dh_helper_show(h, "install -m0755 (generated) %s", path);
		if (h->no_act)
			continue;
		snprintf(path, sizeof(path), "%s/DEBIAN", dir);
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			ohshite("cannot create %s", path);
		snprintf(path, sizeof(path), "%s/DEBIAN/%s", dir,
		         maintscript_names[k]);
		write_script(path, s.text[k]);
	}
	maintscripts_free(&s);
}

int
main(int argc, char **argv)
{
	struct dh_helper h;
	struct declaration decl;
	struct extras_namespace ns;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char profile[PROFILE_NAME_MAX + 1];
	size_t i;

	dh_helper_init(&h, NAME, argc, argv, NULL, help_text);
	if (h.no_scripts) {
		/* As debhelper's -n: the scripts are left alone, and the
		 * gate refuses any but the generated ones. */
		dh_helper_done(&h);
		return 0;
	}
	if (dh_namespace_find(h.control.source, &decl, &ns, &err) < 0)
		ohshit("%s", err.str);
	if (profile_name(&ns, profile, sizeof(profile)) < 0)
		ohshit("namespace %s is too long for a profile name", ns.path);
	for (i = 0; i < h.control.count; i++) {
		char dir[512];
		struct stat st;

		if (!h.act[i])
			continue;
		dh_helper_tmpdir(&h, h.control.packages[i].name, dir,
		                 sizeof(dir));
		if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		write_scripts(&h, h.control.packages[i].name, profile);
	}
	declaration_free(&decl);
	dh_helper_done(&h);
	return 0;
}
