/*
 * maintscript.c: the one grammar of maintainer scripts, for extras-convert
 * and for the review gate.
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

#include "scripts/maintscript.h"
#include "scripts/shell-syntax.h"

/* Deeper than any script written by hand: refused, not recursed into. */
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
	/* Inside a "*)" case arm: what it prints is no effect. */
	bool in_fallback;
	/* Counting refusals without recording them. */
	bool dry;
	size_t dry_refused;
};

/* dpkg's environment for maintainer scripts. */
/* The relations dpkg --compare-versions knows. */
static bool
version_relation(const char *op)
{
	static const char *const ops[] = {
		"lt", "le", "eq", "ne", "ge", "gt", "lt-nl", "le-nl", "ge-nl",
		"gt-nl", "<", "<<", "<=", "=", ">=", ">>", ">", NULL,
	};
	size_t i;

	for (i = 0; op != NULL && ops[i]; i++)
		if (strcmp(op, ops[i]) == 0)
			return true;
	return false;
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
refuse(struct walk *w, struct json_object *node, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Refuse NODE: "`SOURCE`: WHY". */
static void
refuse(struct walk *w, struct json_object *node, const char *fmt, ...)
{
	char *why, *src, *text;
	va_list ap;

	if (w->dry) {
		w->dry_refused++;
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
	add_note(&w->v->refused, &w->v->nrefused, shell_line(node, "Pos"),
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
	    strchr("#@*?", name[0]) != NULL)
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
 * $NAME, ${NAME}, ${#NAME} and ${NAME:-WORD} of a variable the script set
 * (or a positional parameter, or dpkg's): nothing else is expanded.
 */
static bool
check_param(struct walk *w, struct json_object *pe, struct json_object *at)
{
	const char *name = param_name(pe);
	struct json_object *exp = shell_get(pe, "Exp");
	size_t start = shell_offset(pe, "Pos");

	if (shell_get(pe, "Excl") || shell_get(pe, "Index") ||
	    shell_get(pe, "Slice") || shell_get(pe, "Repl") ||
	    shell_get(pe, "Names") || shell_get(pe, "Width")) {
		refuse(w, at, "an expansion other than $VAR, ${VAR} or "
		       "${VAR:-WORD}: write the value out");
		return false;
	}
	if (exp != NULL) {
		const char *s = w->text + start;

		/* ${NAME:-WORD} or ${NAME-WORD}, read from the source. */
		if (start + 3 + strlen(name ? name : "") >= w->len ||
		    strncmp(s, "${", 2) != 0 ||
		    !(strncmp(s + 2 + strlen(name), ":-", 2) == 0 ||
		      s[2 + strlen(name)] == '-')) {
			refuse(w, at, "an expansion other than $VAR, ${VAR} "
			       "or ${VAR:-WORD}: write the value out");
			return false;
		}
		return check_word(w, shell_get(exp, "Word"), at, false);
	}
	if (!var_known(w, name)) {
		refuse(w, at, "$%s is never set by the script: set it first "
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
				refuse(w, at, "$'...' and $\"...\" are not "
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
			refuse(w, at, "command substitution runs commands "
			       "nobody reviewed: write the value out");
			ok = false;
		} else {
			refuse(w, at, "%s is more than a maintainer script of "
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
			refuse(w, st, "a here-document feeds a command nobody "
			       "reviewed: remove it");
			return false;
		}
		if (!(dup && fd) && !null) {
			refuse(w, st, "a maintainer script of an extras package "
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

static void
free_words(char **argv, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(argv[i]);
	free(argv);
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
			refuse(w, st, "only VAR=VALUE assignments are "
			       "understood");
			ok = false;
		} else {
			ok = check_word(w, shell_get(a, "Value"), st, false);
			if (ok)
				var_set(w, name);
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
				refuse(w, st, "declare variables by name: "
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
					refuse(w, st, "declare variables by "
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
			refuse(w, st, "declare variables by name: NAME or "
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
			refuse(w, st, "an assignment is no condition");
		else
			check_assigns(w, call, st);
		goto done;
	}
	if (shell_count(call, "Assigns") > 0) {
		refuse(w, st, "VAR=VALUE before a command is not understood: "
		       "set the variable on its own line");
		goto done;
	}
	if (name == NULL) {
		refuse(w, st, "the command name must be written out");
		goto done;
	}
	if (w->o->db != NULL && integration_match(w->o->db, argv, argc)) {
		if (role == ROLE_CONDITION)
			refuse(w, st, "system integration whose result is used "
			       "cannot be dropped: remove it");
		else if (w->o->mode == MAINTSCRIPT_CONVERT)
			integration_drop(w, st, call);
		else
			refuse(w, st, "system integration an extras package "
			       "may not do (extras-convert drops it)");
		goto done;
	}
	if (is(name, "set")) {
		for (i = 1; ok && i < argc; i++)
			ok = argv[i] != NULL && (argv[i][0] == '-' ||
			                         argv[i][0] == '+') &&
			     strlen(argv[i]) > 1 &&
			     strspn(argv[i] + 1, "eux") == strlen(argv[i]) - 1;
		if (!ok || argc == 1)
			refuse(w, st, "set takes only -e, -u and -x here");
		words = false;
	} else if (is(name, "exit") || is(name, "return")) {
		if (argc > 2 || (argc == 2 && !is_number(argv[1])))
			refuse(w, st, "%s takes a number written out", name);
		else if (is(name, "return") && !w->in_function)
			refuse(w, st, "return outside a function");
		words = false;
	} else if (is(name, "true") || is(name, ":")) {
		if (argc > 1)
			refuse(w, st, "%s takes no arguments here", name);
		words = false;
	} else if (is(name, "umask")) {
		if (argc != 2 || argv[1] == NULL ||
		    strspn(argv[1], "01234567") != strlen(argv[1]) ||
		    strlen(argv[1]) < 3 || strlen(argv[1]) > 4)
			refuse(w, st, "umask takes an octal mode written out");
		words = false;
	} else if (is(name, "echo") || is(name, "printf")) {
		if (!w->in_fallback)
			w->v->effect = true;
	} else if (is(name, "[") || is(name, "test")) {
		if (role != ROLE_CONDITION)
			refuse(w, st, "a test whose result nobody uses stops "
			       "a set -e script when false: use it in if, or "
			       "left of && or ||");
		else if (is(name, "[") && !is(argv[argc - 1], "]"))
			refuse(w, st, "[ without ]");
	} else if (is(name, "dpkg")) {
		/* Comparing versions changes nothing: a condition like test. */
		if (role != ROLE_CONDITION || argc != 5 ||
		    !is(argv[1], "--compare-versions") || !version_relation(argv[3]))
			refuse(w, st, "dpkg is not a command an extras package's "
			       "maintainer script may run, but as a condition: "
			       "if dpkg --compare-versions \"$2\" lt VERSION");
	} else if (is(name, "command") || is(name, "which") ||
	           is(name, "type")) {
		if (role != ROLE_CONDITION ||
		    !(is(name, "command") ? argc == 3 && is(argv[1], "-v") &&
		      argv[2] != NULL : argc == 2 && argv[1] != NULL))
			refuse(w, st, "%s only as a condition: if command -v "
			       "NAME >/dev/null; then", name);
		words = false;
	} else if (is(name, "export") || is(name, "local") ||
	           is(name, "readonly")) {
		if (is(name, "local") && !w->in_function)
			refuse(w, st, "local outside a function");
		else
			check_declaration(w, argv, argc, call, st);
		words = false;
	} else if (function_of(w, name) != NULL) {
		if (!w->in_fallback)
			w->v->effect = true;
	} else {
		refuse(w, st, "%s is not a command %s", name,
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
	free_words(argv, argc);
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
		refuse(w, st, "%s is not understood: write NAME=VALUE",
		       variant ? variant : "this declaration");
		return;
	}
	if (is(variant, "local") && !w->in_function) {
		refuse(w, st, "local outside a function");
		return;
	}
	for (i = 0; i < shell_count(decl, "Args"); i++) {
		struct json_object *a = shell_at(decl, "Args", i);
		const char *name = json_object_get_string(
			shell_get(shell_get(a, "Name"), "Value"));

		if (shell_get(a, "Append") || shell_get(a, "Index") ||
		    shell_get(a, "Array") || !is_name(name)) {
			refuse(w, st, "declare variables by name: NAME or "
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
		refuse(w, st, "if as a condition is not understood");
		return;
	}
	for (; clause != NULL; clause = shell_get(clause, "Else")) {
		check_list(w, clause, "Cond", ROLE_CONDITION, false);
		check_list(w, clause, "Then", ROLE_STATEMENT, true);
	}
}

/* Whether every pattern of case item IT is "*". */
static bool
fallback_item(struct json_object *it)
{
	size_t i;

	for (i = 0; i < shell_count(it, "Patterns"); i++) {
		char *p = shell_word_literal(shell_at(it, "Patterns", i));
		bool star = p == NULL;	/* a glob: "*" is one */

		free(p);
		if (!star)
			return false;
	}
	return true;
}

static void
check_case(struct walk *w, struct json_object *clause, struct json_object *st,
           enum role role)
{
	size_t i, j;

	if (role == ROLE_CONDITION) {
		refuse(w, st, "case as a condition is not understood");
		return;
	}
	if (!check_word(w, shell_get(clause, "Word"), st, false))
		return;
	for (i = 0; i < shell_count(clause, "Items"); i++) {
		struct json_object *it = shell_at(clause, "Items", i);
		bool fallback = w->in_fallback;

		if (shell_get(it, "OpPos") != NULL &&
		    shell_offset(it, "OpPos") > 0 && !op_is(w, it, ";;")) {
			refuse(w, st, "case items end with ;; here");
			return;
		}
		for (j = 0; j < shell_count(it, "Patterns"); j++)
			if (!check_word(w, shell_at(it, "Patterns", j), st,
			                false))
				return;
		w->in_fallback = fallback || fallback_item(it);
		check_list(w, it, "Stmts", ROLE_STATEMENT, false);
		w->in_fallback = fallback;
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
		refuse(w, st, "a function is defined once, with a plain name");
		return;
	}
	if (strcmp(shell_type(shell_get(body, "Cmd")), "Block") != 0 ||
	    shell_count(body, "Redirs") > 0) {
		refuse(w, st, "a function body is a { ... } block");
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
		refuse(w, st, "a pipe feeds commands nobody reviewed: remove "
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
		refuse(w, st, "nested too deep");
		return;
	}
	if (shell_get(st, "Background") || shell_get(st, "Coprocess")) {
		refuse(w, st, "a command in the background outlives the "
		       "script: remove the &");
		return;
	}
	if (cmd == NULL) {
		refuse(w, st, "a redirection alone creates files");
		return;
	}
	if (!check_redirects(w, st))
		return;
	if (shell_get(st, "Negated") && role != ROLE_CONDITION) {
		refuse(w, st, "! is for conditions");
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
		refuse(w, st, "%s: %s",
		       strcmp(t, "WhileClause") == 0 ? "a loop" :
		       strcmp(t, "ForClause") == 0 ? "a loop" :
		       strcmp(t, "Subshell") == 0 ? "a subshell" :
		       strcmp(t, "TestClause") == 0 ? "[[ ]]" :
		       "this construct", usage_hint);
	w->depth--;
}

/*
 * A statement that does nothing but system integration, with conditions
 * that only test: the converter drops it whole.
 */
static bool
integration_only(struct walk *w, struct json_object *st)
{
	struct json_object *cmd = shell_get(st, "Cmd");
	const char *t = shell_type(cmd);
	bool ok = false, dry = w->dry;
	size_t refused = w->dry_refused, i;

	if (w->o->db == NULL || cmd == NULL || shell_get(st, "Background") ||
	    w->depth >= DEPTH_MAX)
		return false;
	w->depth++;
	if (strcmp(t, "CallExpr") == 0) {
		size_t argc;
		char **argv = call_words(cmd, &argc);

		ok = argc > 0 && shell_count(cmd, "Assigns") == 0 &&
		     integration_match(w->o->db, argv, argc);
		free_words(argv, argc);
	} else if (strcmp(t, "IfClause") == 0) {
		struct json_object *c;

		ok = true;
		w->dry = true;
		for (c = cmd; ok && c != NULL; c = shell_get(c, "Else")) {
			check_list(w, c, "Cond", ROLE_CONDITION, false);
			ok = w->dry_refused == refused &&
			     shell_count(c, "Then") > 0;
			for (i = 0; ok && i < shell_count(c, "Then"); i++)
				ok = integration_only(w, shell_at(c, "Then", i));
		}
	} else if (strcmp(t, "BinaryCmd") == 0) {
		struct json_object *x = shell_get(cmd, "X"),
		                   *y = shell_get(cmd, "Y");

		if (op_is(w, cmd, "&&")) {
			w->dry = true;
			check_stmt(w, x, ROLE_CONDITION);
			ok = w->dry_refused == refused &&
			     integration_only(w, y);
		} else if (op_is(w, cmd, "||")) {
			/* update-menus || true */
			char *y0 = shell_word_literal(
				shell_at(shell_get(y, "Cmd"), "Args", 0));

			ok = integration_only(w, x) &&
			     (is(y0, "true") || is(y0, ":")) &&
			     shell_count(shell_get(y, "Cmd"), "Args") == 1;
			free(y0);
		}
	} else if (strcmp(t, "Block") == 0) {
		ok = shell_count(cmd, "Stmts") > 0;
		for (i = 0; ok && i < shell_count(cmd, "Stmts"); i++)
			ok = integration_only(w, shell_at(cmd, "Stmts", i));
	}
	w->dry = dry;
	w->dry_refused = refused;
	w->depth--;
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
			n = integration_links(w->o->db, argv, argc, &lines);
			w->v->links = realloc(w->v->links, (w->v->nlinks + n) *
			                      sizeof(char *));
			if (n > 0 && w->v->links == NULL)
				abort();
			for (i = 0; i < n; i++)
				w->v->links[w->v->nlinks++] = lines[i];
			free(lines);
		}
		free_words(argv, argc);
	} else if (strcmp(t, "IfClause") == 0) {
		for (; cmd != NULL; cmd = shell_get(cmd, "Else"))
			for (i = 0; i < shell_count(cmd, "Then"); i++)
				report_integration(w, shell_at(cmd, "Then", i));
	} else if (strcmp(t, "BinaryCmd") == 0) {
		report_integration(w, shell_get(cmd, "X"));
		report_integration(w, shell_get(cmd, "Y"));
	} else if (strcmp(t, "Block") == 0) {
		for (i = 0; i < shell_count(cmd, "Stmts"); i++)
			report_integration(w, shell_at(cmd, "Stmts", i));
	}
}

/* Where statement ST ends, without its ";". */
static size_t
stmt_end(struct json_object *st)
{
	size_t end = shell_offset(st, "End");

	if (shell_get(st, "Semicolon") != NULL &&
	    shell_offset(st, "Semicolon") < end)
		end = shell_offset(st, "Semicolon");
	return end;
}

static void
add_edit(struct walk *w, size_t start, size_t end, const char *replacement)
{
	struct maintscript_verdict *v = w->v;

	v->edits = realloc(v->edits, (v->nedits + 1) * sizeof(*v->edits));
	if (v->edits == NULL)
		abort();
	v->edits[v->nedits].start = start;
	v->edits[v->nedits].end = end;
	v->edits[v->nedits++].replacement = replacement;
}

/*
 * Drop ST: its whole lines when nothing else is on them and the list
 * keeps a statement (or may be empty), else replaced by ":".
 */
static void
drop_stmt(struct walk *w, struct json_object *st, bool lines_ok)
{
	size_t start = shell_offset(st, "Pos"), end = stmt_end(st);
	size_t a = start, b = end;

	if (w->dry) {
		return;
	}
	report_integration(w, st);
	while (a > 0 && (w->text[a - 1] == ' ' || w->text[a - 1] == '\t'))
		a--;
	while (b < w->len && strchr(" \t;", w->text[b]) != NULL && w->text[b])
		b++;
	if (b < w->len && w->text[b] == '#')
		b += strcspn(w->text + b, "\n");
	if (lines_ok && (a == 0 || w->text[a - 1] == '\n') &&
	    (b == w->len || w->text[b] == '\n'))
		add_edit(w, a, b + (b < w->len), "");
	else
		add_edit(w, start, end, ":");
}

static void
integration_drop(struct walk *w, struct json_object *st,
                 struct json_object *call)
{
	(void)call;
	drop_stmt(w, st, false);
}

/*
 * The statements KEY of NODE.  MUST_HAVE: the shell wants at least one
 * (then, a function body), which dash enforces even where shfmt does not.
 */
static void
check_list(struct walk *w, struct json_object *node, const char *key,
           enum role role, bool must_have)
{
	size_t n = shell_count(node, key), i, kept = 0;
	bool *drop = calloc(n + 1, sizeof(bool));

	if (drop == NULL)
		abort();
	if (n == 0 && must_have && node != NULL) {
		refuse(w, node, "an empty then, else or function body is a "
		       "syntax error for dash: put : in it");
		free(drop);
		return;
	}
	for (i = 0; i < n; i++) {
		drop[i] = w->o->mode == MAINTSCRIPT_CONVERT &&
		          role == ROLE_STATEMENT &&
		          integration_only(w, shell_at(node, key, i));
		kept += !drop[i];
	}
	for (i = 0; i < n; i++) {
		if (drop[i])
			drop_stmt(w, shell_at(node, key, i),
			          kept > 0 || !must_have);
		else
			check_stmt(w, shell_at(node, key, i), role);
	}
	free(drop);
}

/* The value of word WORD when $1 is ARG1 (NULL: unknown), or NULL. */
static char *
word_value(struct json_object *word, const char *arg1)
{
	char *buf = NULL;
	size_t size = 0, i;
	FILE *fp = open_memstream(&buf, &size);
	bool ok = word != NULL;

	if (fp == NULL)
		abort();
	for (i = 0; ok && i < shell_count(word, "Parts"); i++) {
		struct json_object *p = shell_at(word, "Parts", i), *q;
		const char *t = shell_type(p);

		if (strcmp(t, "DblQuoted") == 0 &&
		    shell_count(p, "Parts") == 1 &&
		    strcmp(shell_type(q = shell_at(p, "Parts", 0)),
		           "ParamExp") == 0) {
			p = q;
			t = "ParamExp";
		}
		if (strcmp(t, "ParamExp") == 0) {
			ok = arg1 != NULL && is(param_name(p), "1") &&
			     shell_get(p, "Exp") == NULL &&
			     shell_get(p, "Length") == NULL;
			if (ok)
				fputs(arg1, fp);
		} else {
			struct json_object *one = json_object_new_object();
			char *lit;

			json_object_object_add(one, "Parts",
			                       json_object_new_array());
			json_object_array_add(shell_get(one, "Parts"),
			                      json_object_get(p));
			lit = shell_word_literal(one);
			json_object_put(one);
			ok = lit != NULL;
			if (ok)
				fputs(lit, fp);
			free(lit);
		}
	}
	fclose(fp);
	if (!ok) {
		free(buf);
		return NULL;
	}
	return buf;
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
			a[i] = word_value(shell_at(cmd, "Args", i), arg1);
		if (is(a[0], "["))
			n--;
		if ((is(a[0], "[") && is(a[n], "]")) || is(a[0], "test")) {
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

/* Whether case item IT matches $1 = ARG1. */
static enum tri
item_matches(struct json_object *word, struct json_object *it,
             const char *arg1)
{
	char *v = word_value(word, arg1);
	enum tri r = NO;
	size_t i;

	if (v == NULL)
		return MAYBE;
	for (i = 0; r != YES && i < shell_count(it, "Patterns"); i++) {
		struct json_object *p = shell_at(it, "Patterns", i);
		char *pat = word_value(p, arg1);

		if (pat == NULL) {
			/* A glob: its Lit parts are the pattern. */
			struct json_object *lit = shell_at(p, "Parts", 0);

			if (shell_count(p, "Parts") == 1 &&
			    strcmp(shell_type(lit), "Lit") == 0)
				pat = strdup(json_object_get_string(
					shell_get(lit, "Value")));
		}
		if (pat == NULL)
			r = MAYBE;
		else if (fnmatch(pat, v, 0) == 0)
			r = YES;
		free(pat);
	}
	free(v);
	return r;
}

static int may_exit_list(const struct walk *w, struct json_object *node,
                         const char *key, const char *arg1, int depth);

/*
 * The line of a statement in ST that may end the script when $1 is ARG1
 * (an exit, a function that may, anything not understood), or 0.
 */
static int
may_exit(const struct walk *w, struct json_object *st, const char *arg1,
         int depth)
{
	struct json_object *cmd = shell_get(st, "Cmd"), *c;
	const char *t = shell_type(cmd);
	int line = shell_line(st, "Pos"), l;
	size_t i;

	if (depth > DEPTH_MAX)
		return line;
	if (strcmp(t, "CallExpr") == 0) {
		char *name = shell_word_literal(shell_at(cmd, "Args", 0));
		const struct function *f = function_of(w, name);
		char *code = shell_word_literal(shell_at(cmd, "Args", 1));

		l = is(name, "exit") ? line :
		    is(name, "return") && !is(code, "0") ? line :
		    f != NULL && may_exit_list(w, f->body, "Stmts", NULL,
		                               depth + 1) ? line : 0;
		free(name);
		free(code);
		return l;
	}
	if (strcmp(t, "IfClause") == 0) {
		for (c = cmd; c != NULL; c = shell_get(c, "Else")) {
			enum tri e = eval_list(w, c, "Cond", arg1);

			if (e != NO &&
			    (l = may_exit_list(w, c, "Then", arg1, depth + 1)))
				return l;
			if (e == YES)
				break;
		}
		return 0;
	}
	if (strcmp(t, "CaseClause") == 0) {
		for (i = 0; i < shell_count(cmd, "Items"); i++) {
			struct json_object *it = shell_at(cmd, "Items", i);
			enum tri m = item_matches(shell_get(cmd, "Word"), it,
			                          arg1);

			if (m != NO &&
			    (l = may_exit_list(w, it, "Stmts", arg1, depth + 1)))
				return l;
			if (m == YES)
				break;
		}
		return 0;
	}
	if (strcmp(t, "BinaryCmd") == 0) {
		enum tri x = eval_stmt(w, shell_get(cmd, "X"), arg1);

		if ((l = may_exit(w, shell_get(cmd, "X"), arg1, depth + 1)))
			return l;
		if ((op_is(w, cmd, "&&") && x == NO) ||
		    (op_is(w, cmd, "||") && x == YES))
			return 0;
		return may_exit(w, shell_get(cmd, "Y"), arg1, depth + 1);
	}
	if (strcmp(t, "Block") == 0)
		return may_exit_list(w, cmd, "Stmts", arg1, depth + 1);
	if (strcmp(t, "FuncDecl") == 0 || strcmp(t, "DeclClause") == 0)
		return 0;
	return line;
}

static int
may_exit_list(const struct walk *w, struct json_object *node, const char *key,
              const char *arg1, int depth)
{
	size_t i;
	int l;

	for (i = 0; i < shell_count(node, key); i++)
		if ((l = may_exit(w, shell_at(node, key, i), arg1, depth)))
			return l;
	return 0;
}

static bool
within(struct json_object *node, int line)
{
	return shell_line(node, "Pos") <= line &&
	       line <= shell_line(node, "End");
}

/*
 * Whether line L of the list KEY of NODE runs when $1 is "configure": 0,
 * or the line of what may stop the script before (-1: L is in a branch
 * that may not be taken).
 */
static int
reaches(const struct walk *w, struct json_object *node, const char *key,
        int L)
{
	size_t i, j;
	int l;

	for (i = 0; i < shell_count(node, key); i++) {
		struct json_object *st = shell_at(node, key, i);
		struct json_object *cmd = shell_get(st, "Cmd");
		const char *t = shell_type(cmd);

		/* The site itself: the gate puts ":" for the snippet. */
		if (shell_line(st, "Pos") > L ||
		    (shell_line(st, "Pos") == L && strcmp(t, "CallExpr") == 0))
			return 0;
		if (!within(st, L)) {
			if ((l = may_exit(w, st, "configure", 0)))
				return l;
			continue;
		}
		if (strcmp(t, "IfClause") == 0) {
			struct json_object *c;

			for (c = cmd; c != NULL; c = shell_get(c, "Else")) {
				struct json_object *next = shell_get(c, "Else");
				enum tri e = eval_list(w, c, "Cond",
				                       "configure");

				if (next != NULL &&
				    shell_line(next, "Position") <= L &&
				    e == NO)
					continue;
				if (next != NULL &&
				    shell_line(next, "Position") <= L)
					return -1;
				return e == YES ? reaches(w, c, "Then", L) : -1;
			}
			return -1;
		}
		if (strcmp(t, "CaseClause") == 0) {
			for (j = 0; j < shell_count(cmd, "Items"); j++) {
				struct json_object *it = shell_at(cmd, "Items", j);
				struct json_object *next =
					shell_at(cmd, "Items", j + 1);
				enum tri m = item_matches(shell_get(cmd, "Word"),
				                          it, "configure");

				if (next != NULL &&
				    shell_line(shell_at(next, "Patterns", 0),
				               "Pos") <= L) {
					if (m != NO)
						return -1;
					continue;
				}
				return m == YES ? reaches(w, it, "Stmts", L) : -1;
			}
			return -1;
		}
		if (strcmp(t, "Block") == 0)
			return reaches(w, cmd, "Stmts", L);
		return -1;
	}
	return 0;
}

static void
check_loading(struct walk *w, struct json_object *file)
{
	const struct maintscript_options *o = w->o;
	size_t i;
	int first = 0;

	for (i = 0; i < o->nsites; i++) {
		int r = reaches(w, file, "Stmts", o->sites[i]);

		if (r == 0)
			return;
		if (first == 0)
			first = r;
	}
	if (o->nsites == 0) {
		w->v->unconfined = strdup(o->mode == MAINTSCRIPT_CONVERT ?
			"no #DEBHELPER# line, where dh_extras_apparmor's "
			"snippet loads the AppArmor profile: the app would "
			"run unconfined; add a line #DEBHELPER# before the "
			"final exit" :
			"does not load the app's AppArmor profile (the snippet "
			"dh_extras_apparmor adds): the app would run "
			"unconfined");
		w->v->unconfined_line = 0;
	} else if (first > 0) {
		if (asprintf(&w->v->unconfined, "line %d may end the script "
		             "on configure before %s: the app would run "
		             "unconfined; %s", first,
		             o->mode == MAINTSCRIPT_CONVERT ? "#DEBHELPER#, "
		             "where dh_extras_apparmor's snippet loads the "
		             "AppArmor profile" : "the snippet that loads the "
		             "AppArmor profile",
		             o->mode == MAINTSCRIPT_CONVERT ? "move #DEBHELPER# "
		             "before it" : "the snippet must come first") < 0)
			abort();
		w->v->unconfined_line = first;
	} else {
		if (asprintf(&w->v->unconfined, "%s is in a branch that does "
		             "not run on configure: the app would run "
		             "unconfined; %s",
		             o->mode == MAINTSCRIPT_CONVERT ? "#DEBHELPER#" :
		             "the snippet that loads the AppArmor profile",
		             o->mode == MAINTSCRIPT_CONVERT ? "put #DEBHELPER# "
		             "on a line of its own, outside if and case" :
		             "it must run on every configure") < 0)
			abort();
		w->v->unconfined_line = o->sites[0];
	}
	if (w->v->unconfined == NULL)
		abort();
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

int
maintscript_judge(const char *text, size_t len,
                  const struct maintscript_options *o,
                  struct maintscript_verdict *v, int *line, char *err,
                  size_t errlen)
{
	struct walk w = { .text = text, .len = len, .o = o, .v = v };
	struct json_object *file;
	int dialect = dialect_of(text, len);
	size_t i;

	memset(v, 0, sizeof(*v));
	if (dialect < 0) {
		*line = 1;
		snprintf(err, errlen, "is not a shell script (#!/bin/sh or "
		         "#!/bin/bash): it cannot be judged");
		return -1;
	}
	if (memchr(text, '\0', len) != NULL) {
		*line = 0;
		snprintf(err, errlen, "holds a NUL byte");
		return -1;
	}
	file = shell_parse(text, len, dialect, line, err, errlen);
	if (file == NULL)
		return -1;
	check_list(&w, file, "Stmts", ROLE_STATEMENT, false);
	if (o->must_load && v->nrefused == 0)
		check_loading(&w, file);
	json_object_put(file);
	for (i = 0; i < w.nvars; i++)
		free(w.vars[i]);
	free(w.vars);
	for (i = 0; i < w.nfuncs; i++)
		free(w.funcs[i].name);
	free(w.funcs);
	return 0;
}

static int
edit_cmp(const void *a, const void *b)
{
	const struct maintscript_edit *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

char *
maintscript_apply(const char *text, size_t len,
                  const struct maintscript_verdict *v)
{
	struct maintscript_edit *e = malloc((v->nedits + 1) * sizeof(*e));
	char *out = NULL;
	size_t size = 0, at = 0, i;
	FILE *fp = open_memstream(&out, &size);

	if (e == NULL || fp == NULL)
		abort();
	/* No edits: v->edits is NULL, which memcpy must not see. */
	if (v->nedits > 0)
		memcpy(e, v->edits, v->nedits * sizeof(*e));
	qsort(e, v->nedits, sizeof(*e), edit_cmp);
	for (i = 0; i < v->nedits; i++) {
		if (e[i].start < at)
			continue;
		fwrite(text + at, 1, e[i].start - at, fp);
		fputs(e[i].replacement, fp);
		at = e[i].end;
	}
	fwrite(text + at, 1, len - at, fp);
	fclose(fp);
	free(e);
	return out;
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
	free_notes(v->refused, v->nrefused);
	free_notes(v->dropped, v->ndropped);
	free(v->edits);
	free(v->unconfined);
	while (v->nlinks > 0)
		free(v->links[--v->nlinks]);
	free(v->links);
	memset(v, 0, sizeof(*v));
}

size_t
maintscript_debhelper_lines(const char *text, int **lines)
{
	const char *p = text;
	size_t n = 0;
	int lno = 0;

	*lines = NULL;
	for (; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n')) {
		size_t b = strspn(p, " \t"), e;

		lno++;
		if (strncmp(p + b, "#DEBHELPER#", 11) != 0)
			continue;
		e = b + 11 + strspn(p + b + 11, " \t");
		if (p[e] != '\n' && p[e] != '\0')
			continue;
		*lines = realloc(*lines, (n + 1) * sizeof(int));
		if (*lines == NULL)
			abort();
		(*lines)[n++] = lno;
	}
	return n;
}
