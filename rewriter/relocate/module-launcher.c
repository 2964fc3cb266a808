/*
 * module-launcher.c: make a Perl, Ruby or Node program of a namespace
 * find the modules the namespace ships.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relocate/module-launcher.h"
#include "relocate/script-lines.h"

static const char *const language_names[MODULE_LANGUAGES] = {
	"Perl", "Ruby", "Node",
};

const char *
module_language_name(enum module_language lang)
{
	return lang >= 0 && lang < MODULE_LANGUAGES ? language_names[lang] : "?";
}

enum module_language
module_launcher_language(const char *buf, size_t len)
{
	size_t n;
	const char *word = shebang_command(buf, len, &n);

	if (word == NULL)
		return MODULE_NONE;
	if (names_command(word, n, "perl"))
		return MODULE_PERL;
	if (names_command(word, n, "ruby"))
		return MODULE_RUBY;
	if (names_command(word, n, "node") || names_command(word, n, "nodejs"))
		return MODULE_NODE;
	return MODULE_NONE;
}

bool
module_launcher_dir_ok(const char *dir)
{
	const unsigned char *p;

	if (dir[0] != '/')
		return false;
	for (p = (const unsigned char *)dir; *p; p++)
		if (*p < 0x20 || *p == 0x7f || *p == '\'' || *p == '\\')
			return false;
	return true;
}

/* Past the comment and blank lines from POS. */
static size_t
skip_comments(const char *buf, size_t len, size_t pos, const char *comment)
{
	while (pos < len && (buf[pos] == '\n' || starts(buf, len, pos, comment)))
		pos = next_line(buf, len, pos);
	return pos;
}

/* Whether a line of BUF starts with an ES module's import or export. */
static bool
is_es_module(const char *buf, size_t len)
{
	size_t pos;

	for (pos = 0; pos < len; pos = next_line(buf, len, pos))
		if (starts(buf, len, pos, "import ") ||
		    starts(buf, len, pos, "import{") ||
		    starts(buf, len, pos, "export "))
			return true;
	return false;
}

size_t
module_launcher_insertion_point(enum module_language lang, const char *buf, size_t len)
{
	size_t pos = next_line(buf, len, 0);

	switch (lang) {
	case MODULE_RUBY:
		return skip_comments(buf, len, pos, "#");
	case MODULE_NODE:
		pos = skip_comments(buf, len, pos, "//");
		if (starts(buf, len, pos, "'use strict'") ||
		    starts(buf, len, pos, "\"use strict\""))
			pos = next_line(buf, len, pos);
		return pos;
	default:
		return pos;
	}
}

char *
module_launcher_patch(const char *buf, size_t len, size_t *outlen, void *arg)
{
	static const char *const head[MODULE_LANGUAGES] = {
		"BEGIN { unshift @INC, ", "$LOAD_PATH.unshift(",
		"module.paths.unshift(",
	};
	static const char *const tail[MODULE_LANGUAGES] = {
		" }", ")", ");",
	};
	const struct module_launcher *ml = arg;
	enum module_language lang = module_launcher_language(buf, len);
	size_t at, n, i, alloc;
	char *out;

	if (lang == MODULE_NONE || ml->n_dirs[lang] == 0 ||
	    memmem(buf, len, MODULE_LAUNCHER_MARK "\n",
	           strlen(MODULE_LAUNCHER_MARK) + 1) != NULL ||
	    (lang == MODULE_NODE && is_es_module(buf, len)))
		return NULL;
	alloc = len + 128 + strlen(MODULE_LAUNCHER_MARK);
	for (i = 0; i < ml->n_dirs[lang]; i++) {
		if (!module_launcher_dir_ok(ml->dirs[lang][i]))
			return NULL;
		alloc += strlen(ml->dirs[lang][i]) + 4;
	}
	out = malloc(alloc);
	if (out == NULL)
		return NULL;
	at = module_launcher_insertion_point(lang, buf, len);
	memcpy(out, buf, at);
	n = at;
	if (at > 0 && buf[at - 1] != '\n')
		out[n++] = '\n';
	n += (size_t)snprintf(out + n, alloc - n, "%s", head[lang]);
	for (i = 0; i < ml->n_dirs[lang]; i++)
		n += (size_t)snprintf(out + n, alloc - n, "%s'%s'",
		                      i ? ", " : "", ml->dirs[lang][i]);
	n += (size_t)snprintf(out + n, alloc - n, "%s  %s %s\n", tail[lang],
	                      lang == MODULE_NODE ? "//" : "#",
	                      MODULE_LAUNCHER_MARK);
	/* Perl's messages name the lines of the program as written. */
	if (lang == MODULE_PERL && at < len)
		n += (size_t)snprintf(out + n, alloc - n, "#line 2\n");
	memcpy(out + n, buf + at, len - at);
	n += len - at;
	*outlen = n;
	return out;
}
