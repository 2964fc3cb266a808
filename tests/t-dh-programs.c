/* Facts about the walk over the programs of a package's namespace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/error.h>

#include "../tests/tap.h"
#include "dh/dh-programs.h"
#include "namespace/namespace.h"

/* What the walk showed, in the order seen. */
struct seen {
	char names[8][64];
	size_t heads[8];
	size_t n;
	size_t stop_after;	/* -1 from the callback at this many, or 0 */
};

static int
record(const char *path, const char *head, size_t n, void *ctx)
{
	struct seen *s = ctx;
	const char *name = strrchr(path, '/') + 1;

	(void)head;
	if (s->n < 8) {
		snprintf(s->names[s->n], sizeof(s->names[s->n]), "%s", name);
		s->heads[s->n] = n;
	}
	s->n++;
	return s->stop_after != 0 && s->n == s->stop_after ? -1 : 0;
}

/* The head length the walk gave the program NAME, or (size_t)-1. */
static size_t
head_of(const struct seen *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n && i < 8; i++)
		if (strcmp(s->names[i], name) == 0)
			return s->heads[i];
	return (size_t)-1;
}

static void
make(const char *pkgdir, const char *rel, const char *text, size_t size)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", pkgdir, rel);
	fp = fopen(path, "w");
	if (fp == NULL)
		exit(1);
	fputs(text, fp);
	while (size-- > strlen(text))
		fputc('x', fp);
	fclose(fp);
}

int
main(void)
{
	char pkgdir[] = "/tmp/t-dh-programs.XXXXXX";
	char path[512], cmd[600];
	struct dpkg_error err = DPKG_ERROR_INIT;
	struct extras_namespace ns;
	struct seen s;

	test_plan(12);

	if (mkdtemp(pkgdir) == NULL ||
	    namespace_init(&ns, "foo", "/opt/extras.ubuntu.com") != NULL)
		return 1;
	/* Nothing in the namespace: nothing to see, no error. */
	memset(&s, 0, sizeof(s));
	test_int(dh_programs_each(&ns, pkgdir, record, &s, &err), ==, 0);
	test_int(s.n, ==, 0);

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/%s/bin/sub %s/%s/libexec "
	         "%s/%s/share", pkgdir, ns.rel, pkgdir, ns.rel, pkgdir, ns.rel);
	if (system(cmd) != 0)
		return 1;
	snprintf(path, sizeof(path), "%s/bin/prog", ns.rel);
	make(pkgdir, path, "#!/bin/sh\n", 0);
	snprintf(path, sizeof(path), "%s/libexec/big", ns.rel);
	make(pkgdir, path, "#!/usr/bin/perl\n", 600);
	snprintf(path, sizeof(path), "%s/share/data", ns.rel);
	make(pkgdir, path, "#!/bin/sh\n", 0);
	snprintf(path, sizeof(path), "%s/%s/bin/link", pkgdir, ns.rel);
	if (symlink("prog", path) < 0)
		return 1;

	/* Regular files of the program directories only, links and
	 * directories passed over, at most DH_PROGRAM_HEAD bytes read. */
	memset(&s, 0, sizeof(s));
	test_int(dh_programs_each(&ns, pkgdir, record, &s, &err), ==, 0);
	test_int(s.n, ==, 2);
	test_int(head_of(&s, "prog"), ==, 10);
	test_int(head_of(&s, "big"), ==, DH_PROGRAM_HEAD);
	test_int(head_of(&s, "link"), ==, (size_t)-1);
	test_int(head_of(&s, "data"), ==, (size_t)-1);
	/* bin before libexec. */
	test_str(s.names[0], ==, "prog");

	/* The callback's -1 stops the walk. */
	memset(&s, 0, sizeof(s));
	s.stop_after = 1;
	test_int(dh_programs_each(&ns, pkgdir, record, &s, &err), ==, -1);
	test_int(s.n, ==, 1);
	test_ok(err.type == DPKG_MSG_NONE);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", pkgdir);
	return system(cmd) != 0;
}
