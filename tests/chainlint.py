#!/usr/bin/python3
"""chainlint: broken && chains in the shell tests, as git's chainlint finds
them, on the syntax tree Debian's shfmt gives (no parser of our own).

In a test body or a helper function, every statement but the last must be
joined to the next by && (or ||, or a pipe): a test body runs under set -e,
but the shell ignores a failure on the left of && ("a && b" then "c": a
fails, c runs, the test passes), and a helper called as "helper && ..."
runs with set -e off altogether.  Checked inside if, case, loops,
subshells and { } blocks too, and a loop's body must end in "|| return 1"
(or exit 1): else only the last round's failure counts.
Nor does a chain end in "|| true" (or "|| :"), which ignores it all.

Exempt: a list that ends failing anyway (return 1, exit 1, false); the
failure handler of "cmd || { echo ...; false; }"; a command run in the
background ("cmd &": wait collects it); a statement no failure gets past
(an assignment without $(...), "cmd || st=$?", "cmd || return 1"); the
framework functions of lib.sh; a function that runs tests (a part of the
script: only its tests' bodies are linted).  A test body is linted
whether single- or double-quoted (then with its expansions unexpanded).

	chainlint.py FILE...   (prints FILE:LINE: what; exit 1 if any)
"""
import json
import os
import subprocess
import sys

FRAMEWORK = {"test_expect_success", "test_skip", "test_done",
             "test_set_prereq", "test_have_prereq", "expect_status"}

problems = []


def parse(text, where):
    p = subprocess.run(["shfmt", "-ln", "posix", "--to-json"],
                       input=text, capture_output=True)
    if p.returncode != 0:
        problems.append((where, 0, f"shfmt: {p.stderr.decode().strip()}"))
        return None
    return json.loads(p.stdout)


def source(node, ctx):
    """NODE's text as written (shfmt's offsets count bytes)."""
    return ctx["text"][node["Pos"]["Offset"]:node["End"]["Offset"]]


def lit(word):
    """WORD's value when it holds no expansion, else None."""
    out = ""
    for part in word.get("Parts", []):
        t = part.get("Type")
        if t in ("Lit", "SglQuoted"):
            out += part.get("Value", "")
        elif t == "DblQuoted" and all(p.get("Type") == "Lit"
                                      for p in part.get("Parts", [])):
            out += "".join(p.get("Value", "") for p in part.get("Parts", []))
        else:
            return None
    return out


def test_body(word, ctx):
    """The script a test's last argument evals: a literal, or the text of
    one double-quoted string with its expansions unexpanded."""
    value = lit(word)
    if value is not None:
        return value.encode()
    parts = word.get("Parts", [])
    if len(parts) != 1 or parts[0].get("Type") != "DblQuoted":
        return None
    text = source(parts[0], ctx)[1:-1]
    for c in (b"\\", b'"', b"$", b"`"):
        text = text.replace(b"\\" + c, c)
    return text


def words(stmt):
    cmd = stmt.get("Cmd") or {}
    if cmd.get("Type") != "CallExpr":
        return []
    return [lit(a) for a in cmd.get("Args", [])]


def fails(stmt):
    """Whether STMT always fails: false, return N, exit N (N > 0), or a
    block ending so."""
    cmd = stmt.get("Cmd") or {}
    if cmd.get("Type") == "Block":
        return bool(cmd.get("Stmts")) and fails(cmd["Stmts"][-1])
    return words(stmt)[:1] == ["false"] or leaves(stmt)


def leaves(stmt):
    """Whether STMT is return N or exit N (N > 0), or a block ending so."""
    cmd = stmt.get("Cmd") or {}
    if cmd.get("Type") == "Block":
        return bool(cmd.get("Stmts")) and leaves(cmd["Stmts"][-1])
    w = words(stmt)
    return (len(w) == 2 and w[0] in ("return", "exit") and
            w[1] is not None and w[1].isdigit() and int(w[1]) > 0)


def op(cmd, ctx):
    at = cmd["OpPos"]["Offset"]
    return ctx["text"][at:at + 2]


def cannot_fail(stmt, ctx):
    """An assignment without $(...), "cmd || such an assignment", or
    "cmd || return 1" (or exit 1): no failure goes on to what follows."""
    cmd = stmt.get("Cmd") or {}
    if cmd.get("Type") == "BinaryCmd" and op(cmd, ctx) == b"||":
        return leaves(cmd["Y"]) or cannot_fail(cmd["Y"], ctx)
    return (cmd.get("Type") == "CallExpr" and not cmd.get("Args") and
            not stmt.get("Redirs") and
            b"$(" not in source(stmt, ctx) and b"`" not in source(stmt, ctx))


def report(stmt, ctx, what):
    line = ctx["base"] + stmt["Pos"]["Line"] - 1
    problems.append((ctx["file"], line, f"{ctx['what']}: {what}"))


def check_list(stmts, ctx):
    if stmts and not fails(stmts[-1]):
        for st in stmts[:-1]:
            if not st.get("Background") and not cannot_fail(st, ctx):
                report(st, ctx, "no && after this statement")
    for st in stmts:
        walk(st, ctx)


def guarded(stmt, ctx):
    """Whether STMT is "cmd || return 1" (or exit 1, or a block ending so;
    not false, after which the loop goes on)."""
    cmd = stmt.get("Cmd") or {}
    return (cmd.get("Type") == "BinaryCmd" and op(cmd, ctx) == b"||" and
            leaves(cmd["Y"]))


def walk(node, ctx):
    if isinstance(node, list):
        for n in node:
            walk(n, ctx)
        return
    if not isinstance(node, dict):
        return
    t = node.get("Type")
    if t == "FuncDecl":
        name = node["Name"]["Value"]
        if os.path.basename(ctx["file"]) == "lib.sh" and name in FRAMEWORK:
            return
        body = node["Body"].get("Cmd") or {}
        if b'test_expect_success' in source(node, ctx):
            walk(body, dict(ctx, lint=False))   # a part of the script
        elif body.get("Type") in ("Block", "Subshell"):
            check_list(body.get("Stmts", []),
                       dict(ctx, what=f"function {name}", lint=True))
        return
    if t == "CallExpr":
        args = node.get("Args", [])
        if args and lit(args[0]) == "test_expect_success" and len(args) >= 3:
            line = ctx["base"] + args[-1]["Pos"]["Line"] - 1
            name = lit(args[-2])
            if name is None:
                name = source(args[-2], ctx).decode()[1:-1]
            what = f"test '{name}'"
            body = test_body(args[-1], ctx)
            if body is None:
                problems.append((ctx["file"], line, f"{what}: the body "
                                 "is not one quoted string"))
                return
            tree = parse(body, f"{ctx['file']}:{line}")
            if tree:
                check_list(tree.get("Stmts", []), dict(
                    ctx, base=line, lint=True, what=what, text=body))
        return
    if ctx["lint"]:
        if t == "BinaryCmd":
            if op(node, ctx) == b"||" and words(node["Y"]) in (["true"], [":"]):
                report(node["Y"], ctx, f"|| {words(node['Y'])[0]} ignores "
                       "every failure before it (expect_status N cmd, or "
                       "|| test $? = N for the one status meant)")
            walk(node["X"], ctx)
            if not fails(node["Y"]):
                walk(node["Y"], ctx)
            return
        if t in ("Subshell", "Block"):
            check_list(node.get("Stmts", []), ctx)
            return
        if t == "IfClause":
            check_list(node.get("Cond", []), ctx)
            check_list(node.get("Then", []), ctx)
            walk(node.get("Else"), ctx)
            return
        if t == "CaseClause":
            for item in node.get("Items", []):
                check_list(item.get("Stmts", []), ctx)
            return
        if t in ("ForClause", "WhileClause"):
            check_list(node.get("Cond", []), ctx)
            body = node.get("Do", [])
            check_list(body, ctx)
            if body and not guarded(body[-1], ctx):
                report(body[-1], ctx, "a loop's body ends in || return 1 "
                       "(or exit 1), else only its last round counts")
            return
    for k, v in node.items():
        if k not in ("Pos", "End"):
            walk(v, ctx)


def main():
    for f in sys.argv[1:]:
        with open(f, "rb") as fp:
            text = fp.read()
        tree = parse(text, f)
        if tree is not None:
            walk(tree.get("Stmts", []),
                 {"file": f, "base": 1, "what": "top", "lint": False,
                  "text": text})
    for f, line, what in sorted(problems, key=lambda p: p[:2]):
        print(f"{f}:{line}: {what}" if line else f"{f}: {what}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
