/*
 * python-launcher.c: make a Python program of a namespace find the
 * modules the namespace ships.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relocate/python-launcher.h"
#include "relocate/script-lines.h"

/* The offset of the line after the one at POS. */
bool
python_launcher_is(const char *buf, size_t len)
{
	size_t end;

	if (len < 2 || memcmp(buf, "#!", 2) != 0)
		return false;
	end = next_line(buf, len, 0);
	return memmem(buf, end, "python", 6) != NULL;
}

/* Past a docstring opening at POS (after a string prefix), else POS. */
static size_t
skip_docstring(const char *buf, size_t len, size_t pos)
{
	size_t p = pos;
	const char *close;
	char quote[4];

	if (p < len && strchr("rRuU", buf[p]) != NULL)
		p++;
	if (!starts(buf, len, p, "\"\"\"") && !starts(buf, len, p, "'''"))
		return pos;
	memcpy(quote, buf + p, 3);
	quote[3] = '\0';
	close = memmem(buf + p + 3, len - p - 3, quote, 3);
	if (close == NULL)
		return pos;
	return next_line(buf, len, (size_t)(close - buf) + 3);
}

size_t
python_launcher_insertion_point(const char *buf, size_t len)
{
	size_t pos = next_line(buf, len, 0), at;

	while (pos < len && (buf[pos] == '#' || buf[pos] == '\n'))
		pos = next_line(buf, len, pos);
	pos = skip_docstring(buf, len, pos);
	at = pos;
	/* "from __future__" must stay first: go past the last one. */
	for (; pos < len; pos = next_line(buf, len, pos)) {
		size_t end;

		if (!starts(buf, len, pos, "from __future__ import"))
			continue;
		end = next_line(buf, len, pos);
		if (memchr(buf + pos, '(', end - pos) != NULL)
			while (end < len && memchr(buf + pos, ')', end - pos) == NULL)
				end = next_line(buf, len, end);
		at = end;
	}
	return at;
}

char *
python_launcher_patch(const char *buf, size_t len, size_t *outlen, void *arg)
{
	const struct python_launcher *pl = arg;
	size_t at, n = 0, i, alloc;
	char *out;

	if (!python_launcher_is(buf, len) ||
	    memmem(buf, len, PYTHON_LAUNCHER_MARK "\n",
	           strlen(PYTHON_LAUNCHER_MARK) + 1) != NULL)
		return NULL;
	alloc = len + 512 + 2 * strlen(PYTHON_LAUNCHER_MARK) +
	        (pl->app ? strlen(pl->app) : 0);
	for (i = 0; i < pl->n_dirs; i++)
		alloc += strlen(pl->dirs[i]) + 4;
	out = malloc(alloc);
	if (out == NULL)
		return NULL;
	at = python_launcher_insertion_point(buf, len);
	memcpy(out, buf, at);
	n = at;
	if (at > 0 && buf[at - 1] != '\n')
		out[n++] = '\n';
	n += (size_t)snprintf(out + n, alloc - n, "import sys; sys.path[1:1] = [");
	for (i = 0; i < pl->n_dirs; i++)
		n += (size_t)snprintf(out + n, alloc - n, "%s'%s'",
		                      i ? ", " : "", pl->dirs[i]);
	n += (size_t)snprintf(out + n, alloc - n, "]");
	n += (size_t)snprintf(out + n, alloc - n, "  " PYTHON_LAUNCHER_MARK "\n");
	if (pl->app != NULL)
		n += (size_t)snprintf(out + n, alloc - n, "import os; "
		                      "os.environ['TMPDIR'] = os.path.expanduser("
		                      "'~/.cache/%s/tmp')  " PYTHON_LAUNCHER_MARK
		                      "\ntry: os.makedirs(os.environ['TMPDIR'], "
		                      "0o700, True)  " PYTHON_LAUNCHER_MARK
		                      "\nexcept OSError: pass  "
		                      PYTHON_LAUNCHER_MARK "\n", pl->app);
	memcpy(out + n, buf + at, len - at);
	n += len - at;
	*outlen = n;
	return out;
}
