/* Facts about reading Contents files and the index built from them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tests/tap.h"
#include "conflicts/contents-exports.h"
#include "conflicts/contents-index.h"

static char dir[] = "/tmp/t-contents.XXXXXX";
static char found[256];

static void
keep(void *ctx, const char *packages, size_t len)
{
	(void)ctx;
	snprintf(found, sizeof(found), "%.*s", (int)len, packages);
}

/* The packages shipping PATH in IDX ("" when none), after COUNT hits. */
static const char *
who(const struct contents_index *idx, const char *path, int count)
{
	found[0] = '\0';
	if (contents_index_find(idx, path, keep, NULL) != count)
		return "(wrong count)";
	return found;
}

static const char contents[] =
	"Free text before the table\n"
	"\n"
	"FILE                          LOCATION\n"
	"usr/bin/hello                 devel/hello\n"
	"usr/share/doc/hello/copyright devel/hello,universe/devel/hello-x\n"
	"usr/share/doc/extras-a/copyright devel/hello,universe/devel/hello-x\n"
	"usr/share/icons/My Dir/extras-a file.png   misc/spaces\n"
	"/usr/share/dbus-1/services/slash\t\tutils/slash\n"
	"usr/share/doc/extras-a/copyright utils/hello-again\n"
	"nopackage\n"
	"usr/bin/bad                   Bad_Package\n"
	"usr/bin/comma                 utils/x,\n";

int
main(void)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct contents_builder *b;
	struct contents_index *idx;
	const struct contents_stats *st;
	const char *files[1];
	char path[256], idxpath[256], cmd[512];
	size_t n;
	FILE *fp;
	int i;

	test_plan(49);

	/* Kept: what the gate may accept outside a namespace, no more. */
	test_ok(contents_is_export("usr/share/doc/extras-a/copyright", 32));
	test_ok(contents_is_export("usr/share/lintian/overrides/extras-a", 36));
	test_ok(contents_is_export("usr/share/applications/extras-a.desktop",
	                           39));
	test_ok(contents_is_export("usr/share/icons/hicolor/48x48/apps/"
	                           "extras-a.png", 47));
	test_ok(contents_is_export("usr/share/pixmaps/extras-a.xpm", 30));
	test_ok(contents_is_export("usr/share/metainfo/extras-a.xml", 31));
	test_ok(contents_is_export("usr/share/dbus-1/services/org.a.service",
	                           39));
	test_ok(contents_is_export("etc/apparmor.d/extras.a", 23));
	test_ok(!contents_is_export("usr/share/doc/hello/copyright", 29));
	test_ok(!contents_is_export("usr/share/doc/extras-", 21));
	test_ok(!contents_is_export("usr/share/applications/a.desktop", 32));
	test_ok(!contents_is_export("usr/share/icons/extras-a/a.png", 30));
	test_ok(!contents_is_export("usr/bin/extras-a", 16));
	test_ok(!contents_is_export("usr/share/", 10));
	test_ok(!contents_is_export("etc/apparmor.d/", 15));

	test_str(contents_item_package("universe/games/foo", 18, &n), ==,
	         "foo");
	test_int(n, ==, 3);
	test_str(contents_item_package("foo", 3, &n), ==, "foo");
	test_ok(contents_hash("usr/bin/a", 9) == contents_hash("usr/bin/a", 9));
	test_ok(contents_hash("usr/bin/a", 9) != contents_hash("usr/bin/b", 9));

	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(path, sizeof(path), "%s/Contents", dir);
	snprintf(idxpath, sizeof(idxpath), "%s/test.idx", dir);
	fp = fopen(path, "w");
	fputs(contents, fp);
	/* Enough entries for several blocks and front coding. */
	for (i = 0; i < 1000; i++)
		fprintf(fp, "usr/share/%s/extras-file%04d   misc/many%d\n",
		        i % 2 ? "pixmaps" : "nothere", i, i % 7);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "xz -k %s", path);
	test_int(system(cmd), ==, 0);

	b = contents_builder_new("test", idxpath, &err);
	files[0] = path;
	strcat(path, ".xz");
	test_int(contents_builder_add(b, files, 1, &err), ==, 0);
	st = contents_builder_stats(b);
	test_int(st->entries, ==, 1006);
	test_int(st->kept, ==, 504);
	test_int(st->bad_lines, ==, 3);
	test_int(st->headers, ==, 1);
	test_int(contents_builder_write(b, &err), ==, 0);
	contents_builder_free(b);

	test_int(contents_index_open(&idx, idxpath, &err), ==, 0);
	test_str(contents_index_label(idx), ==, "test");
	test_int(contents_index_entries(idx), ==, 504);
	test_str(who(idx, "usr/share/icons/My Dir/extras-a file.png", 1), ==,
	         "spaces");
	test_str(who(idx, "usr/share/dbus-1/services/slash", 1), ==, "slash");
	test_str(who(idx, "usr/share/pixmaps/extras-file0999", 1), ==, "many5");
	test_str(who(idx, "usr/share/pixmaps/extras-file0501", 1), ==, "many4");
	test_int(contents_index_find(idx, "usr/share/doc/extras-a/copyright",
	                             keep, NULL), ==, 2);
	/* Not exports: not kept, their packages still known. */
	test_str(who(idx, "usr/share/doc/hello/copyright", 0), ==, "");
	test_str(who(idx, "usr/bin/hello", 0), ==, "");
	test_str(who(idx, "usr/share/nothere/extras-file0500", 0), ==, "");
	test_ok(contents_index_has_package(idx, "hello"));
	test_ok(contents_index_has_package(idx, "many3"));
	test_str(who(idx, "usr/bin/bad", 0), ==, "");
	test_str(who(idx, "FILE", 0), ==, "");
	test_ok(contents_index_has_package(idx, "hello-x"));
	test_ok(contents_index_has_package(idx, "many6"));
	test_ok(!contents_index_has_package(idx, "devel"));
	test_ok(!contents_index_has_package(idx, "hell"));
	contents_index_close(idx);

	snprintf(cmd, sizeof(cmd), "truncate -s -8 %s", idxpath);
	test_int(system(cmd), ==, 0);
	test_int(contents_index_open(&idx, idxpath, &err), ==, -1);
	test_ok(err.str && strstr(err.str, "not a Contents index") != NULL);
	dpkg_error_destroy(&err);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	return test_done();
}
