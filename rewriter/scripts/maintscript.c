/*
 * maintscript.c: what an author's maintainer script did, for the
 * converter's report.
 *
 * The walk goes through the statements in the order the shell reads
 * them, so that a variable or a function is known only after the script
 * set or defined it.  A statement is judged in one of two roles: as a
 * statement, whose failure would stop a "set -e" script, or as a
 * condition (of if, or left of && and ||), where tests belong.
 */
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strings.h"
#include "scripts/maintscript.h"
#include "scripts/shell-syntax.h"

/* Deeper than any script written by hand: unknown, not recursed into. */
#define DEPTH_MAX 64

enum role {
	ROLE_STATEMENT,
	ROLE_CONDITION,
};

/* What a condition is when dpkg runs the script: true, false or unknown. */
enum tri {
	NO,
	YES,
	MAYBE,
};

struct function {
	char *name;
	struct json_object *body;
};

/* A variable the script sets once, at its top level, to a written-out
 * value: tests of it are decided when the script is converted. */
struct constant {
	char *name;
	char *value;
};

/* How many times the script assigns NAME, anywhere in it. */
struct assignment_count {
	char *name;
	int count;
};

/* Why the converter may drop a statement whole, besides integration. */
struct drop_reason {
	/* A path of the Debian package the statement handles (new string),
	 * and which of its names it is. */
	char *old_path;
	const char *old_name;
	/* OLD_NAME is one the package registers (an alternative's), not
	 * one of its own. */
	bool registered;
	/* A branch whose condition is always false. */
	bool dead;
};

struct walk {
	const char *text;
	size_t len;
	const struct maintscript_options *o;
	struct maintscript_verdict *v;
	char **vars;
	size_t nvars;
	struct function *funcs;
	size_t nfuncs;
	int depth;
	bool in_function;
	/* Counting refusals without recording them. */
	bool dry;
	size_t dry_unknown;
	struct constant *consts;
	size_t nconsts;
	struct assignment_count *assigned;
	size_t nassigned;
	/* An assignment whose name cannot be known: no constants. */
	bool assigned_unknown;
	/* The names the script registers outside the namespace
	 * (integration_names()): paths named for them are the package's. */
	char **held;
	size_t nheld;
};

/* dpkg's environment for maintainer scripts. */
/* The relations dpkg --compare-versions knows. */
/* Whether S is one of the words of LIST (NULL-terminated). */
static bool
in_list(const char *s, const char *const *list)
{
	for (; s != NULL && *list != NULL; list++)
		if (strcmp(s, *list) == 0)
			return true;
	return false;
}

static bool
version_relation(const char *op)
{
	static const char *const ops[] = {
		"lt", "le", "eq", "ne", "ge", "gt", "lt-nl", "le-nl", "ge-nl",
		"gt-nl", "<", "<<", "<=", "=", ">=", ">>", ">", NULL,
	};

	return in_list(op, ops);
}

static const char *const dpkg_vars[] = {
	"DPKG_MAINTSCRIPT_PACKAGE", "DPKG_MAINTSCRIPT_PACKAGE_REFCOUNT",
	"DPKG_MAINTSCRIPT_ARCH", "DPKG_MAINTSCRIPT_NAME",
	"DPKG_MAINTSCRIPT_DEBUG", "DPKG_RUNNING_VERSION", "DPKG_ROOT",
	"DPKG_ADMINDIR", "DPKG_FORCE", NULL,
};

static const char usage_hint[] =
	"a maintainer script of an extras package may only use set, case "
	"and if on $1, tests, variables, functions, echo, printf, umask and "
	"exit";

static void
add_note(struct maintscript_note **list, size_t *n, int line, char *text)
{
	*list = realloc(*list, (*n + 1) * sizeof(**list));
	if (*list == NULL)
		abort();
	(*list)[*n].line = line;
	(*list)[(*n)++].text = text;
}

/* The source of NODE on one line, at most 80 characters. */
static char *
source_of(const struct walk *w, struct json_object *node)
{
	size_t a = shell_offset(node, "Pos"), b = shell_offset(node, "End"), i;

	if (shell_get(node, "Semicolon") != NULL &&
	    shell_offset(node, "Semicolon") < b)
		b = shell_offset(node, "Semicolon");
	char *s = NULL;
	size_t size = 0, out = 0;
	FILE *fp = open_memstream(&s, &size);
	bool blank = false;

	if (fp == NULL)
		abort();
	if (b > w->len)
		b = w->len;
	for (i = a; i < b && out < 80; i++) {
		unsigned char c = w->text[i];

		if (c == '\\' && i + 1 < b && w->text[i + 1] == '\n') {
			i++;
			c = ' ';
		}
		if (c == '\n' || c == '\t' || c == ' ') {
			blank = true;
			continue;
		}
		if (blank && out > 0) {
			fputc(' ', fp);
			out++;
		}
		blank = false;
		fputc(c < 0x20 || c == 0x7f ? '?' : c, fp);
		out++;
	}
	if (i < b)
		fputs("...", fp);
	fclose(fp);
	return s;
}

static void
unknown(struct walk *w, struct json_object *node, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* NODE has no extras meaning: "`SOURCE`: WHY". */
static void
unknown(struct walk *w, struct json_object *node, const char *fmt, ...)
{
	char *why, *src, *text;
	va_list ap;

	if (w->dry) {
		w->dry_unknown++;
		return;
	}
	va_start(ap, fmt);
	if (vasprintf(&why, fmt, ap) < 0)
		abort();
	va_end(ap);
	src = source_of(w, node);
	if (asprintf(&text, "`%s`: %s", src, why) < 0)
		abort();
	free(src);
	free(why);
	add_note(&w->v->unknown, &w->v->nunknown, shell_line(node, "Pos"),
	         text);
}

static bool
is(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* The operator at OpPos of NODE, as written: "&&", ">", "2>&" ... */
static bool
op_is(const struct walk *w, struct json_object *node, const char *op)
{
	size_t at = shell_offset(node, "OpPos"), n = strlen(op);

	return at + n <= w->len && strncmp(w->text + at, op, n) == 0 &&
	       (at + n == w->len || strchr("&|;<>", w->text[at + n]) == NULL);
}

static bool
var_known(const struct walk *w, const char *name)
{
	size_t i;

	if (name == NULL)
		return false;
	if (strspn(name, "0123456789") == strlen(name) ||
	    strchr("#@*?-$!", name[0]) != NULL)
		return name[0] != '\0';
	for (i = 0; dpkg_vars[i]; i++)
		if (strcmp(dpkg_vars[i], name) == 0)
			return true;
	for (i = 0; i < w->nvars; i++)
		if (strcmp(w->vars[i], name) == 0)
			return true;
	return false;
}

static void
var_set(struct walk *w, const char *name)
{
	if (var_known(w, name))
		return;
	w->vars = realloc(w->vars, (w->nvars + 1) * sizeof(char *));
	if (w->vars == NULL || (w->vars[w->nvars++] = strdup(name)) == NULL)
		abort();
}

static const struct function *
function_of(const struct walk *w, const char *name)
{
	size_t i;

	for (i = 0; name != NULL && i < w->nfuncs; i++)
		if (strcmp(w->funcs[i].name, name) == 0)
			return &w->funcs[i];
	return NULL;
}

static const char *
param_name(struct json_object *pe)
{
	struct json_object *p = shell_get(shell_get(pe, "Param"), "Value");

	return p ? json_object_get_string(p) : NULL;
}

static bool check_word(struct walk *w, struct json_object *word,
                       struct json_object *at, bool condition);

/*
 * The operator of ${NAME-WORD}, ${NAME:-WORD}, ${NAME+WORD} or
 * ${NAME:+WORD}, read from the source ("-", ":-", "+", ":+"), or NULL for
 * any other (":=" assigns, "?" exits).
 */
static const char *
param_default_op(const struct walk *w, struct json_object *pe)
{
	static const char *const ops[] = { ":-", ":+", "-", "+", NULL };
	const char *name = param_name(pe);
	size_t start = shell_offset(pe, "Pos"), at, i;

	if (name == NULL || shell_get(pe, "Exp") == NULL)
		return NULL;
	at = start + 2 + strlen(name);
	if (at + 2 >= w->len || strncmp(w->text + start, "${", 2) != 0)
		return NULL;
	for (i = 0; ops[i]; i++)
		if (strncmp(w->text + at, ops[i], strlen(ops[i])) == 0)
			return ops[i];
	return NULL;
}

/*
 * $NAME, ${NAME}, ${#NAME}, ${NAME:-WORD} and ${NAME:+WORD} of a variable
 * the script set (or a positional parameter, or dpkg's): nothing else is
 * expanded.
 */
static bool
check_param(struct walk *w, struct json_object *pe, struct json_object *at)
{
	const char *name = param_name(pe);
	struct json_object *exp = shell_get(pe, "Exp");

	if (shell_get(pe, "Excl") || shell_get(pe, "Index") ||
	    shell_get(pe, "Slice") || shell_get(pe, "Repl") ||
	    shell_get(pe, "Names") || shell_get(pe, "Width")) {
		unknown(w, at, "an expansion other than $VAR, ${VAR}, "
		       "${VAR:-WORD} or ${VAR:+WORD}: write the value out");
		return false;
	}
	if (exp != NULL) {
		if (param_default_op(w, pe) == NULL) {
			unknown(w, at, "an expansion other than $VAR, ${VAR}, "
			       "${VAR:-WORD} or ${VAR:+WORD}: write the value "
			       "out");
			return false;
		}
		return check_word(w, shell_get(exp, "Word"), at, false);
	}
	if (!var_known(w, name)) {
		unknown(w, at, "$%s is never set by the script: set it first "
		       "(VAR=value), or write the value out", name ? name : "?");
		return false;
	}
	return true;
}

/* The command substitutions a condition may hold: $(command -v WORD). */
static bool
lookup_substitution(struct json_object *cs)
{
	struct json_object *st = shell_at(cs, "Stmts", 0), *cmd;
	char *a0, *a1 = NULL, *a2 = NULL;
	size_t n;
	bool ok;

	if (shell_count(cs, "Stmts") != 1 || shell_get(st, "Negated") ||
	    shell_get(st, "Background"))
		return false;
	cmd = shell_get(st, "Cmd");
	if (strcmp(shell_type(cmd), "CallExpr") != 0 ||
	    shell_count(cmd, "Assigns") > 0)
		return false;
	n = shell_count(cmd, "Args");
	for (size_t i = 0; i < shell_count(st, "Redirs"); i++) {
		char *t = shell_word_literal(shell_get(shell_at(st, "Redirs", i),
		                                       "Word"));
		bool null = is(t, "/dev/null");

		free(t);
		if (!null)
			return false;
	}
	a0 = shell_word_literal(shell_at(cmd, "Args", 0));
	if (n > 1)
		a1 = shell_word_literal(shell_at(cmd, "Args", 1));
	if (n > 2)
		a2 = shell_word_literal(shell_at(cmd, "Args", 2));
	ok = (n == 2 && (is(a0, "which") || is(a0, "type")) && a1 != NULL) ||
	     (n == 3 && is(a0, "command") && is(a1, "-v") && a2 != NULL);
	free(a0);
	free(a1);
	free(a2);
	return ok;
}

/*
 * A word that expands nothing but the variables check_param allows (and,
 * in a condition, looks a command up).
 */
static bool
check_parts(struct walk *w, struct json_object *node, struct json_object *at,
            bool condition)
{
	size_t i;
	bool ok = true;

	for (i = 0; ok && i < shell_count(node, "Parts"); i++) {
		struct json_object *p = shell_at(node, "Parts", i);
		const char *t = shell_type(p);

		if (strcmp(t, "Lit") == 0) {
			continue;
		} else if (strcmp(t, "SglQuoted") == 0 ||
		           strcmp(t, "DblQuoted") == 0) {
			if (json_object_get_boolean(shell_get(p, "Dollar"))) {
				unknown(w, at, "$'...' and $\"...\" are not "
				       "POSIX: use plain quotes");
				ok = false;
			} else if (strcmp(t, "DblQuoted") == 0) {
				ok = check_parts(w, p, at, condition);
			}
		} else if (strcmp(t, "ParamExp") == 0) {
			ok = check_param(w, p, at);
		} else if (strcmp(t, "CmdSubst") == 0) {
			if (condition && lookup_substitution(p))
				continue;
			unknown(w, at, "command substitution runs commands "
			       "nobody reviewed: write the value out");
			ok = false;
		} else {
			unknown(w, at, "%s is more than a maintainer script of "
			       "an extras package needs: write the value out",
			       strcmp(t, "ArithmExp") == 0 ? "arithmetic" :
			       strcmp(t, "ProcSubst") == 0 ?
			       "process substitution" :
			       strcmp(t, "BraceExp") == 0 ? "brace expansion" :
			       "this expansion");
			ok = false;
		}
	}
	return ok;
}

static bool
check_word(struct walk *w, struct json_object *word, struct json_object *at,
           bool condition)
{
	if (word == NULL)
		return true;
	return check_parts(w, word, at, condition);
}

/* >&2, 2>&1, >/dev/null, 2>/dev/null, </dev/null: nothing else. */
static bool
check_redirects(struct walk *w, struct json_object *st)
{
	size_t i;

	for (i = 0; i < shell_count(st, "Redirs"); i++) {
		struct json_object *r = shell_at(st, "Redirs", i);
		char *target = shell_word_literal(shell_get(r, "Word"));
		bool dup = op_is(w, r, ">&") || op_is(w, r, "<&");
		bool null = (op_is(w, r, ">") || op_is(w, r, ">>") ||
		             op_is(w, r, "<") || op_is(w, r, "&>")) &&
		            is(target, "/dev/null");
		bool fd = target != NULL && strlen(target) == 1 &&
		          strchr("0123456789-", target[0]) != NULL;

		free(target);
		if (shell_get(r, "Hdoc") != NULL) {
			unknown(w, st, "a here-document feeds a command nobody "
			       "reviewed: remove it");
			return false;
		}
		if (!(dup && fd) && !null) {
			unknown(w, st, "a maintainer script of an extras package "
			       "writes no files: redirect only to /dev/null or "
			       "between descriptors (>&2)");
			return false;
		}
	}
	return true;
}

/* The words of CALL, written out (NULL where a word expands). */
static char **
call_words(struct json_object *call, size_t *n)
{
	char **argv;
	size_t i;

	*n = shell_count(call, "Args");
	argv = calloc(*n + 1, sizeof(char *));
	if (argv == NULL)
		abort();
	for (i = 0; i < *n; i++)
		argv[i] = shell_word_literal(shell_at(call, "Args", i));
	return argv;
}

static bool
is_number(const char *s)
{
	return s != NULL && *s && strspn(s, "0123456789") == strlen(s) &&
	       strlen(s) <= 3;
}

static bool
is_name(const char *s)
{
	return s != NULL && (s[0] == '_' || (s[0] >= 'A' && s[0] <= 'Z') ||
	                     (s[0] >= 'a' && s[0] <= 'z')) &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	                 "0123456789_") == strlen(s);
}

static void
count_assignment(struct walk *w, const char *name)
{
	size_t i;

	if (!is_name(name)) {
		w->assigned_unknown = true;
		return;
	}
	for (i = 0; i < w->nassigned; i++)
		if (strcmp(w->assigned[i].name, name) == 0) {
			w->assigned[i].count++;
			return;
		}
	w->assigned = realloc(w->assigned,
	                      (w->nassigned + 1) * sizeof(*w->assigned));
	if (w->assigned == NULL ||
	    (w->assigned[w->nassigned].name = strdup(name)) == NULL)
		abort();
	w->assigned[w->nassigned++].count = 1;
}

/* The names the command CALL registers outside the namespace, into
 * W->held: a name registered anywhere in the script is the package's. */
static void
hold_names(struct walk *w, struct json_object *call)
{
	size_t argc, n;
	char **argv, **names;

	if (w->o->db == NULL)
		return;
	argv = call_words(call, &argc);
	n = argc > 0 ? integration_names(w->o->db, argv, argc, &names) : 0;
	if (n > 0) {
		w->held = realloc(w->held, (w->nheld + n) * sizeof(*w->held));
		if (w->held == NULL)
			abort();
		memcpy(w->held + w->nheld, names, n * sizeof(*names));
		w->nheld += n;
	}
	if (argc > 0)
		free(names);
	strings_free(argv, argc);
}

/*
 * What the walk needs to know of the whole script before it judges a
 * line, from NODE wherever it is and whether it runs or not.  Every
 * assignment is counted (VAR=, for VAR, read VAR, export, local,
 * ${VAR:=WORD} ...): a name the script assigns once, at its top level, to
 * a written-out value is a constant.  What cannot be counted (arithmetic,
 * a name that expands) means no constants.  And the names its commands
 * register outside the namespace are held (hold_names()).
 */
static void
survey(struct walk *w, struct json_object *node, int depth)
{
	static const char *const setters[] = {
		"read", "getopts", "export", "local", "readonly", "declare",
		"typeset", "unset", NULL,
	};
	const char *t;
	size_t i;

	if (depth > 4 * DEPTH_MAX) {
		w->assigned_unknown = true;
		return;
	}
	if (json_object_is_type(node, json_type_array)) {
		for (i = 0; i < json_object_array_length(node); i++)
			survey(w, json_object_array_get_idx(node, i),
			       depth + 1);
		return;
	}
	if (!json_object_is_type(node, json_type_object))
		return;
	t = shell_type(node);
	if (strcmp(t, "CallExpr") == 0) {
		char *a0 = shell_word_literal(shell_at(node, "Args", 0));

		hold_names(w, node);
		for (i = 0; i < shell_count(node, "Assigns"); i++)
			count_assignment(w, json_object_get_string(shell_get(
				shell_get(shell_at(node, "Assigns", i), "Name"),
				"Value")));
		for (size_t j = 1; in_list(a0, setters) &&
		                   j < shell_count(node, "Args"); j++) {
			char *a = shell_word_literal(shell_at(node, "Args", j));

			if (a == NULL) {
				w->assigned_unknown = true;
			} else if (a[0] != '-') {
				a[strcspn(a, "=")] = '\0';
				count_assignment(w, a);
			}
			free(a);
		}
		free(a0);
	} else if (strcmp(t, "DeclClause") == 0) {
		for (i = 0; i < shell_count(node, "Args"); i++)
			count_assignment(w, json_object_get_string(shell_get(
				shell_get(shell_at(node, "Args", i), "Name"),
				"Value")));
	} else if (strcmp(t, "ForClause") == 0) {
		count_assignment(w, json_object_get_string(shell_get(shell_get(
			shell_get(node, "Loop"), "Name"), "Value")));
	} else if (strcmp(t, "ParamExp") == 0) {
		if (shell_get(node, "Exp") != NULL &&
		    param_default_op(w, node) == NULL)
			count_assignment(w, param_name(node));
	} else if (strcmp(t, "ArithmExp") == 0 ||
	           strcmp(t, "ArithmCmd") == 0 ||
	           strcmp(t, "LetClause") == 0) {
		w->assigned_unknown = true;
	}
	json_object_object_foreach(node, key, val) {
		(void)key;
		survey(w, val, depth + 1);
	}
}

static const char *
const_value(const struct walk *w, const char *name)
{
	size_t i;

	/* From the last: a loop's variable is bound last
	 * (loop_droppable()). */
	for (i = w->nconsts; name != NULL && i-- > 0;)
		if (strcmp(w->consts[i].name, name) == 0)
			return w->consts[i].value;
	return NULL;
}

static char *word_value(const struct walk *w, struct json_object *word,
                        const char *arg1);
static char *word_prefix(const struct walk *w, struct json_object *word,
                         const char *arg1, bool *whole);

/* NAME=VALUE, read by the walk: a constant when nothing else sets NAME. */
static void
maybe_constant(struct walk *w, const char *name, struct json_object *value)
{
	size_t i;
	char *v;

	if (w->dry || w->depth != 1 || w->in_function || w->assigned_unknown)
		return;
	for (i = 0; i < w->nassigned; i++)
		if (strcmp(w->assigned[i].name, name) == 0)
			break;
	if (i == w->nassigned || w->assigned[i].count != 1)
		return;
	v = value == NULL ? strdup("") : word_value(w, value, NULL);
	if (v == NULL)
		return;
	w->consts = realloc(w->consts, (w->nconsts + 1) * sizeof(*w->consts));
	if (w->consts == NULL ||
	    (w->consts[w->nconsts].name = strdup(name)) == NULL)
		abort();
	w->consts[w->nconsts++].value = v;
}

/* VAR=VALUE assignments, before no command. */
static bool
check_assigns(struct walk *w, struct json_object *call,
              struct json_object *st)
{
	size_t i;
	bool ok = true;

	for (i = 0; ok && i < shell_count(call, "Assigns"); i++) {
		struct json_object *a = shell_at(call, "Assigns", i);
		const char *name = json_object_get_string(
			shell_get(shell_get(a, "Name"), "Value"));

		if (shell_get(a, "Append") || shell_get(a, "Index") ||
		    shell_get(a, "Array") || !is_name(name)) {
			unknown(w, st, "only VAR=VALUE assignments are "
			       "understood");
			ok = false;
		} else {
			ok = check_word(w, shell_get(a, "Value"), st, false);
			if (ok) {
				var_set(w, name);
				maybe_constant(w, name, shell_get(a, "Value"));
			}
		}
	}
	return ok;
}

/* export/local/readonly NAME[=VALUE]... */
static bool
check_declaration(struct walk *w, char **argv, size_t argc,
                  struct json_object *call, struct json_object *st)
{
	size_t i;

	for (i = 1; i < argc; i++) {
		char *eq = argv[i] ? strchr(argv[i], '=') : NULL;
		struct json_object *word = shell_at(call, "Args", i);

		if (eq == NULL && !is_name(argv[i])) {
			/* NAME=$VAR: the name written out, the value checked. */
			struct json_object *p0 = shell_at(word, "Parts", 0);
			const char *v = json_object_get_string(
				shell_get(p0, "Value"));
			size_t n = v ? strcspn(v, "=") : 0;

			if (strcmp(shell_type(p0), "Lit") != 0 || v == NULL ||
			    v[n] != '=' || n == 0) {
				unknown(w, st, "declare variables by name: "
				       "NAME or NAME=VALUE");
				return false;
			}
			if (!check_word(w, word, st, false))
				return false;
			{
				char *name = strndup(v, n);

				if (name == NULL)
					abort();
				if (!is_name(name)) {
					free(name);
					unknown(w, st, "declare variables by "
					       "name: NAME or NAME=VALUE");
					return false;
				}
				var_set(w, name);
				free(name);
			}
			continue;
		}
		if (eq != NULL)
			*eq = '\0';
		if (!is_name(argv[i])) {
			unknown(w, st, "declare variables by name: NAME or "
			       "NAME=VALUE");
			return false;
		}
		var_set(w, argv[i]);
	}
	return true;
}

static void integration_drop(struct walk *w, struct json_object *st,
                             struct json_object *call);
static void check_list(struct walk *w, struct json_object *node,
                       const char *key, enum role role, bool must_have);

/* A simple command: the heart of the grammar. */
static void
check_call(struct walk *w, struct json_object *st, struct json_object *call,
           enum role role)
{
	size_t argc, i;
	char **argv = call_words(call, &argc);
	const char *name = argv[0];
	bool ok = true, words = true;

	if (argc == 0) {
		if (role == ROLE_CONDITION)
			unknown(w, st, "an assignment is no condition");
		else
			check_assigns(w, call, st);
		goto done;
	}
	if (shell_count(call, "Assigns") > 0) {
		unknown(w, st, "VAR=VALUE before a command is not understood: "
		       "set the variable on its own line");
		goto done;
	}
	if (name == NULL) {
		unknown(w, st, "the command name must be written out");
		goto done;
	}
	if (w->o->db != NULL && integration_match(w->o->db, argv, argc)) {
		if (role == ROLE_CONDITION)
			unknown(w, st, "system integration whose result is used "
			       "cannot be dropped: remove it");
		else
			integration_drop(w, st, call);
		goto done;
	}
	if (is(name, "set")) {
		for (i = 1; ok && i < argc; i++)
			ok = argv[i] != NULL && (argv[i][0] == '-' ||
			                         argv[i][0] == '+') &&
			     strlen(argv[i]) > 1 &&
			     strspn(argv[i] + 1, "eux") == strlen(argv[i]) - 1;
		if (!ok || argc == 1)
			unknown(w, st, "set takes only -e, -u and -x here");
		words = false;
	} else if (is(name, "exit") || is(name, "return")) {
		if (argc > 2 || (argc == 2 && !is_number(argv[1])))
			unknown(w, st, "%s takes a number written out", name);
		else if (is(name, "return") && !w->in_function)
			unknown(w, st, "return outside a function");
		words = false;
	} else if (is(name, "true")) {
		if (argc > 1)
			unknown(w, st, "%s takes no arguments here", name);
		words = false;
	} else if (is(name, ":")) {
		/* Its words are expanded and nothing else: judged below. */
	} else if (is(name, "umask")) {
		if (argc != 2 || argv[1] == NULL ||
		    strspn(argv[1], "01234567") != strlen(argv[1]) ||
		    strlen(argv[1]) < 3 || strlen(argv[1]) > 4)
			unknown(w, st, "umask takes an octal mode written out");
		words = false;
	} else if (is(name, "echo") || is(name, "printf")) {
	} else if (is(name, "[") || is(name, "test")) {
		if (role != ROLE_CONDITION)
			unknown(w, st, "a test whose result nobody uses stops "
			       "a set -e script when false: use it in if, or "
			       "left of && or ||");
		else if (is(name, "[") && !is(argv[argc - 1], "]"))
			unknown(w, st, "[ without ]");
	} else if (is(name, "dpkg")) {
		/* Comparing versions changes nothing: a condition like test. */
		if (role != ROLE_CONDITION || argc != 5 ||
		    !is(argv[1], "--compare-versions") || !version_relation(argv[3]))
			unknown(w, st, "dpkg is not a command an extras package's "
			       "maintainer script may run, but as a condition: "
			       "if dpkg --compare-versions \"$2\" lt VERSION");
	} else if (is(name, "command") || is(name, "which") ||
	           is(name, "type")) {
		if (role != ROLE_CONDITION ||
		    !(is(name, "command") ? argc == 3 && is(argv[1], "-v") &&
		      argv[2] != NULL : argc == 2 && argv[1] != NULL))
			unknown(w, st, "%s only as a condition: if command -v "
			       "NAME >/dev/null; then", name);
		words = false;
	} else if (is(name, "export") || is(name, "local") ||
	           is(name, "readonly")) {
		if (is(name, "local") && !w->in_function)
			unknown(w, st, "local outside a function");
		else
			check_declaration(w, argv, argc, call, st);
		words = false;
	} else if (function_of(w, name) != NULL) {
	} else {
		unknown(w, st, "%s is not a command %s", name,
		       is(name, "eval") || is(name, ".") || is(name, "source") ||
		       is(name, "exec") ? "whose effect can be judged: write "
		       "out what it would run" :
		       "an extras package's maintainer script may run: remove "
		       "it, or do it in the app");
		words = false;
	}
	for (i = 1; words && i < argc; i++)
		if (!check_word(w, shell_at(call, "Args", i), st,
		                role == ROLE_CONDITION))
			break;
done:
	strings_free(argv, argc);
}

static void check_stmt(struct walk *w, struct json_object *st, enum role role);

/* bash's local, export, readonly NAME[=VALUE]. */
static void
check_decl_clause(struct walk *w, struct json_object *decl,
                  struct json_object *st)
{
	const char *variant = json_object_get_string(
		shell_get(shell_get(decl, "Variant"), "Value"));
	size_t i;

	if (!is(variant, "local") && !is(variant, "export") &&
	    !is(variant, "readonly")) {
		unknown(w, st, "%s is not understood: write NAME=VALUE",
		       variant ? variant : "this declaration");
		return;
	}
	if (is(variant, "local") && !w->in_function) {
		unknown(w, st, "local outside a function");
		return;
	}
	for (i = 0; i < shell_count(decl, "Args"); i++) {
		struct json_object *a = shell_at(decl, "Args", i);
		const char *name = json_object_get_string(
			shell_get(shell_get(a, "Name"), "Value"));

		if (shell_get(a, "Append") || shell_get(a, "Index") ||
		    shell_get(a, "Array") || !is_name(name)) {
			unknown(w, st, "declare variables by name: NAME or "
			       "NAME=VALUE");
			return;
		}
		if (!check_word(w, shell_get(a, "Value"), st, false))
			return;
		var_set(w, name);
	}
}

static void
check_if(struct walk *w, struct json_object *clause, struct json_object *st,
         enum role role)
{
	if (role == ROLE_CONDITION) {
		unknown(w, st, "if as a condition is not understood");
		return;
	}
	for (; clause != NULL; clause = shell_get(clause, "Else")) {
		check_list(w, clause, "Cond", ROLE_CONDITION, false);
		check_list(w, clause, "Then", ROLE_STATEMENT, true);
	}
}

static void
check_case(struct walk *w, struct json_object *clause, struct json_object *st,
           enum role role)
{
	size_t i, j;

	if (role == ROLE_CONDITION) {
		unknown(w, st, "case as a condition is not understood");
		return;
	}
	if (!check_word(w, shell_get(clause, "Word"), st, false))
		return;
	for (i = 0; i < shell_count(clause, "Items"); i++) {
		struct json_object *it = shell_at(clause, "Items", i);
		if (shell_get(it, "OpPos") != NULL &&
		    shell_offset(it, "OpPos") > 0 && !op_is(w, it, ";;")) {
			unknown(w, st, "case items end with ;; here");
			return;
		}
		for (j = 0; j < shell_count(it, "Patterns"); j++)
			if (!check_word(w, shell_at(it, "Patterns", j), st,
			                false))
				return;
		check_list(w, it, "Stmts", ROLE_STATEMENT, false);
	}
}

static void
check_function(struct walk *w, struct json_object *decl,
               struct json_object *st)
{
	const char *name = json_object_get_string(
		shell_get(shell_get(decl, "Name"), "Value"));
	struct json_object *body = shell_get(decl, "Body");
	bool in = w->in_function;

	if (!is_name(name) || function_of(w, name) != NULL) {
		unknown(w, st, "a function is defined once, with a plain name");
		return;
	}
	if (strcmp(shell_type(shell_get(body, "Cmd")), "Block") != 0 ||
	    shell_count(body, "Redirs") > 0) {
		unknown(w, st, "a function body is a { ... } block");
		return;
	}
	/* Defined before its body is judged: it may call itself. */
	w->funcs = realloc(w->funcs, (w->nfuncs + 1) * sizeof(*w->funcs));
	if (w->funcs == NULL ||
	    (w->funcs[w->nfuncs].name = strdup(name)) == NULL)
		abort();
	w->funcs[w->nfuncs++].body = shell_get(body, "Cmd");
	w->in_function = true;
	check_list(w, shell_get(body, "Cmd"), "Stmts", ROLE_STATEMENT, true);
	w->in_function = in;
}

static void
check_binary(struct walk *w, struct json_object *bin, struct json_object *st,
             enum role role)
{
	if (!op_is(w, bin, "&&") && !op_is(w, bin, "||")) {
		unknown(w, st, "a pipe feeds commands nobody reviewed: remove "
		       "it");
		return;
	}
	check_stmt(w, shell_get(bin, "X"), ROLE_CONDITION);
	check_stmt(w, shell_get(bin, "Y"), role);
}

static void
check_stmt(struct walk *w, struct json_object *st, enum role role)
{
	struct json_object *cmd = shell_get(st, "Cmd");
	const char *t = shell_type(cmd);

	if (w->depth >= DEPTH_MAX) {
		unknown(w, st, "nested too deep");
		return;
	}
	if (shell_get(st, "Background") || shell_get(st, "Coprocess")) {
		unknown(w, st, "a command in the background outlives the "
		       "script: remove the &");
		return;
	}
	if (cmd == NULL) {
		unknown(w, st, "a redirection alone creates files");
		return;
	}
	if (!check_redirects(w, st))
		return;
	if (shell_get(st, "Negated") && role != ROLE_CONDITION) {
		unknown(w, st, "! is for conditions");
		return;
	}
	w->depth++;
	if (strcmp(t, "CallExpr") == 0)
		check_call(w, st, cmd, role);
	else if (strcmp(t, "IfClause") == 0)
		check_if(w, cmd, st, role);
	else if (strcmp(t, "CaseClause") == 0)
		check_case(w, cmd, st, role);
	else if (strcmp(t, "FuncDecl") == 0 && role == ROLE_STATEMENT)
		check_function(w, cmd, st);
	else if (strcmp(t, "BinaryCmd") == 0)
		check_binary(w, cmd, st, role);
	else if (strcmp(t, "Block") == 0)
		check_list(w, cmd, "Stmts", role, true);
	else if (strcmp(t, "DeclClause") == 0 && role == ROLE_STATEMENT)
		check_decl_clause(w, cmd, st);
	else
		unknown(w, st, "%s: %s",
		       strcmp(t, "WhileClause") == 0 ? "a loop" :
		       strcmp(t, "ForClause") == 0 ? "a loop" :
		       strcmp(t, "Subshell") == 0 ? "a subshell" :
		       strcmp(t, "TestClause") == 0 ? "[[ ]]" :
		       "this construct", usage_hint);
	w->depth--;
}

static enum tri eval_stmt(const struct walk *w, struct json_object *st,
                          const char *arg1);
static enum tri eval_list(const struct walk *w, struct json_object *node,
                          const char *key, const char *arg1);

static void
reason_free(struct drop_reason *r)
{
	free(r->old_path);
	memset(r, 0, sizeof(*r));
}

/* Add what R found to WHY (the first path found is the one reported). */
static void
reason_merge(struct drop_reason *why, struct drop_reason *r)
{
	if (why->old_path == NULL) {
		why->old_path = r->old_path;
		why->old_name = r->old_name;
		why->registered = r->registered;
		r->old_path = NULL;
	}
	why->dead |= r->dead;
	reason_free(r);
}

/* Whether the walk knows names a path of the Debian package may have. */
static bool
knows_old_names(const struct walk *w)
{
	return w->o->nold_names > 0 || w->nheld > 0;
}

/*
 * Whether WORD names a file of the Debian package outside the namespace:
 * an absolute path in the places the FHS gives packages (/etc, /var,
 * /usr ...) with a component that is one of the package's names, or,
 * last, NAME.EXT (/etc/NAME.conf).  Only what is known of the word
 * counts: /var/games/NAME/$dir is one, /var/games/$dir is not.
 */
static bool
old_path(const struct walk *w, struct json_object *word,
         struct drop_reason *why)
{
	static const char *const tops[] = {
		"etc", "var", "usr", "srv", "lib", "lib32", "lib64", "libx32",
		"bin", "sbin", NULL,
	};
	const struct maintscript_options *o = w->o;
	bool whole;
	char *p = word_prefix(w, word, NULL, &whole);
	const char *c, *name = NULL;
	size_t n, i, k = 0;
	bool registered = false;

	for (c = p + 1; p[0] == '/' && *c; c += n + (c[n] == '/')) {
		n = strcspn(c, "/");
		if (c[n] == '\0' && !whole)
			break;	/* the component goes on: unknown */
		if (n == 0)
			continue;
		if ((n == 1 && c[0] == '.') ||
		    (n == 2 && strncmp(c, "..", 2) == 0)) {
			name = NULL;
			break;
		}
		for (i = 0; k == 0 && tops[i]; i++)
			if (strlen(tops[i]) == n && strncmp(c, tops[i], n) == 0)
				break;
		if (k++ == 0 && tops[i] == NULL)
			break;
		for (i = 0; name == NULL && i < o->nold_names + w->nheld;
		     i++) {
			const char *cand = i < o->nold_names ?
			                   o->old_names[i] :
			                   w->held[i - o->nold_names];
			size_t l = strlen(cand);

			if (strncmp(c, cand, l) == 0 &&
			    (n == l || (c[n] == '\0' && n > l + 1 &&
			                c[l] == '.'))) {
				name = cand;
				registered = i >= o->nold_names;
			}
		}
	}
	if (name != NULL && why->old_path == NULL) {
		why->old_path = p;
		why->old_name = name;
		why->registered = registered;
	} else {
		free(p);
	}
	return name != NULL;
}

/* [ -d PATH ] or test -e PATH, of a path of the Debian package. */
static bool
old_path_test(const struct walk *w, struct json_object *st,
              struct drop_reason *why)
{
	static const char *const ops[] = {
		"-d", "-e", "-f", "-L", "-h", "-s", "-r", "-w", "-x", "-p",
		"-S", "-b", "-c", NULL,
	};
	struct json_object *cmd = shell_get(st, "Cmd");
	size_t argc;
	char **argv;
	bool ok;

	if (strcmp(shell_type(cmd), "CallExpr") != 0 ||
	    shell_get(st, "Negated") || shell_count(cmd, "Assigns") > 0)
		return false;
	argv = call_words(cmd, &argc);
	ok = ((argc == 4 && is(argv[0], "[") && is(argv[3], "]")) ||
	      (argc == 3 && is(argv[0], "test"))) && in_list(argv[1], ops);
	strings_free(argv, argc);
	return ok && old_path(w, shell_at(cmd, "Args", 2), why);
}

/* Whether condition ST can only be true when a path of the Debian
 * package exists. */
static bool
needs_old_path(const struct walk *w, struct json_object *st,
               struct drop_reason *why)
{
	struct json_object *cmd = shell_get(st, "Cmd");
	struct drop_reason x = { 0 }, y = { 0 };
	bool ok = false;

	if (strcmp(shell_type(cmd), "CallExpr") == 0)
		return old_path_test(w, st, why);
	if (strcmp(shell_type(cmd), "BinaryCmd") != 0 ||
	    shell_get(st, "Negated"))
		return false;
	if (op_is(w, cmd, "&&"))
		ok = needs_old_path(w, shell_get(cmd, "X"), &x) ||
		     needs_old_path(w, shell_get(cmd, "Y"), &y);
	else if (op_is(w, cmd, "||"))
		ok = needs_old_path(w, shell_get(cmd, "X"), &x) &&
		     needs_old_path(w, shell_get(cmd, "Y"), &y);
	if (ok) {
		reason_merge(why, &x);
		reason_merge(why, &y);
	}
	reason_free(&x);
	reason_free(&y);
	return ok;
}

static bool
cond_needs_old_path(const struct walk *w, struct json_object *clause,
                    struct drop_reason *why)
{
	size_t n = shell_count(clause, "Cond");

	return knows_old_names(w) && n > 0 &&
	       needs_old_path(w, shell_at(clause, "Cond", n - 1), why);
}

/*
 * rm, mv, cp, ln, mkdir, touch, chown, chgrp or chmod of paths of the
 * Debian package only: its old state, ownership or set-id bits.
 */
static bool
old_files_command(const struct walk *w, struct json_object *call,
                  struct drop_reason *why)
{
	static const char *const cmds[] = {
		"rm", "rmdir", "mv", "cp", "ln", "mkdir", "touch", "chown",
		"chgrp", "chmod", NULL,
	};
	struct drop_reason r = { 0 };
	size_t argc, i, operands = 0;
	char **argv = call_words(call, &argc);
	bool ok = knows_old_names(w) && argc > 1 &&
	          shell_count(call, "Assigns") == 0;
	bool options = true, owner = false;

	ok = ok && in_list(argv[0], cmds);
	owner = ok && (is(argv[0], "chown") || is(argv[0], "chgrp") ||
	               is(argv[0], "chmod"));
	for (i = 1; ok && i < argc; i++) {
		const char *a = argv[i];

		if (options && a != NULL && a[0] == '-' && a[1] != '\0') {
			if (is(a, "--"))
				options = false;
			else if (is(argv[0], "mkdir") && is(a, "-m"))
				i++;
			continue;
		}
		if (owner) {
			owner = false;
			continue;
		}
		ok = old_path(w, shell_at(call, "Args", i), &r);
		operands++;
	}
	ok = ok && operands > 0;
	if (ok)
		reason_merge(why, &r);
	reason_free(&r);
	strings_free(argv, argc);
	return ok;
}

/* Whether condition ST passes the grammar (counted, not recorded). */
static bool
condition_ok(struct walk *w, struct json_object *st)
{
	bool dry = w->dry;
	size_t before = w->dry_unknown;
	bool ok;

	w->dry = true;
	check_stmt(w, st, ROLE_CONDITION);
	ok = w->dry_unknown == before;
	w->dry = dry;
	w->dry_unknown = before;
	return ok;
}

static bool droppable(struct walk *w, struct json_object *st,
                      struct drop_reason *why);

/* Whether ST's redirections are those a script may make, judged quietly. */
static bool
redirects_ok(struct walk *w, struct json_object *st)
{
	bool dry = w->dry, ok;
	size_t before = w->dry_unknown;

	w->dry = true;
	ok = check_redirects(w, st) && w->dry_unknown == before;
	w->dry = dry;
	w->dry_unknown = before;
	return ok;
}

/*
 * A condition that asks the system's integration and reads the answer:
 * a pipe of integration commands and grep, every word written out,
 * redirected only to /dev/null or between descriptors (rxvt-unicode's
 * "! update-alternatives --query x-terminal-emulator | grep -q
 * '^Value: ...'").  It may guard integration that is dropped, and goes
 * with it: nothing of it runs in the converted script.
 */
static bool
integration_query(struct walk *w, struct json_object *st)
{
	struct json_object *cmd = shell_get(st, "Cmd");
	const char *t = shell_type(cmd);
	bool ok = false;

	if (cmd == NULL || w->o->db == NULL || w->depth >= DEPTH_MAX ||
	    shell_get(st, "Background") || !redirects_ok(w, st))
		return false;
	w->depth++;
	if (strcmp(t, "BinaryCmd") == 0 && op_is(w, cmd, "|")) {
		ok = integration_query(w, shell_get(cmd, "X")) &&
		     integration_query(w, shell_get(cmd, "Y"));
	} else if (strcmp(t, "CallExpr") == 0 &&
	           shell_count(cmd, "Assigns") == 0) {
		size_t argc, i;
		char **argv = call_words(cmd, &argc);

		ok = argc > 0;
		for (i = 0; ok && i < argc; i++)
			ok = argv[i] != NULL;
		ok = ok && (is(argv[0], "grep") ||
		            integration_match(w->o->db, argv, argc));
		strings_free(argv, argc);
	}
	w->depth--;
	return ok;
}

static bool
all_droppable(struct walk *w, struct json_object *node, const char *key,
              struct drop_reason *why)
{
	size_t i, n = shell_count(node, key);
	bool ok = n > 0;

	for (i = 0; ok && i < n; i++)
		ok = droppable(w, shell_at(node, key, i), why);
	return ok;
}

/*
 * "for VAR in WORD...; do BODY; done" over words written out, none a
 * pattern: droppable when BODY is with VAR set to each word (gawk's loop
 * over its old /usr/man links).  VAR is bound as the last constant, which
 * const_value() finds first.
 */
static bool
loop_droppable(struct walk *w, struct json_object *loop,
               struct drop_reason *why)
{
	struct json_object *iter = shell_get(loop, "Loop");
	const char *name;
	size_t i, n = shell_count(iter, "Items");
	bool ok = n > 0;

	if (iter == NULL || strcmp(shell_type(iter), "WordIter") != 0)
		return false;
	name = json_object_get_string(shell_get(shell_get(iter, "Name"),
	                                        "Value"));
	if (name == NULL || !is_name(name))
		return false;
	w->consts = realloc(w->consts, (w->nconsts + 1) * sizeof(*w->consts));
	if (w->consts == NULL)
		abort();
	for (i = 0; ok && i < n; i++) {
		char *v = shell_word_literal(shell_at(iter, "Items", i));

		ok = v != NULL && strpbrk(v, "*?[") == NULL;
		if (ok) {
			w->consts[w->nconsts++] = (struct constant){
				(char *)name, v,
			};
			ok = all_droppable(w, loop, "Do", why);
			w->nconsts--;
		}
		free(v);
	}
	return ok;
}

/*
 * A statement the converter drops whole: it does nothing but system
 * integration (with conditions that only test), or it only handles the
 * Debian package's own files (its old state, under a test that such a
 * path exists), or it never runs.  WHY gets what to report besides the
 * integration commands.
 */
static bool
droppable(struct walk *w, struct json_object *st, struct drop_reason *why)
{
	struct json_object *cmd = shell_get(st, "Cmd");
	const char *t = shell_type(cmd);
	struct drop_reason r = { 0 };
	bool ok = false;

	if (cmd == NULL || shell_get(st, "Background") ||
	    w->depth >= DEPTH_MAX)
		return false;
	w->depth++;
	if (strcmp(t, "CallExpr") == 0) {
		size_t argc;
		char **argv = call_words(cmd, &argc);

		ok = argc > 0 && shell_count(cmd, "Assigns") == 0 &&
		     ((w->o->db != NULL &&
		       integration_match(w->o->db, argv, argc)) ||
		      old_files_command(w, cmd, &r));
		strings_free(argv, argc);
	} else if (strcmp(t, "IfClause") == 0) {
		struct json_object *c;

		ok = true;
		for (c = cmd; ok && c != NULL; c = shell_get(c, "Else")) {
			size_t ncond = shell_count(c, "Cond");

			if (ncond > 0 && cond_needs_old_path(w, c, &r))
				continue;
			if (ncond > 0 && eval_list(w, c, "Cond", NULL) == NO) {
				r.dead = true;
				continue;
			}
			for (size_t i = 0; ok && i < ncond; i++)
				ok = condition_ok(w, shell_at(c, "Cond", i)) ||
				     integration_query(w,
				                       shell_at(c, "Cond", i));
			ok = ok && all_droppable(w, c, "Then", &r);
		}
	} else if (strcmp(t, "BinaryCmd") == 0) {
		struct json_object *x = shell_get(cmd, "X"),
		                   *y = shell_get(cmd, "Y");

		if (op_is(w, cmd, "&&")) {
			if (knows_old_names(w) && needs_old_path(w, x, &r))
				ok = true;
			else if (eval_stmt(w, x, NULL) == NO)
				ok = r.dead = true;
			else
				ok = (condition_ok(w, x) ||
				      integration_query(w, x)) &&
				     droppable(w, y, &r);
		} else if (op_is(w, cmd, "||")) {
			/* update-menus || true; test -d OLD || mkdir OLD */
			char *y0 = shell_word_literal(
				shell_at(shell_get(y, "Cmd"), "Args", 0));

			ok = (droppable(w, x, &r) &&
			      (is(y0, "true") || is(y0, ":")) &&
			      shell_count(shell_get(y, "Cmd"), "Args") == 1) ||
			     (old_path_test(w, x, &r) && droppable(w, y, &r));
			free(y0);
		}
	} else if (strcmp(t, "Block") == 0) {
		ok = all_droppable(w, cmd, "Stmts", &r);
	} else if (strcmp(t, "ForClause") == 0) {
		ok = loop_droppable(w, cmd, &r) ||
		     all_droppable(w, cmd, "Do", &r);
	}
	w->depth--;
	if (ok)
		reason_merge(why, &r);
	reason_free(&r);
	return ok;
}

/* Report lines for each integration command in ST. */
static void
report_integration(struct walk *w, struct json_object *st)
{
	struct json_object *cmd = shell_get(st, "Cmd");
	const char *t = shell_type(cmd);
	size_t i;

	if (strcmp(t, "CallExpr") == 0) {
		size_t argc, n;
		char **argv = call_words(cmd, &argc), **lines, *src;
		long rank;

		if (argc > 0 && integration_match(w->o->db, argv, argc)) {
			src = source_of(w, st);
			n = integration_explain(w->o->db, argv, argc,
			                        w->o->package, &lines);
			for (i = 0; i < n; i++) {
				char *text;

				if (asprintf(&text, "dropped system integration "
				             "`%s`: %s", src, lines[i]) < 0)
					abort();
				free(lines[i]);
				add_note(&w->v->dropped, &w->v->ndropped,
				         shell_line(st, "Pos"), text);
			}
			free(lines);
			free(src);
			n = integration_links(w->o->db, argv, argc, &lines,
			                      &rank);
			w->v->links = realloc(w->v->links, (w->v->nlinks + n) *
			                      sizeof(char *));
			w->v->link_ranks = realloc(w->v->link_ranks,
			                           (w->v->nlinks + n) *
			                           sizeof(long));
			if (n > 0 && (w->v->links == NULL ||
			              w->v->link_ranks == NULL))
				abort();
			for (i = 0; i < n; i++) {
				w->v->link_ranks[w->v->nlinks] = rank;
				w->v->links[w->v->nlinks++] = lines[i];
			}
			free(lines);
		}
		strings_free(argv, argc);
	} else if (strcmp(t, "IfClause") == 0) {
		/* Not what runs only when the Debian package's files are
		 * there, or never: its links would be made always. */
		for (; cmd != NULL; cmd = shell_get(cmd, "Else")) {
			struct drop_reason r = { 0 };
			bool skip = shell_count(cmd, "Cond") > 0 &&
			            (cond_needs_old_path(w, cmd, &r) ||
			             eval_list(w, cmd, "Cond", NULL) == NO);

			reason_free(&r);
			for (i = 0; !skip && i < shell_count(cmd, "Then"); i++)
				report_integration(w, shell_at(cmd, "Then", i));
		}
	} else if (strcmp(t, "BinaryCmd") == 0) {
		struct drop_reason r = { 0 };
		bool skip = op_is(w, cmd, "&&") &&
		            ((knows_old_names(w) &&
		              needs_old_path(w, shell_get(cmd, "X"), &r)) ||
		             eval_stmt(w, shell_get(cmd, "X"), NULL) == NO);

		reason_free(&r);
		report_integration(w, shell_get(cmd, "X"));
		if (!skip)
			report_integration(w, shell_get(cmd, "Y"));
	} else if (strcmp(t, "Block") == 0) {
		for (i = 0; i < shell_count(cmd, "Stmts"); i++)
			report_integration(w, shell_at(cmd, "Stmts", i));
	} else if (strcmp(t, "ForClause") == 0) {
		for (i = 0; i < shell_count(cmd, "Do"); i++)
			report_integration(w, shell_at(cmd, "Do", i));
	}
}

/* The report line of a statement dropped for WHY, besides integration. */
static void
report_reason(struct walk *w, struct json_object *st,
              const struct drop_reason *why)
{
	char *src, *text;

	if (why->old_path == NULL && !why->dead)
		return;
	src = source_of(w, st);
	if (why->old_path != NULL && why->registered) {
		if (asprintf(&text, "dropped `%s`: it handles %s, named for "
		             "%s, which the Debian package registers outside "
		             "the namespace (update-alternatives); %s registers "
		             "nothing there and must not touch another "
		             "package's files", src, why->old_path,
		             why->old_name, w->o->package) < 0)
			abort();
	} else if (why->old_path != NULL) {
		if (asprintf(&text, "dropped `%s`: it handles %s, a file of "
		             "the Debian package %s outside the namespace; %s "
		             "has none there and must not touch another "
		             "package's (its own are in the namespace, with the "
		             "owners and modes the package gives them, never "
		             "set-id)", src, why->old_path, why->old_name,
		             w->o->package) < 0)
			abort();
	} else if (asprintf(&text, "dropped `%s`: it never runs (its "
	                    "condition is false whatever dpkg passes)",
	                    src) < 0) {
		abort();
	}
	free(src);
	add_note(&w->v->dropped, &w->v->ndropped, shell_line(st, "Pos"), text);
}

/* Drop ST, with its report lines. */
static void
drop_stmt(struct walk *w, struct json_object *st,
          const struct drop_reason *why)
{
	if (w->dry)
		return;
	report_integration(w, st);
	report_reason(w, st, why);
}

static void
integration_drop(struct walk *w, struct json_object *st,
                 struct json_object *call)
{
	struct drop_reason none = { 0 };

	(void)call;
	drop_stmt(w, st, &none);
}

/*
 * The statements KEY of NODE.  MUST_HAVE: the shell wants at least one
 * (then, a function body), which dash enforces even where shfmt does not.
 */
static void
check_list(struct walk *w, struct json_object *node, const char *key,
           enum role role, bool must_have)
{
	size_t n = shell_count(node, key), i;
	bool *drop = calloc(n + 1, sizeof(bool));
	struct drop_reason *why = calloc(n + 1, sizeof(*why));

	if (drop == NULL || why == NULL)
		abort();
	if (n == 0 && must_have && node != NULL) {
		unknown(w, node, "an empty then, else or function body is a "
		       "syntax error for dash: put : in it");
		free(drop);
		free(why);
		return;
	}
	/* In the shell's order: a constant is known once it was set. */
	for (i = 0; i < n; i++) {
		drop[i] = role == ROLE_STATEMENT &&
		          droppable(w, shell_at(node, key, i), &why[i]);
		if (!drop[i])
			check_stmt(w, shell_at(node, key, i), role);
	}
	for (i = 0; i < n; i++) {
		if (drop[i])
			drop_stmt(w, shell_at(node, key, i), &why[i]);
		reason_free(&why[i]);
	}
	free(drop);
	free(why);
}

/*
 * Write the parts of NODE (a word, or double quotes) to FP while their
 * value is known when $1 is ARG1 (NULL: unknown) and the script's
 * constants have theirs.  Returns whether every part was.
 */
static bool
write_parts(const struct walk *w, struct json_object *node, const char *arg1,
            FILE *fp)
{
	size_t i;

	for (i = 0; i < shell_count(node, "Parts"); i++) {
		struct json_object *p = shell_at(node, "Parts", i);
		const char *t = shell_type(p);

		if (strcmp(t, "DblQuoted") == 0 &&
		    !json_object_get_boolean(shell_get(p, "Dollar"))) {
			if (!write_parts(w, p, arg1, fp))
				return false;
		} else if (strcmp(t, "ParamExp") == 0) {
			const char *c = const_value(w, param_name(p));

			if (shell_get(p, "Exp") != NULL ||
			    shell_get(p, "Length") != NULL ||
			    (c == NULL && (arg1 == NULL ||
			                   !is(param_name(p), "1"))))
				return false;
			fputs(c != NULL ? c : arg1, fp);
		} else {
			struct json_object *one = json_object_new_object();
			char *lit;

			json_object_object_add(one, "Parts",
			                       json_object_new_array());
			json_object_array_add(shell_get(one, "Parts"),
			                      json_object_get(p));
			lit = shell_word_literal(one);
			json_object_put(one);
			if (lit == NULL)
				return false;
			fputs(lit, fp);
			free(lit);
		}
	}
	return true;
}

/* What WORD begins with, as far as it is known; *WHOLE: all of it is. */
static char *
word_prefix(const struct walk *w, struct json_object *word, const char *arg1,
            bool *whole)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);

	if (fp == NULL)
		abort();
	*whole = word != NULL && write_parts(w, word, arg1, fp);
	fclose(fp);
	return buf;
}

/* The value of word WORD as write_parts knows it, or NULL. */
static char *
word_value(const struct walk *w, struct json_object *word, const char *arg1)
{
	bool whole;
	char *v = word_prefix(w, word, arg1, &whole);

	if (!whole) {
		free(v);
		return NULL;
	}
	return v;
}

static enum tri
not(enum tri t)
{
	return t == MAYBE ? MAYBE : t == YES ? NO : YES;
}

/* What condition ST is when $1 is ARG1. */
static enum tri
eval_stmt(const struct walk *w, struct json_object *st, const char *arg1)
{
	struct json_object *cmd = shell_get(st, "Cmd");
	const char *t = shell_type(cmd);
	enum tri r = MAYBE;

	if (strcmp(t, "BinaryCmd") == 0) {
		enum tri x = eval_stmt(w, shell_get(cmd, "X"), arg1);
		enum tri y = eval_stmt(w, shell_get(cmd, "Y"), arg1);

		if (op_is(w, cmd, "&&"))
			r = x == NO || y == NO ? NO : x == YES && y == YES ?
			    YES : MAYBE;
		else if (op_is(w, cmd, "||"))
			r = x == YES || y == YES ? YES : x == NO && y == NO ?
			    NO : MAYBE;
	} else if (strcmp(t, "CallExpr") == 0) {
		size_t n = shell_count(cmd, "Args"), i;
		char *a[5] = { NULL };

		for (i = 0; i < n && i < 5; i++)
			a[i] = word_value(w, shell_at(cmd, "Args", i), arg1);
		if (is(a[0], "["))
			n--;
		/* Longer tests are not decided: a[] holds the first five. */
		if ((is(a[0], "[") && n < 5 && is(a[n], "]")) ||
		    is(a[0], "test")) {
			if (n == 4 && a[1] && a[3] &&
			    (is(a[2], "=") || is(a[2], "==")))
				r = strcmp(a[1], a[3]) == 0 ? YES : NO;
			else if (n == 4 && a[1] && a[3] && is(a[2], "!="))
				r = strcmp(a[1], a[3]) != 0 ? YES : NO;
			else if (n == 3 && a[2] && is(a[1], "-n"))
				r = a[2][0] ? YES : NO;
			else if (n == 3 && a[2] && is(a[1], "-z"))
				r = a[2][0] ? NO : YES;
		} else if ((is(a[0], "true") || is(a[0], ":")) && n == 1) {
			r = YES;
		}
		for (i = 0; i < 5; i++)
			free(a[i]);
	}
	if (shell_get(st, "Negated"))
		r = not(r);
	return r;
}

static enum tri
eval_list(const struct walk *w, struct json_object *node, const char *key,
          const char *arg1)
{
	size_t n = shell_count(node, key);

	if (n == 0)
		return YES;
	return eval_stmt(w, shell_at(node, key, n - 1), arg1);
}

/* The dialect of the shebang, or -1 when it is not a shell we read. */
static int
dialect_of(const char *text, size_t len)
{
	static const char *const shells[] = {
		"/bin/sh", "/bin/dash", "/bin/bash", "/usr/bin/bash", NULL,
	};
	size_t n = strcspn(text, "\n"), i, b;

	if (n > len)
		n = len;
	if (n < 2 || strncmp(text, "#!", 2) != 0)
		return -1;
	b = 2 + strspn(text + 2, " \t");
	for (i = 0; shells[i]; i++) {
		size_t s = strlen(shells[i]), e;

		if (b + s > n || strncmp(text + b, shells[i], s) != 0)
			continue;
		e = b + s;
		e += strspn(text + e, " \t");
		if (e + 2 <= n && strncmp(text + e, "-e", 2) == 0)
			e += 2;
		e += strspn(text + e, " \t");
		if (e != n)
			continue;
		return strstr(shells[i], "bash") ? SHELL_BASH : SHELL_POSIX;
	}
	return -1;
}

/* Sort notes by line, keeping the order of those on one line. */
static void
sort_notes(struct maintscript_note *list, size_t n)
{
	size_t i, j;

	/* Insertion sort: stable, and the lists are short and nearly
	 * sorted already. */
	for (i = 1; i < n; i++) {
		struct maintscript_note x = list[i];

		for (j = i; j > 0 && list[j - 1].line > x.line; j--)
			list[j] = list[j - 1];
		list[j] = x;
	}
}

int
maintscript_read(const char *text, size_t len,
                  const struct maintscript_options *o,
                  struct maintscript_verdict *v, int *line,
                  struct dpkg_error *err)
{
	struct walk w = { .text = text, .len = len, .o = o, .v = v };
	struct json_object *file;
	int dialect = dialect_of(text, len);
	size_t i;

	memset(v, 0, sizeof(*v));
	if (dialect < 0) {
		*line = 1;
		dpkg_put_error(err, "is not a shell script (#!/bin/sh or "
		               "#!/bin/bash): it cannot be judged");
		return -1;
	}
	if (memchr(text, '\0', len) != NULL) {
		*line = 0;
		dpkg_put_error(err, "holds a NUL byte");
		return -1;
	}
	file = shell_parse(text, len, dialect, line, err);
	if (file == NULL)
		return -1;
	survey(&w, file, 0);
	check_list(&w, file, "Stmts", ROLE_STATEMENT, false);
	json_object_put(file);
	/* A list's drops are noted after its statements were walked. */
	sort_notes(v->dropped, v->ndropped);
	strings_free(w.vars, w.nvars);
	for (i = 0; i < w.nconsts; i++) {
		free(w.consts[i].name);
		free(w.consts[i].value);
	}
	free(w.consts);
	strings_free(w.held, w.nheld);
	for (i = 0; i < w.nassigned; i++)
		free(w.assigned[i].name);
	free(w.assigned);
	for (i = 0; i < w.nfuncs; i++)
		free(w.funcs[i].name);
	free(w.funcs);
	return 0;
}

static void
free_notes(struct maintscript_note *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(list[i].text);
	free(list);
}

void
maintscript_verdict_free(struct maintscript_verdict *v)
{
	free_notes(v->unknown, v->nunknown);
	free_notes(v->dropped, v->ndropped);
	while (v->nlinks > 0)
		free(v->links[--v->nlinks]);
	free(v->links);
	free(v->link_ranks);
	memset(v, 0, sizeof(*v));
}
