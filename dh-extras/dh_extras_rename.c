/*
 * dh_extras_rename: each binary package takes its extras name in its
 * generated DEBIAN/control and in debian/files, once dh_gencontrol has
 * written them; the maintainer's build ran under the names debian/control
 * gives (run by dh after dh_gencontrol).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/atomic-file.h>
#include <dpkg/ehandle.h>

#include "dh/dh-helper.h"
#include "dh/dh-rename.h"

#include "dh_extras_rename.usage.h"

#define NAME "dh_extras_rename"
#define FILES_LIST "debian/files"
/* Far more than a control file or debian/files of an app holds. */
#define RENAME_FILE_MAX (4 * 1024 * 1024)

/* PATH's text, or NULL when it does not exist. */
static char *
read_text(const char *path, size_t *len)
{
	char *text;
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NOFOLLOW);

	if (fd < 0) {
		if (errno == ENOENT)
			return NULL;
		ohshite("cannot open %s", path);
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		ohshit("%s is not a regular file", path);
	if (st.st_size > RENAME_FILE_MAX)
		ohshit("%s is larger than %d bytes", path, RENAME_FILE_MAX);
	text = m_malloc(st.st_size + 1);
	n = read(fd, text, st.st_size);
	if (n != st.st_size)
		ohshite("cannot read %s", path);
	close(fd);
	text[n] = '\0';
	*len = (size_t)n;
	return text;
}

static void
write_text(const struct dh_helper *h, const char *path, const char *text,
           mode_t mode)
{
	struct atomic_file *file;
	size_t len = strlen(text);

	if (h->no_act)
		return;
	file = atomic_file_new(path, ATOMIC_FILE_NORMAL);
	atomic_file_open(file);
	if (fchmod(fileno(file->fp), mode) < 0)
		ohshite("cannot set the mode of %s", file->name_new);
	if (fwrite(text, 1, len, file->fp) != len)
		ohshite("cannot write %s", file->name_new);
	/* A staged build file: atomic, not synced (as debhelper). */
	atomic_file_close(file);
	atomic_file_commit(file);
	atomic_file_free(file);
}

static void
rename_control(const struct dh_helper *h, const char *path,
               const struct dh_rename_set *set)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *text, *out;
	size_t len;

	text = read_text(path, &len);
	if (text == NULL)
		return;
	if (dh_rename_control(path, text, len, h->control.source, set, &out,
	                      &err) < 0)
		ohshit("%s", err.str);
	if (strcmp(text, out) != 0) {
		dh_helper_show(h, "rename the package in %s", path);
		write_text(h, path, out, 0644);
	}
	free(text);
	free(out);
}

static void
rename_files_list(const struct dh_helper *h, const struct dh_rename_set *set)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *text, *out;
	size_t len;

	text = read_text(FILES_LIST, &len);
	if (text == NULL)
		return;
	if (dh_rename_files_list(FILES_LIST, text, len, set, &out, &err) < 0)
		ohshit("%s", err.str);
	if (strcmp(text, out) != 0) {
		dh_helper_show(h, "rename the packages in %s", FILES_LIST);
		write_text(h, FILES_LIST, out, 0644);
	}
	free(text);
	free(out);
}

int
main(int argc, char **argv)
{
	struct dh_helper h;
	struct dh_rename_set set;
	const char **names;
	bool acted = false;
	size_t i;

	dh_helper_init(&h, NAME, argc, argv, NULL, help_text);
	names = m_malloc((h.control.count + 1) * sizeof(*names));
	for (i = 0; i < h.control.count; i++)
		names[i] = h.control.packages[i].name;
	set = (struct dh_rename_set){ .names = names, .n = h.control.count };
	/*
	 * First the names outside the source that each package provides:
	 * a sibling's need of one names the provider (all packages, acted
	 * on or not, as their controls are).
	 */
	for (i = 0; i < h.control.count; i++) {
		struct dpkg_error err = DPKG_ERROR_INIT;
		char dir[512], path[1024], *text;
		size_t len;

		dh_helper_tmpdir(&h, h.control.packages[i].name, dir,
		                 sizeof(dir));
		snprintf(path, sizeof(path), "%s/DEBIAN/control", dir);
		text = read_text(path, &len);
		if (text != NULL &&
		    dh_rename_virtuals(path, text, len, &set, &err) < 0)
			ohshit("%s", err.str);
		free(text);
	}
	for (i = 0; i < h.control.count; i++) {
		const char *package = h.control.packages[i].name;
		char dir[512], path[1024];

		if (!h.act[i])
			continue;
		acted = true;
		dh_helper_tmpdir(&h, package, dir, sizeof(dir));
		snprintf(path, sizeof(path), "%s/DEBIAN/control", dir);
		rename_control(&h, path, &set);
		snprintf(path, sizeof(path),
		         "debian/.debhelper/%s/dbgsym-root/DEBIAN/control",
		         package);
		rename_control(&h, path, &set);
	}
	if (acted)
		rename_files_list(&h, &set);
	for (i = 0; i < set.n_virtuals; i++) {
		free(set.virtuals[i]);
		free(set.providers[i]);
	}
	free(set.virtuals);
	free(set.providers);
	free(names);
	dh_helper_done(&h);
	return 0;
}
