/* Facts about relation fields: parsing, pruning other sources' packages. */
#include <stdlib.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/program.h>

#include "../tests/tap.h"
#include "debian/relation.h"

static const char *const names[] = { "hello", "hello-data", "libhello1" };
static const struct relation_owner own = { names, 3 };
static char result[1024];
static int ndropped;

static void
count_dropped(void *obj, const char *relation, int line)
{
	(void)obj;
	(void)relation;
	(void)line;
	ndropped++;
}

/* The rewritten TEXT, "(gone)" when nothing is left, or the error. */
static const char *
rw(const char *text, bool drop_others)
{
	struct relation_list l;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *out;

	ndropped = 0;
	if (relation_parse(&l, text, strlen(text), "debian/control", 1,
	                   "Depends", &err) < 0) {
		snprintf(result, sizeof(result), "%s", err.str);
		dpkg_error_destroy(&err);
		return result;
	}
	out = relation_rewrite(text, strlen(text), &l, &own, drop_others,
	                       count_dropped, NULL);
	snprintf(result, sizeof(result), "%s", out ? out : "(gone)");
	free(out);
	relation_list_free(&l);
	return result;
}

/*
 * The steps relation_rewrite() takes on a field of N relations, half of
 * them the source's own (renamed), half others (dropped), one a line.
 */
static unsigned long
steps_for(int n)
{
	struct relation_list l;
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *text = malloc((size_t)n * 32 + 1), *out;
	size_t len = 0;
	unsigned long before;
	int i;

	for (i = 0; i < n; i++)
		len += (size_t)sprintf(text + len, "%s (>= 1.%d),\n ",
		                       i % 2 ? "other" : "hello", i);
	if (relation_parse(&l, text, len, "f", 1, "Depends", &err) < 0) {
		dpkg_error_destroy(&err);
		free(text);
		return 0;
	}
	before = relation_rewrite_steps;
	out = relation_rewrite(text, len, &l, &own, true, NULL, NULL);
	before = relation_rewrite_steps - before;
	free(out);
	free(text);
	relation_list_free(&l);
	return before;
}

static int
count(const char *text)
{
	struct relation_list l;
	struct dpkg_error err = DPKG_ERROR_INIT;
	int n;

	if (relation_parse(&l, text, strlen(text), "f", 1, "Depends",
	                   &err) < 0) {
		dpkg_error_destroy(&err);
		return -1;
	}
	n = l.nitems;
	relation_list_free(&l);
	return n;
}

int
main(int argc, char **argv)
{
	(void)argc;
	dpkg_program_init(argv[0]);
	test_plan(41);

	/* Parsing. */
	test_int(count("a, b | c (>= 1.0), d:any"), ==, 3);
	test_int(count(""), ==, 0);
	test_int(count("a,\n b,\n"), ==, 2);
	test_int(count("a,\n# a comment, with commas\n b"), ==, 2);
	test_int(count("${misc:Depends}, ${shlibs:Depends}"), ==, 2);
	test_int(count("foo [amd64 !i386] <!nocheck> <cross>"), ==, 1);
	test_int(count("foo (= ${binary:Version})"), ==, 1);
	test_int(count("foo (>= 1:2.0~rc1-1+b1)"), ==, 1);
	test_int(count("Foo"), ==, -1);
	test_int(count("foo (>= )"), ==, -1);
	test_int(count("foo (~ 1)"), ==, -1);
	test_int(count("foo (>= 1.0"), ==, -1);
	test_int(count("foo [amd64"), ==, -1);
	test_int(count("foo bar"), ==, -1);
	test_int(count("foo (>= a:1)"), ==, -1);
	test_int(count("foo | , bar"), ==, -1);
	test_str(rw("foo bar", false), ==,
	         "debian/control:1: unexpected character in Depends relation 'b'");
	test_str(rw("a,\n Bad", false), ==,
	         "debian/control:2: invalid package name 'Bad' in Depends: "
	         "must be lowercase");

	/* Own binaries stay as written: they are renamed at the edge. */
	test_str(rw("hello-data (= ${source:Version})", false), ==,
	         "hello-data (= ${source:Version})");
	test_str(rw("hello-data:any (>= 2.0) [amd64] <!nocheck>", false), ==,
	         "hello-data:any (>= 2.0) [amd64] <!nocheck>");
	test_str(rw("libc6, hello-data | hello-doc", false), ==,
	         "libc6, hello-data | hello-doc");
	test_str(rw("${misc:Depends},\n hello-data,\n libc6,\n", false), ==,
	         "${misc:Depends},\n hello-data,\n libc6,\n");
	test_str(rw("extras-hello-data (= ${source:Version})", false), ==,
	         "extras-hello-data (= ${source:Version})");
	test_str(rw("hello-database", false), ==, "hello-database");
	test_str(rw("libhello1 (= ${binary:Version}), hello", false), ==,
	         "libhello1 (= ${binary:Version}), hello");

	/* Pruning relations on other packages. */
	test_str(rw("hello-traditional", true), ==, "(gone)");
	test_int(ndropped, ==, 1);
	test_str(rw("hello-traditional, hello-data", true), ==, "hello-data");
	test_str(rw("hello-data, hello-traditional", true), ==, "hello-data");
	test_str(rw("a, hello-data, b, c", true), ==, "hello-data");
	test_int(ndropped, ==, 3);
	test_str(rw("\n hello-data,\n other,\n", true), ==, "\n hello-data,\n");
	test_str(rw("\n other,\n hello-data\n", true), ==, "\n hello-data\n");
	test_str(rw("other,\n hello-data\n", true), ==, "\n hello-data\n");
	test_str(rw("hello (<< 2.0), ${misc:Breaks}", true), ==,
	         "hello (<< 2.0), ${misc:Breaks}");
	test_str(rw("hello-data,\n# keep me\n other\n", true), ==,
	         "hello-data\n# keep me\n");
	/* An own binary under its extras name (converted before) is own. */
	test_str(rw("extras-hello-data, hello-traditional", true), ==,
	         "extras-hello-data");

	/* A second run changes nothing. */
	test_str(rw("hello-data,\n extras-hello (= ${binary:Version})\n",
	            true), ==,
	         "hello-data,\n extras-hello (= ${binary:Version})\n");
	test_int(ndropped, ==, 0);

	/* Linear: twice the relations, twice the work (a quadratic rewrite
	 * does four times). */
	{
		unsigned long n = steps_for(4096), n2 = steps_for(8192);

		test_ok(n > 0);
		test_ok(n2 * 10 < n * 25);
	}

	return test_done();
}
