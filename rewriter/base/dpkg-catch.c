/*
 * dpkg-catch.c: libdpkg's ohshit() caught, for a library that never exits.
 */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/ehandle.h>

#include "base/dpkg-catch.h"

struct caught {
	char *msg;
	size_t size;
};

/* libdpkg's printer: called by pop_error_context(ehflag_bombout). */
static void
keep_message(const char *emsg, const void *data)
{
	const struct caught *c = data;

	snprintf(c->msg, c->size, "%s", emsg);
}

int
dpkg_catch(void (*fn)(void *arg), void *arg, char *msg, size_t size)
{
	/* Set before setjmp() and never after: no volatile needed. */
	const struct caught c = { msg, size };
	jmp_buf jump;

	if (size > 0)
		msg[0] = '\0';
	if (setjmp(jump)) {
		pop_error_context(ehflag_bombout);
		return -1;
	}
	push_error_context_jump(&jump, keep_message, &c);
	fn(arg);
	pop_error_context(ehflag_normaltidy);
	return 0;
}

const char *
dpkg_catch_reason(const char *msg)
{
	const char *lead_end = strstr(msg, ":\n ");

	return lead_end != NULL ? lead_end + 3 : msg;
}
