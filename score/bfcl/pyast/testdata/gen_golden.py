#!/usr/bin/env python3
"""Golden vectors for package pyast: CPython 3.12's ast.parse(mode="eval"),
ast.literal_eval and ast.unparse over hand-written and generated expressions.

Run with CPython 3.12.1 (the Python mlcommons/endpoints requires, >= 3.12),
no third-party package:

    python3.12 gen_golden.py > exprs.jsonl && gzip -9 -n -f exprs.jsonl

Each line: {"src": ..., "err": "SyntaxError"|"ValueError"|null,
"unparse": ..., "literal": <tagged value> | {"err": type}}. Tagged values
write every Python value unambiguously: {"t": "int", "v": "12"}, {"t":
"float", "v": repr}, {"t": "str", "v": ...}, {"t": "list", "v": [...]},
{"t": "dict", "v": [[k, v], ...]}, ...
"""
import ast
import json
import os
import random
import sys
import warnings

warnings.simplefilter("ignore")
assert sys.version_info[:2] == (3, 12), sys.version


def tag(v):
    if v is None:
        return {"t": "NoneType"}
    if v is ...:
        return {"t": "ellipsis"}
    t = type(v).__name__
    if isinstance(v, bool):
        return {"t": t, "v": v}
    if isinstance(v, int):
        return {"t": t, "v": str(v)}
    if isinstance(v, float):
        return {"t": t, "v": repr(v)}
    if isinstance(v, complex):
        return {"t": t, "v": [repr(v.real), repr(v.imag)]}
    if isinstance(v, str):
        return {"t": t, "v": v}
    if isinstance(v, bytes):
        return {"t": t, "v": v.hex()}
    if isinstance(v, (list, tuple)):
        return {"t": t, "v": [tag(x) for x in v]}
    if isinstance(v, set):
        return {"t": t, "v": [tag(x) for x in v]}  # order is Python's; compared as a set
    if isinstance(v, dict):
        return {"t": t, "v": [[tag(k), tag(x)] for k, x in v.items()]}
    raise TypeError(t)


def row(src):
    out = {"src": src}
    try:
        tree = ast.parse(src, mode="eval")
    except SyntaxError:
        out["err"] = "SyntaxError"
        return out
    except ValueError:
        out["err"] = "ValueError"
        return out
    out["err"] = None
    try:
        out["unparse"] = ast.unparse(tree.body)
    except ValueError:
        out["unparse_err"] = "ValueError"
    try:
        out["literal"] = tag(ast.literal_eval(tree.body))
    except (ValueError, TypeError, SyntaxError) as e:
        out["literal"] = {"err": type(e).__name__}
    return out


HAND = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "exprs_hand.txt"), encoding="utf-8").read().split("\n")

# Sources the tokenizer must see whole (newlines, nulls).
EXTRA = [
    "x\n", "\n\nx", "x\n\n", "x\ny", "(x\n+1)", "x # c\n", "\x0cx", "x\x00", "'a\nb'",
    "dict(a=1\n)", "dict(a=1 # c\n)", "dict(a=1) # c", "dict(a=1)\n+1", "dict(a=1)\n  ",
    "x\r\ny", "(x\r\n+1)", "'\r'",
    "(" * 199 + "1" + ")" * 199, "(" * 201 + "1" + ")" * 201,
    "1" * 4300, "1" * 4301,
]

ATOMS = ["x", "y", "foo", "True", "False", "None", "...", "1", "0", "42", "1.5", "1e3", "2j", "0x1F",
         "'s'", '"d"', "'it\\'s'", "b'b'", "u'u'", "r'\\d'", "'é'", "'\\n'", "[]", "{}", "()", "[1, 2]",
         "{'k': 1}", "{1, 2}", "(1,)", "'a' 'b'", "-1", "set()", "f'{x}'"]
BINOPS = ["+", "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "&", "|", "^", "==", "!=", "<", "<=",
          ">", ">=", "in", "not in", "is", "is not", "and", "or"]
JUNK = ["(", ")", "[", "]", "{", "}", ",", ":", "=", "*", "**", ".", "lambda", "if", "else", "for",
        "not", "await", "yield", "'", "#", "\\", "$", ":="]


def gen_expr(rng, depth=0):
    r = rng.random()
    if depth > 3 or r < 0.3:
        return rng.choice(ATOMS)
    if r < 0.5:
        return f"{gen_expr(rng, depth + 1)} {rng.choice(BINOPS)} {gen_expr(rng, depth + 1)}"
    if r < 0.58:
        return f"{rng.choice(['-', '+', '~', 'not '])}{gen_expr(rng, depth + 1)}"
    if r < 0.66:
        return f"({gen_expr(rng, depth + 1)})"
    if r < 0.72:
        return f"[{', '.join(gen_expr(rng, depth + 1) for _ in range(rng.randint(0, 3)))}]"
    if r < 0.78:
        return f"{{{', '.join(gen_expr(rng, depth + 1) + ': ' + gen_expr(rng, depth + 1) for _ in range(rng.randint(0, 2)))}}}"
    if r < 0.84:
        return f"{rng.choice(['f', 'x.y', 'g'])}({gen_args(rng, depth + 1)})"
    if r < 0.88:
        return f"{gen_expr(rng, depth + 1)} if {gen_expr(rng, depth + 1)} else {gen_expr(rng, depth + 1)}"
    if r < 0.92:
        return f"{gen_expr(rng, depth + 1)}[{gen_expr(rng, depth + 1)}]"
    if r < 0.95:
        return f"{gen_expr(rng, depth + 1)}.attr"
    return f"lambda {rng.choice(['', 'a', 'a, b=1', '*a', 'a, *, b'])}: {gen_expr(rng, depth + 1)}"


def gen_args(rng, depth):
    parts = []
    for _ in range(rng.randint(0, 3)):
        k = rng.random()
        if k < 0.5:
            parts.append(f"{rng.choice(['a', 'b', 'city', 'unit'])}={gen_expr(rng, depth)}")
        elif k < 0.8:
            parts.append(gen_expr(rng, depth))
        elif k < 0.9:
            parts.append("*" + gen_expr(rng, depth))
        else:
            parts.append("**" + gen_expr(rng, depth))
    return ", ".join(parts)


def mangle(rng, s):
    # Insert, delete or swap a junk token to make near-valid inputs.
    toks = s.split(" ")
    i = rng.randrange(len(toks) + 1)
    op = rng.random()
    if op < 0.4:
        toks.insert(i, rng.choice(JUNK))
    elif op < 0.7 and toks:
        del toks[min(i, len(toks) - 1)]
    elif toks:
        toks[min(i, len(toks) - 1)] += rng.choice(JUNK)
    return " ".join(toks)


def main():
    rng = random.Random(20260323)
    srcs = [s for s in HAND if s] + EXTRA
    for _ in range(2500):
        srcs.append("dict(" + gen_args(rng, 0) + ")")
    for _ in range(1500):
        srcs.append(gen_expr(rng))
    for _ in range(1500):
        srcs.append(mangle(rng, "dict(" + gen_args(rng, 1) + ")"))
    seen = set()
    for s in srcs:
        if s in seen:
            continue
        seen.add(s)
        print(json.dumps(row(s), ensure_ascii=False))


main()
