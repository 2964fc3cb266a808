/*
 * Facts about the gate's rules on members as dpkg reads them: duplicate
 * paths, hard links, owners, conffiles, and links followed across the
 * packages of an upload.  Packages are made in memory.
 */
#include <stdlib.h>
#include <string.h>

#include "../tests/tap.h"
#include "review/review.h"

#define NS "opt/extras.ubuntu.com/demo"

static struct review r;

static struct review_package *
package(const char *name)
{
	struct review_package *p = review_add_package(&r, name);

	p->deb.filename = strdup(name);
	p->deb.data_tar = strdup("data.tar.xz");
	p->deb.control_tar = strdup("control.tar.xz");
	p->deb.source = strdup("extras-demo");
	p->deb.package = name;
	namespace_init(&p->ns, "demo", NULL);
	p->namespace_ok = true;
	r.npackages++;
	return p;
}

static void
member(struct review_package *p, const char *path, enum debfile_type type,
       const char *target)
{
	struct debfile *deb = &p->deb;
	struct debfile_member *m;

	deb->members = realloc(deb->members,
	                       (deb->nmembers + 1) * sizeof(*deb->members));
	m = &deb->members[deb->nmembers++];
	memset(m, 0, sizeof(*m));
	m->path = strdup(path);
	m->type = type;
	m->mode = type == DEBFILE_DIRECTORY ? 0755 : 0644;
	m->st_mode = m->mode;
	m->target = target ? strdup(target) : NULL;
	m->owner = strdup("root");
	m->group = strdup("root");
}

static void
control(struct review_package *p, const char *name, const char *text)
{
	struct debfile *deb = &p->deb;
	struct debfile_control_member *c;

	deb->control_members = realloc(deb->control_members,
	                               (deb->ncontrol_members + 1) *
	                               sizeof(*c));
	c = &deb->control_members[deb->ncontrol_members++];
	memset(c, 0, sizeof(*c));
	c->name = strdup(name);
	c->type = DEBFILE_REGULAR;
	c->data = strdup(text);
	c->size = strlen(text);
}

/* The problems of rule RULE, "PATH: message" joined by "|". */
static const char *
problems(const char *rule)
{
	static char buf[8192];
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < r.nproblems; i++) {
		if (strcmp(r.problems[i].rule, rule) != 0)
			continue;
		if (buf[0])
			strcat(buf, "|");
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
		         "%s: %s", r.problems[i].path ? r.problems[i].path :
		         "-", r.problems[i].message);
	}
	return buf;
}

static void
start(void)
{
	review_free(&r);
	review_init(&r, NULL);
}

int
main(void)
{
	struct review_package *p, *q;
	struct review_links links;
	char *s;

	test_plan(14);

	/* The same path twice, in data.tar and control.tar. */
	start();
	p = package("a.deb");
	member(p, NS "/x", DEBFILE_REGULAR, NULL);
	member(p, NS "/y", DEBFILE_REGULAR, NULL);
	member(p, NS "/x", DEBFILE_HARDLINK, "etc/shadow");
	control(p, "control", "Package: a\n");
	control(p, "control", "Package: a\nEssential: yes\n");
	review_members(&r);
	test_str(problems("duplicate"), ==,
	         "control: 2 members of control.tar.xz for this path (the "
	         "checks read the first, dpkg keeps the last)|"
	         NS "/x: 2 members of data.tar.xz for this path (the checks "
	         "read the first, dpkg keeps the last)");
	test_str(problems("hardlink"), ==, NS "/x: => /etc/shadow: not a "
	         "regular file shipped before it in data.tar.xz");

	/* Hard links: to a file of the namespace shipped before only. */
	start();
	p = package("a.deb");
	member(p, NS "/early", DEBFILE_HARDLINK, NS "/file");
	member(p, NS "/file", DEBFILE_REGULAR, NULL);
	member(p, NS "/copy", DEBFILE_HARDLINK, NS "/file");
	member(p, "usr/share/doc/a/copyright", DEBFILE_REGULAR, NULL);
	member(p, NS "/doc", DEBFILE_HARDLINK, "usr/share/doc/a/copyright");
	member(p, NS "/dir", DEBFILE_DIRECTORY, NULL);
	member(p, NS "/dirlink", DEBFILE_HARDLINK, NS "/dir");
	review_members(&r);
	test_str(problems("hardlink"), ==,
	         NS "/early: => /" NS "/file: not a regular file shipped "
	         "before it in data.tar.xz|"
	         NS "/doc: => /usr/share/doc/a/copyright: a hard link to a "
	         "file outside the namespace /" NS "|"
	         NS "/dirlink: => /" NS "/dir: not a regular file shipped "
	         "before it in data.tar.xz");

	/* Owners: root by name and by id, or no name. */
	start();
	p = package("a.deb");
	member(p, NS "/ok", DEBFILE_REGULAR, NULL);
	member(p, NS "/named", DEBFILE_REGULAR, NULL);
	free(p->deb.members[1].owner);
	p->deb.members[1].owner = strdup("daemon");
	member(p, NS "/numbered", DEBFILE_REGULAR, NULL);
	free(p->deb.members[2].group);
	p->deb.members[2].group = strdup("");
	p->deb.members[2].gid = 42;
	member(p, NS "/unnamed", DEBFILE_REGULAR, NULL);
	free(p->deb.members[3].owner);
	p->deb.members[3].owner = strdup("");
	review_members(&r);
	test_str(problems("owner"), ==,
	         NS "/named: is owned by daemon:root (0:0), not root|"
	         NS "/numbered: is owned by root:- (0:42), not root");

	/* Conffiles as dpkg reads them. */
	start();
	p = package("a.deb");
	member(p, NS "/etc/a.conf", DEBFILE_REGULAR, NULL);
	member(p, NS "/etc/dir", DEBFILE_DIRECTORY, NULL);
	control(p, "conffiles", "/" NS "/etc/a.conf\n  \n/etc/passwd\n"
	        "remove-on-upgrade /" NS "/etc/old.conf\n"
	        "remove-on-upgrade /etc/sudoers\n"
	        "remove-on-upgrade /" NS "/etc/a.conf\n"
	        "/" NS "/etc/dir\n//" NS "/etc/a.conf\n/./" NS "/etc/a.conf\n"
	        "/" NS "/etc/a.conf/\nobsolete /" NS "/etc/a.conf\n"
	        "etc/x\n/" NS "/etc/a.conf  \n");
	review_conffiles(&r);
	s = strdup(problems("conffile"));
	test_ok(strstr(s, "/etc/passwd: DEBIAN/conffiles:3: not a regular "
	               "file a.deb ships: a conffile must be the package's "
	               "own") != NULL);
	test_ok(strstr(s, "/etc/sudoers: DEBIAN/conffiles:5: "
	               "remove-on-upgrade outside the namespace") != NULL);
	test_ok(strstr(s, "/" NS "/etc/a.conf: DEBIAN/conffiles:6: "
	               "remove-on-upgrade of a path the package ships")
	        != NULL);
	test_ok(strstr(s, "/" NS "/etc/dir: DEBIAN/conffiles:7: not a "
	               "regular file") != NULL);
	test_ok(strstr(s, "//" NS "/etc/a.conf: DEBIAN/conffiles:8: not a "
	               "canonical path|/./" NS "/etc/a.conf: DEBIAN/"
	               "conffiles:9: not a canonical path|/" NS "/etc/a.conf/:"
	               " DEBIAN/conffiles:10: not a canonical path") != NULL);
	test_ok(strstr(s, "DEBIAN/conffiles: line 11: unknown flag (only "
	               "remove-on-upgrade)|DEBIAN/conffiles: line 12: not an "
	               "absolute path") != NULL);
	/* Trailing blanks are dpkg's to trim: line 13 is line 1 again. */
	test_ok(strstr(s, "/" NS "/etc/a.conf: DEBIAN/conffiles:13: listed "
	               "twice") != NULL);
	/* Line 6 names line 1's path too. */
	test_int((int)r.nproblems, ==, 11);
	free(s);

	/* Links resolved through every package of the upload. */
	start();
	package("a.deb");
	package("b.deb");
	p = &r.packages[0];	/* the list moved as it grew */
	q = &r.packages[1];
	member(p, NS "/share/conf", DEBFILE_SYMLINK, "inner/ssl");
	member(q, NS "/share/inner", DEBFILE_SYMLINK, "../../../../etc");
	review_links_init(&links, &r);
	s = review_links_resolve(&links, &p->deb.members[0]);
	test_str(s, ==, "etc/ssl");
	free(s);
	s = review_resolve_link(&p->deb, &p->deb.members[0]);
	test_str(s, ==, NS "/share/inner/ssl");
	free(s);
	review_links_free(&links);

	/* The package names were not copied. */
	for (size_t i = 0; i < r.npackages; i++)
		r.packages[i].deb.package = NULL;
	review_free(&r);
	return test_done();
}
