/* Facts about reading Contents files and the index built from them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tests/tap.h"
#include "conflicts/contents-index.h"

/* The whole of PATH a directory of the index. */
#define is_directory(idx, path) \
	contents_index_is_directory(idx, path, strlen(path))

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
	if (contents_index_find(idx, path, keep, NULL, NULL) != count)
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
	/* The line before's directory holds a blank; a path after "./",
	 * an empty name, a list before CR LF and one before blanks. */
	"usr/share/icons/My Dir/sub/b.png   misc/spaces2\n"
	"./usr/lib/dotted/x   libs/dotted\n"
	"usr/lib/a//b   libs/ab\n"
	"usr/lib/crlf   libs/crlf\r\n"
	"usr/lib/trail   libs/trail \t\n"
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
	const char *files[2];
	char path[256], path2[256], idxpath[256], cmd[512];
	size_t n;
	FILE *fp;
	int version = 0;
	int i;

	test_plan(61);

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
	/* A NUL in a path, in paths of each length the hash reads apart:
	 * bad lines, their directories not indexed either.  "nl" ends less
	 * than 16 bytes before the next line's NUL: that NUL is not its. */
	{
		static const char nuls[] =
			"nl   utils/nl\n"
			"a\0b   utils/nul\n"
			"ab\0cd   utils/nul\n"
			"opt/nulldir/x\0y   utils/nul\n"
			"opt/nulldir/sub/a-longer-name\0here   utils/nul\n";

		fwrite(nuls, 1, sizeof(nuls) - 1, fp);
	}
	/* Enough entries for several blocks and front coding. */
	for (i = 0; i < 1000; i++)
		fprintf(fp, "usr/share/%s/extras-file%04d   misc/many%d\n",
		        i % 2 ? "pixmaps" : "nothere", i, i % 7);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "xz -k %s", path);
	test_int(system(cmd), ==, 0);

	/* A second file, plain: one archive from both. */
	snprintf(path2, sizeof(path2), "%s/Contents-more", dir);
	fp = fopen(path2, "w");
	fputs("usr/bin/more   utils/more\n", fp);
	fclose(fp);

	b = contents_builder_new("test", idxpath, &err);
	files[0] = path;
	files[1] = path2;
	strcat(path, ".xz");
	test_int(contents_builder_add(b, files, 2, &err), ==, 0);
	st = contents_builder_stats(b);
	test_int(st->entries, ==, 1013);
	test_int(st->bad_lines, ==, 7);
	test_int(st->headers, ==, 1);
	test_int(contents_builder_write(b, &err), ==, 0);
	contents_builder_free(b);

	/* The same lines give the same bytes: built again, and from the
	 * files in the other order (the lists then met in another). */
	for (i = 0; i < 2; i++) {
		const char *again[2] = { files[i], files[1 - i] };
		char other[300], cmp[640];

		snprintf(other, sizeof(other), "%s.%d", idxpath, i);
		b = contents_builder_new("test", other, &err);
		contents_builder_add(b, again, 2, &err);
		contents_builder_write(b, &err);
		contents_builder_free(b);
		snprintf(cmp, sizeof(cmp), "cmp -s %s %s", idxpath, other);
		test_int(system(cmp), ==, 0);
	}

	test_int(contents_index_open(&idx, idxpath, &err), ==, 0);
	test_str(contents_index_label(idx), ==, "test");
	test_int(contents_index_entries(idx), ==, 1013);
	test_str(who(idx, "usr/share/icons/My Dir/extras-a file.png", 1), ==,
	         "spaces");
	test_str(who(idx, "usr/share/dbus-1/services/slash", 1), ==, "slash");
	test_str(who(idx, "usr/share/icons/My Dir/sub/b.png", 1), ==,
	         "spaces2");
	test_ok(is_directory(idx, "usr/share/icons/My Dir/sub"));
	test_str(who(idx, "usr/lib/dotted/x", 1), ==, "dotted");
	test_str(who(idx, "usr/lib/a//b", 1), ==, "ab");
	test_ok(is_directory(idx, "usr/lib/a/"));
	test_ok(is_directory(idx, "usr/lib/a"));
	test_str(who(idx, "usr/lib/crlf", 1), ==, "crlf");
	test_str(who(idx, "usr/lib/trail", 1), ==, "trail");
	test_str(who(idx, "usr/share/pixmaps/extras-file0999", 1), ==, "many5");
	test_str(who(idx, "usr/share/pixmaps/extras-file0501", 1), ==, "many4");
	/* Every one of them: slots near the buckets' ends included. */
	for (i = 0, n = 0; i < 1000; i++) {
		char many[64], want[16];

		snprintf(many, sizeof(many), "usr/share/%s/extras-file%04d",
		         i % 2 ? "pixmaps" : "nothere", i);
		snprintf(want, sizeof(want), "many%d", i % 7);
		n += strcmp(who(idx, many, 1), want) == 0;
	}
	test_int(n, ==, 1000);
	test_ok(is_directory(idx, "usr/share/nothere"));
	test_int(contents_index_find(idx, "usr/share/doc/extras-a/copyright",
	                             keep, NULL, NULL), ==, 2);
	/* Every path, any file, and the directories they lie in. */
	test_str(who(idx, "usr/share/doc/hello/copyright", 1), ==,
	         "hello,hello-x");
	test_str(who(idx, "usr/bin/hello", 1), ==, "hello");
	test_str(who(idx, "usr/bin/more", 1), ==, "more");
	test_str(who(idx, "nl", 1), ==, "nl");
	test_str(who(idx, "usr/share/nothere/extras-file0500", 1), ==,
	         "many3");
	test_str(who(idx, "usr/share/doc/hello", 0), ==, "");
	test_ok(is_directory(idx, "usr"));
	test_ok(is_directory(idx, "usr/share/doc/hello"));
	/* The first LEN bytes only: a file's directory, as a check asks. */
	test_ok(contents_index_is_directory(idx, "usr/share/doc/hello/copyright",
	                                    strlen("usr/share/doc/hello")));
	test_ok(!contents_index_is_directory(idx, "usr/share/doc/hello/copyright",
	                                     strlen("usr/share/doc/hel")));
	test_ok(is_directory(idx, "usr/share/icons/My Dir"));
	test_ok(!is_directory(idx, "usr/bin/hello"));
	test_ok(!is_directory(idx, "usr/share/do"));
	test_ok(contents_index_has_package(idx, "hello"));
	test_ok(contents_index_has_package(idx, "many3"));
	test_str(who(idx, "usr/bin/bad", 0), ==, "");
	test_str(who(idx, "FILE", 0), ==, "");
	test_ok(contents_index_has_package(idx, "hello-x"));
	test_ok(contents_index_has_package(idx, "many6"));
	test_ok(!contents_index_has_package(idx, "devel"));
	test_ok(!contents_index_has_package(idx, "hell"));
	test_ok(!contents_index_has_package(idx, "nul"));
	test_ok(!is_directory(idx, "opt/nulldir"));
	for (i = 0, n = 0; i < 7; i++) {
		char many[16];

		snprintf(many, sizeof(many), "many%d", i);
		n += contents_index_has_package(idx, many);
	}
	test_int(n, ==, 7);
	contents_index_close(idx);

	/* An index of an older format: named as such. */
	fp = fopen(idxpath, "r+");
	test_ok(fp != NULL && fseek(fp, 7, SEEK_SET) == 0 &&
	        (version = fgetc(fp)) != EOF && fseek(fp, 7, SEEK_SET) == 0 &&
	        fputc('2', fp) == '2' && fclose(fp) == 0);
	test_int(contents_index_open(&idx, idxpath, &err), ==, -1);
	test_ok(err.str && strstr(err.str, "older or newer format: index the "
	                          "archive again") != NULL);
	dpkg_error_destroy(&err);
	fp = fopen(idxpath, "r+");
	if (fp == NULL || fseek(fp, 7, SEEK_SET) != 0 ||
	    fputc(version, fp) != version || fclose(fp) != 0)
		return 1;

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
