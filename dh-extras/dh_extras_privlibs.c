/*
 * dh_extras_privlibs: the namespace's libraries are private to the app.
 * dh_makeshlibs describes them in DEBIAN/shlibs and DEBIAN/symbols so that
 * dh_shlibdeps computes the dependencies between the source's own packages
 * (jq on libjq1); once that is done, those files would offer the libraries
 * to every other package: remove them, and the ldconfig trigger
 * dh_makeshlibs generated (run by dh after dh_shlibdeps).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <dpkg/atomic-file.h>
#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>
#include <dpkg/varbuf.h>

#include "dh/dh-helper.h"

#include "dh_extras_privlibs.usage.h"

#define NAME "dh_extras_privlibs"

/* Where dh_makeshlibs leaves the ldconfig trigger for dh_installdeb. */
#define GENERATED_TRIGGERS "debian/.debhelper/generated/%s/triggers"
#define LDCONFIG_TRIGGER "activate-noawait ldconfig"

/*
 * Drop the ldconfig trigger dh_makeshlibs generated for PACKAGE (an
 * override may run dh_makeshlibs without the sequence's --no-scripts):
 * ldconfig's cache never sees the namespace.
 */
static void
drop_ldconfig_trigger(const struct dh_helper *h, const char *package)
{
	char path[4096], line[1024];
	struct varbuf kept = VARBUF_INIT;
	bool dropped = false, other = false;
	FILE *fp;

	snprintf(path, sizeof(path), GENERATED_TRIGGERS, package);
	fp = fopen(path, "r");
	if (fp == NULL)
		return;
	while (fgets(line, sizeof(line), fp)) {
		if (strcmp(line, LDCONFIG_TRIGGER "\n") == 0 ||
		    strcmp(line, LDCONFIG_TRIGGER) == 0) {
			dropped = true;
			continue;
		}
		if (line[0] != '#' && line[strspn(line, " \t\n")] != '\0')
			other = true;
		varbuf_add_str(&kept, line);
	}
	fclose(fp);
	if (dropped) {
		dh_helper_show(h, "sed -i '/^%s$/d' %s", LDCONFIG_TRIGGER, path);
		if (!h->no_act) {
			if (!other) {
				if (unlink(path) < 0)
					ohshite("cannot remove %s", path);
			} else {
				struct atomic_file *f = atomic_file_new(path, 0);

				atomic_file_open(f);
				fwrite(kept.buf, 1, kept.used, f->fp);
				atomic_file_sync(f);
				atomic_file_close(f);
				atomic_file_commit(f);
				atomic_file_free(f);
			}
		}
		dh_helper_info(h, "%s: the namespace's libraries are private "
		               "to the app: no ldconfig trigger", package);
	}
	varbuf_destroy(&kept);
}

int
main(int argc, char **argv)
{
	static const char *const files[] = { "shlibs", "symbols" };
	struct dh_helper h;
	size_t i, f;

	dh_helper_init(&h, NAME, argc, argv, NULL, help_text);
	for (i = 0; i < h.control.count; i++) {
		const char *package = h.control.packages[i].name;

		if (!h.act[i])
			continue;
		drop_ldconfig_trigger(&h, package);
		for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
			char dir[512], path[4096];

			dh_helper_tmpdir(&h, package, dir, sizeof(dir));
			snprintf(path, sizeof(path), "%s/DEBIAN/%s", dir,
			         files[f]);
			if (access(path, F_OK) < 0)
				continue;
			dh_helper_show(&h, "rm -f %s", path);
			if (!h.no_act && unlink(path) < 0)
				ohshite("cannot remove %s", path);
			dh_helper_info(&h, "%s: the namespace's libraries are "
			               "private to the app: no %s", package,
			               files[f]);
		}
	}
	dh_helper_done(&h);
	return 0;
}
