/*
 * dh_extras_check: the review gate at build time: check every finished
 * debian/PKG/ tree and its DEBIAN/ files (run by dh just before
 * dh_builddeb) and fail the build on any violation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "apparmor/apparmor-install.h"
#include "dh/dh-helper.h"
#include "review/review.h"

#include "dh_extras_check.usage.h"

#define NAME "dh_extras_check"

int
main(int argc, char **argv)
{
	struct review_options opt = { 0 };
	const char *root = EXTRAS_DEFAULT_ROOT, *why;
	const struct dh_option options[] = {
		{ "--root", true, &root, NULL },
		{ NULL, false, NULL, NULL },
	};
	struct dh_helper h;
	struct review r;
	struct dpkg_error err = DPKG_ERROR_INIT;
	size_t i, problems;

	dh_helper_init(&h, NAME, argc, argv, options, help_text);
	if ((why = namespace_check_root(root)) != NULL)
		ohshit("--root '%s' %s", root, why);
	opt.root = root;
	/* Who may hold a reserved privilege is the store's decision, made
	 * by extras-review; a build grants what is declared, as
	 * dh_extras_apparmor does. */
	opt.allow_reserved = true;
	opt.compile = true;
	opt.compile_stamps = APPARMOR_STAMPS;
	review_init(&r, &opt);
	for (i = 0; i < h.control.count; i++) {
		char dir[512];
		struct stat st;

		if (!h.act[i])
			continue;
		dh_helper_tmpdir(&h, h.control.packages[i].name, dir, sizeof(dir));
		if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if (review_add_tree(&r, dir, &err) < 0)
			ohshit("%s", err.str);
	}
	if (r.npackages > 0 && review_run(&r, &err) < 0)
		ohshit("%s", err.str);
	review_print(&r, NAME ": error: ", stderr);
	problems = r.nproblems;
	if (problems > 0)
		fprintf(stderr, NAME ": error: %zu problem%s: the store's review "
		        "would refuse %s\n", problems, problems == 1 ? "" : "s",
		        problems == 1 ? "this package" : "these packages");
	review_free(&r);
	dh_helper_done(&h);
	return problems > 0 ? 1 : 0;
}
