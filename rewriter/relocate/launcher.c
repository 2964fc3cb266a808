/*
 * launcher.c: a compiled program of a namespace started with the
 * namespace's data in sight.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relocate/launcher.h"

#define SHEBANG "#!/bin/bash\n"

bool
launcher_is(const char *buf, size_t len)
{
	size_t n = strlen(SHEBANG LAUNCHER_MARK);

	return len >= n && memcmp(buf, SHEBANG LAUNCHER_MARK, n) == 0;
}

/* Whether S can stand in single quotes and in a case pattern. */
static bool
word_ok(const char *s)
{
	if (s[0] != '/')
		return false;
	for (; *s; s++)
		if ((unsigned char)*s < 0x21 || *s == 0x7f ||
		    strchr("'\"\\$`*?[]", *s) != NULL)
			return false;
	return true;
}

char *
launcher_script(const char *program, const char *datadir)
{
	char *out;

	if (!word_ok(program) || !word_ok(datadir))
		return NULL;
	/* The user's XDG_DATA_DIRS kept, the specification's default when
	 * unset; the namespace's once only, when the app starts itself. */
	if (asprintf(&out, SHEBANG LAUNCHER_MARK ": %s with the namespace's "
	             "data in sight\n"
	             "case \":${XDG_DATA_DIRS:=/usr/local/share:/usr/share}:\" in\n"
	             "*:%s:*) ;;\n"
	             "*) XDG_DATA_DIRS='%s':$XDG_DATA_DIRS ;;\n"
	             "esac\n"
	             "export XDG_DATA_DIRS\n"
	             "exec -a \"$0\" '%s' \"$@\"\n",
	             program, datadir, datadir, program) < 0)
		return NULL;
	return out;
}
