/* Facts about dpkg_catch: libdpkg's ohshit() turned into -1 and a message. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "../tests/tap.h"
#include "base/dpkg-catch.h"

struct run {
	int fail;             /* 0: return; 1: ohshit(); 2: ohshite() */
	bool past;            /* reached the end of the body */
	int bombed, tidied;   /* how its cleanup was called */
	char inner[64];       /* a nested catch's message */
	int inner_ret;
};

static void
cleanup(int argc, void **argv)
{
	(void)argc;
	++*(int *)argv[0];
}

static void
body(void *arg)
{
	struct run *r = arg;

	push_cleanup(cleanup, ehflag_bombout, 1, &r->bombed);
	push_cleanup(cleanup, ehflag_normaltidy, 1, &r->tidied);
	if (r->fail == 1)
		ohshit("bad field '%s' at %d", "Depends", 7);
	if (r->fail == 2) {
		errno = ENOENT;
		ohshite("cannot open %s", "debian/control");
	}
	r->past = true;
}

static void
failing(void *arg)
{
	(void)arg;
	ohshit("inner failure");
}

/* A catch inside a caught body: the inner error stays inside. */
static void
nesting(void *arg)
{
	struct run *r = arg;

	r->inner_ret = dpkg_catch(failing, NULL, r->inner, sizeof(r->inner));
	body(r);
}

int
main(void)
{
	struct run r;
	char msg[64] = "stale", small[8];

	test_plan(27);
	dpkg_program_init("t-dpkg-catch");

	r = (struct run){ .fail = 0 };
	test_int(dpkg_catch(body, &r, msg, sizeof(msg)), ==, 0);
	test_str(msg, ==, "");
	test_ok(r.past);
	test_int(r.tidied, ==, 1);
	test_int(r.bombed, ==, 0);

	r = (struct run){ .fail = 1 };
	test_int(dpkg_catch(body, &r, msg, sizeof(msg)), ==, -1);
	test_str(msg, ==, "bad field 'Depends' at 7");
	test_ok(!r.past);
	test_int(r.bombed, ==, 1);
	test_int(r.tidied, ==, 0);

	r = (struct run){ .fail = 2 };
	test_int(dpkg_catch(body, &r, msg, sizeof(msg)), ==, -1);
	test_str(msg, ==, "cannot open debian/control: No such file or directory");
	test_int(r.bombed, ==, 1);

	/* Cut to fit, never past SIZE. */
	r = (struct run){ .fail = 1 };
	test_int(dpkg_catch(body, &r, small, sizeof(small)), ==, -1);
	test_str(small, ==, "bad fie");

	r = (struct run){ .fail = 0 };
	test_int(dpkg_catch(nesting, &r, msg, sizeof(msg)), ==, 0);
	test_int(r.inner_ret, ==, -1);
	test_str(r.inner, ==, "inner failure");
	test_str(msg, ==, "");
	test_ok(r.past);

	r = (struct run){ .fail = 1 };
	test_int(dpkg_catch(nesting, &r, msg, sizeof(msg)), ==, -1);
	test_str(r.inner, ==, "inner failure");
	test_str(msg, ==, "bad field 'Depends' at 7");
	test_int(r.bombed, ==, 1);

	/* The reason of a parse error, without libdpkg's lead. */
	test_str(dpkg_catch_reason("parsing file 'debian/control' near line 2 "
	                           "package 'greet':\n field name 'Depends' "
	                           "must be followed by colon"), ==,
	         "field name 'Depends' must be followed by colon");
	test_str(dpkg_catch_reason("cannot open x: No such file or directory"),
	         ==, "cannot open x: No such file or directory");
	test_str(dpkg_catch_reason(""), ==, "");

	dpkg_program_done();
	return test_done();
}
