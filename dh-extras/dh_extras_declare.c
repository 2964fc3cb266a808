/*
 * dh_extras_declare: ship debian/extras.yaml in every binary package, as
 * the control file DEBIAN/extras.yaml, so that the review gate can
 * generate the profile again and compare (run by dh after dh_installdeb).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <dpkg/dpkg.h>
#include <dpkg/atomic-file.h>
#include <dpkg/ehandle.h>

#include "namespace/declaration.h"
#include "dh/dh-helper.h"
#include "dh/dh-namespace.h"
#include "review/review.h"

#include "dh_extras_declare.usage.h"

#define NAME "dh_extras_declare"

static char *
read_declaration(size_t *len)
{
	FILE *fp = fopen(DH_DECLARATION, "r");
	char *text = NULL;
	size_t size = 0;
	ssize_t n;

	if (fp == NULL)
		ohshite("cannot open %s", DH_DECLARATION);
	n = getdelim(&text, &size, '\0', fp);
	if (n < 0 && ferror(fp))
		ohshite("cannot read %s", DH_DECLARATION);
	fclose(fp);
	*len = n < 0 ? 0 : (size_t)n;
	if (text == NULL)
		text = m_strdup("");
	return text;
}

static void
install(const struct dh_helper *h, const char *package, const char *text,
        size_t len)
{
	char dir[512], path[1024];
	struct atomic_file *file;

	dh_helper_tmpdir(h, package, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/DEBIAN/" REVIEW_DECLARATION, dir);
	dh_helper_show(h, "install -p -m0644 " DH_DECLARATION " %s", path);
	if (h->no_act)
		return;
	snprintf(path, sizeof(path), "%s/DEBIAN", dir);
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		ohshite("cannot create %s", path);
	snprintf(path, sizeof(path), "%s/DEBIAN/" REVIEW_DECLARATION, dir);
	file = atomic_file_new(path, ATOMIC_FILE_NORMAL);
	atomic_file_open(file);
	if (fchmod(fileno(file->fp), 0644) < 0)
		ohshite("cannot set the mode of %s", file->name_new);
	if (fwrite(text, 1, len, file->fp) != len)
		ohshite("cannot write %s", file->name_new);
	/* A staged build file: atomic, not synced (as debhelper). */
	atomic_file_close(file);
	atomic_file_commit(file);
	atomic_file_free(file);
}

int
main(int argc, char **argv)
{
	struct dh_helper h;
	struct declaration decl;
	struct extras_namespace ns;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *text;
	size_t i, len;

	dh_helper_init(&h, NAME, argc, argv, NULL, help_text);
	/* The declaration is shipped only as the helpers understood it. */
	if (dh_namespace_find(h.control.source, &decl, &ns, &err) < 0)
		ohshit("%s", err.str);
	if (!decl.present) {
		declaration_free(&decl);
		dh_helper_done(&h);
		return 0;
	}
	text = read_declaration(&len);
	for (i = 0; i < h.control.count; i++) {
		char dir[512];
		struct stat st;

		if (!h.act[i])
			continue;
		dh_helper_tmpdir(&h, h.control.packages[i].name, dir, sizeof(dir));
		if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		install(&h, h.control.packages[i].name, text, len);
	}
	free(text);
	declaration_free(&decl);
	dh_helper_done(&h);
	return 0;
}
