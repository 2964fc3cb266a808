/* Facts about resolving a package's symbolic links as installed. */
#include <stdlib.h>
#include <string.h>

#include "../tests/tap.h"
#include "review/review.h"

static struct debfile_member members[] = {
	{ .path = "opt/x/ns/a", .type = DEBFILE_SYMLINK, .target = "/usr" },
	{ .path = "opt/x/ns/b", .type = DEBFILE_SYMLINK,
	  .target = "a/../etc/shadow" },
	{ .path = "opt/x/ns/c", .type = DEBFILE_SYMLINK, .target = "c" },
	{ .path = "opt/x/ns/d", .type = DEBFILE_SYMLINK,
	  .target = "../ns/share/f" },
	{ .path = "opt/x/ns/e", .type = DEBFILE_SYMLINK,
	  .target = "../../../../../../etc/passwd" },
	{ .path = "opt/x/ns/f", .type = DEBFILE_SYMLINK, .target = "/" },
	{ .path = "opt/x/ns/g", .type = DEBFILE_SYMLINK, .target = "./a/share" },
	{ .path = "opt/x/ns/h", .type = DEBFILE_SYMLINK, .target = "i" },
	{ .path = "opt/x/ns/i", .type = DEBFILE_SYMLINK, .target = "h" },
	{ .path = "opt/x/ns/share", .type = DEBFILE_DIRECTORY },
	{ .path = "opt/x/ns/share/j", .type = DEBFILE_SYMLINK,
	  .target = "..//share/./f" },
	{ .path = "top", .type = DEBFILE_SYMLINK, .target = "opt/x/ns/a/bin" },
};

static const char *
resolve(const char *path)
{
	static char buf[4096];
	struct debfile deb = { 0 };
	size_t i;
	char *s;

	deb.members = members;
	deb.nmembers = sizeof(members) / sizeof(members[0]);
	for (i = 0; i < deb.nmembers; i++)
		if (strcmp(members[i].path, path) == 0)
			break;
	s = review_resolve_link(&deb, &members[i]);
	if (s == NULL)
		return "(loop)";
	strcpy(buf, s);
	free(s);
	return buf;
}

int
main(void)
{
	test_plan(11);

	test_str(resolve("opt/x/ns/a"), ==, "usr");
	/* Through the link a, not lexically inside the namespace. */
	test_str(resolve("opt/x/ns/b"), ==, "etc/shadow");
	test_str(resolve("opt/x/ns/c"), ==, "(loop)");
	test_str(resolve("opt/x/ns/d"), ==, "opt/x/ns/share/f");
	/* ".." stops at the root. */
	test_str(resolve("opt/x/ns/e"), ==, "etc/passwd");
	test_str(resolve("opt/x/ns/f"), ==, "");
	test_str(resolve("opt/x/ns/g"), ==, "usr/share");
	test_str(resolve("opt/x/ns/h"), ==, "(loop)");
	test_str(resolve("opt/x/ns/i"), ==, "(loop)");
	test_str(resolve("opt/x/ns/share/j"), ==, "opt/x/ns/share/f");
	test_str(resolve("top"), ==, "usr/bin");

	return test_done();
}
