/*
 * shell-syntax.h: a shell script's syntax tree, as Debian's shfmt parses
 * it.
 *
 * shfmt (mvdan.cc/sh) is a complete POSIX and bash parser; "shfmt
 * --to-json" prints the typed tree it builds (File, Stmt, CallExpr,
 * IfClause, Word, Lit, ParamExp, CmdSubst, ...), every node with its
 * Pos and End (byte offset, line, column).  json-c reads that tree; this
 * file runs shfmt and gives the few accessors the grammar needs.
 * Operators are read from the script's own bytes at their OpPos, not from
 * shfmt's numeric token codes, which change between its versions.
 */
#ifndef DH_EXTRAS_SHELL_SYNTAX_H
#define DH_EXTRAS_SHELL_SYNTAX_H

#include <stdbool.h>
#include <stddef.h>

#include <dpkg/error.h>

#include <json-c/json.h>

/* Bigger maintainer scripts are not hand-written packaging. */
#define SHELL_SCRIPT_MAX (256 * 1024)

enum shell_dialect {
	SHELL_POSIX,
	SHELL_BASH,
};

/*
 * Parse TEXT (LEN bytes) as DIALECT.  Returns the File node (free it with
 * json_object_put), or NULL with *LINE the line of a syntax error (0 when
 * shfmt could not be run) and a one-line message in ERR.
 */
struct json_object *shell_parse(const char *text, size_t len,
                                enum shell_dialect dialect, int *line,
                                struct dpkg_error *err);

/* Member KEY of node O, or NULL. */
struct json_object *shell_get(struct json_object *o, const char *key);

/* The "Type" of node O ("CallExpr", "Lit", ...), or "". */
const char *shell_type(struct json_object *o);

/* Byte offset and line of O's position WHICH ("Pos", "End", "OpPos"). */
size_t shell_offset(struct json_object *o, const char *which);
int shell_line(struct json_object *o, const char *which);

/* Number of elements of the array member KEY of O (0 when absent). */
size_t shell_count(struct json_object *o, const char *key);
/* Element I of the array member KEY of O. */
struct json_object *shell_at(struct json_object *o, const char *key,
                             size_t i);

/*
 * The value of word W when it is written out: literal parts, single- and
 * double-quoted literals, nothing expanded.  Returns a new string, or
 * NULL when W expands something.
 */
char *shell_word_literal(struct json_object *w);

#endif
