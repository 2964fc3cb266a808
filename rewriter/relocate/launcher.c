/*
 * launcher.c: the programs of a namespace started with the namespace's
 * data in sight.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relocate/launcher.h"
#include "relocate/module-launcher.h"
#include "relocate/python-launcher.h"
#include "relocate/script-lines.h"

#define SHEBANG "#!/bin/bash\n"
#define DEFAULT_DIRS "/usr/local/share:/usr/share"

static const char *const language_names[LAUNCHER_LANGUAGES] = {
	"shell", "Python", "Perl", "Ruby", "Node",
};

const char *
launcher_language_name(enum launcher_language lang)
{
	return lang >= 0 && lang < LAUNCHER_LANGUAGES ? language_names[lang]
	                                              : "?";
}

bool
launcher_is(const char *buf, size_t len)
{
	size_t n = strlen(SHEBANG LAUNCHER_MARK);

	return len >= n && memcmp(buf, SHEBANG LAUNCHER_MARK, n) == 0;
}

bool
launcher_word_ok(const char *s)
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

	if (!launcher_word_ok(program) || !launcher_word_ok(datadir))
		return NULL;
	/* The user's XDG_DATA_DIRS kept, the specification's default when
	 * unset; the namespace's once only, when the app starts itself. */
	if (asprintf(&out, SHEBANG LAUNCHER_MARK ": %s with the namespace's "
	             "data in sight\n"
	             "case \":${XDG_DATA_DIRS:=" DEFAULT_DIRS "}:\" in\n"
	             "*:%s:*) ;;\n"
	             "*) XDG_DATA_DIRS='%s':$XDG_DATA_DIRS ;;\n"
	             "esac\n"
	             "export XDG_DATA_DIRS\n"
	             "exec -a \"$0\" '%s' \"$@\"\n",
	             program, datadir, datadir, program) < 0)
		return NULL;
	return out;
}

/*
 * Whether the shell script BUF hands itself to another interpreter, which
 * reads it whole: Perl's "eval 'exec perl -S $0 ${1+"$@"}'", Tcl's
 * comment whose backslash hides "exec wish "$0"" from Tcl.  Both come
 * first, before anything the other interpreter would choke on.
 */
static bool
reread_by_another(const char *buf, size_t len)
{
	size_t pos, end, p;
	int lines = 0;

	for (pos = next_line(buf, len, 0); pos < len && lines++ < 8; pos = end) {
		end = next_line(buf, len, pos);
		for (p = pos; p < end && is_blank(buf[p]); p++)
			;
		if (starts(buf, end, p, "eval 'exec") ||
		    starts(buf, end, p, "eval \"exec") ||
		    starts(buf, end, p, "eval exec"))
			return true;
		if (p < end && buf[p] == '#' && end - p >= 2 &&
		    buf[end - 1] == '\n' && buf[end - 2] == '\\')
			return true;
	}
	return false;
}

enum launcher_language
launcher_language(const char *buf, size_t len)
{
	static const char *const shells[] = {
		"sh", "bash", "dash", "ksh", "mksh", "lksh", "zsh", "posh",
		NULL,
	};
	const char *word;
	size_t n, i;

	word = shebang_command(buf, len, &n);
	if (word == NULL)
		return LAUNCHER_NONE;
	for (i = 0; shells[i]; i++)
		if (names_command(word, n, shells[i]))
			return reread_by_another(buf, len) ? LAUNCHER_NONE
			                                   : LAUNCHER_SHELL;
	if (names_command(word, n, "python"))
		return LAUNCHER_PYTHON;
	if (names_command(word, n, "perl"))
		return LAUNCHER_PERL;
	if (names_command(word, n, "ruby"))
		return LAUNCHER_RUBY;
	if (names_command(word, n, "node") || names_command(word, n, "nodejs"))
		return LAUNCHER_NODE;
	return LAUNCHER_NONE;
}

static bool
has_line(const char *buf, size_t len)
{
	return memmem(buf, len, " " LAUNCHER_WORD "\n",
	              strlen(LAUNCHER_WORD) + 2) != NULL;
}

bool
launcher_sets_data(const char *buf, size_t len)
{
	return launcher_is(buf, len) ||
	       (launcher_language(buf, len) != LAUNCHER_NONE &&
	        has_line(buf, len));
}

/*
 * The line of LANG putting D first on XDG_DATA_DIRS unless it is there:
 * the user's value kept, the specification's default when unset or
 * empty, as the launcher of a compiled program does.
 */
static char *
line_of(enum launcher_language lang, const char *d)
{
	char *out = NULL;
	int r = -1;

	switch (lang) {
	case LAUNCHER_SHELL:
		r = asprintf(&out, "case \":${XDG_DATA_DIRS:=" DEFAULT_DIRS
		             "}:\" in *:'%s':*) ;; *) XDG_DATA_DIRS='%s':"
		             "$XDG_DATA_DIRS ;; esac; export XDG_DATA_DIRS  "
		             "# " LAUNCHER_WORD "\n", d, d);
		break;
	case LAUNCHER_PYTHON:
		r = asprintf(&out, "import os; os.environ['XDG_DATA_DIRS'] = "
		             "(lambda x: x if '%s' in x.split(':') else "
		             "'%s:' + x)(os.environ.get('XDG_DATA_DIRS') or '"
		             DEFAULT_DIRS "')  # " LAUNCHER_WORD "\n", d, d);
		break;
	case LAUNCHER_PERL:
		/* "#line 2": Perl's messages name the lines as written. */
		r = asprintf(&out, "BEGIN { my $x = $ENV{XDG_DATA_DIRS} || '"
		             DEFAULT_DIRS "'; $ENV{XDG_DATA_DIRS} = (grep { "
		             "$_ eq '%s' } split /:/, $x) ? $x : '%s:' . $x }  "
		             "# " LAUNCHER_WORD "\n#line 2\n", d, d);
		break;
	case LAUNCHER_RUBY:
		r = asprintf(&out, "ENV['XDG_DATA_DIRS'] = (ENV['XDG_DATA_DIRS']"
		             ".to_s.empty? ? '" DEFAULT_DIRS "' : "
		             "ENV['XDG_DATA_DIRS']).then { |x| x.split(':')"
		             ".include?('%s') ? x : '%s:' + x }  # "
		             LAUNCHER_WORD "\n", d, d);
		break;
	case LAUNCHER_NODE:
		r = asprintf(&out, "process.env.XDG_DATA_DIRS = (x => "
		             "x.split(':').includes('%s') ? x : '%s:' + x)"
		             "(process.env.XDG_DATA_DIRS || '" DEFAULT_DIRS
		             "');  // " LAUNCHER_WORD "\n", d, d);
		break;
	default:
		break;
	}
	return r < 0 ? NULL : out;
}

/* Where the line of LANG goes in BUF. */
static size_t
insertion_point(enum launcher_language lang, const char *buf, size_t len)
{
	switch (lang) {
	case LAUNCHER_PYTHON:
		return python_launcher_insertion_point(buf, len);
	case LAUNCHER_RUBY:
		return module_launcher_insertion_point(MODULE_RUBY, buf, len);
	case LAUNCHER_NODE:
		return module_launcher_insertion_point(MODULE_NODE, buf, len);
	default:
		return next_line(buf, len, 0);
	}
}

char *
launcher_line_patch(const char *buf, size_t len, size_t *outlen,
                    void *datadir)
{
	enum launcher_language lang = launcher_language(buf, len);
	size_t at, n, k;
	char *line, *out;

	if (lang == LAUNCHER_NONE || launcher_is(buf, len) ||
	    has_line(buf, len) || !launcher_word_ok(datadir))
		return NULL;
	line = line_of(lang, datadir);
	if (line == NULL)
		return NULL;
	k = strlen(line);
	/* Perl's "#line 2" says nothing at the end of the program. */
	at = insertion_point(lang, buf, len);
	if (lang == LAUNCHER_PERL && at == len)
		k -= strlen("#line 2\n");
	out = malloc(len + k + 2);
	if (out == NULL) {
		free(line);
		return NULL;
	}
	memcpy(out, buf, at);
	n = at;
	if (at > 0 && buf[at - 1] != '\n')
		out[n++] = '\n';
	memcpy(out + n, line, k);
	n += k;
	memcpy(out + n, buf + at, len - at);
	n += len - at;
	free(line);
	*outlen = n;
	return out;
}
