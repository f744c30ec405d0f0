#!/usr/bin/env python3
"""How deeply nested a JSON array CPython 3.12's json.loads reads before it
raises RecursionError, called directly and through 1 to 4 C calls (each
`list(map(f, [s]))` adds one), for pyval's MaxDepth and DepthVaries.

Run with CPython 3.12.1, no third-party package, from this folder:

    python3.12 gen_json_depth.py > json_depth.json

The C scanner counts against the C recursion limit, so every C call
between the caller and json.loads costs levels: the reference scorer's
limit depends on how it reaches json.loads, which this cannot know.
"""
import json
import sys

assert sys.version_info[:2] == (3, 12), sys.version


def first_failing(call):
    for d in range(1400, 1600):
        try:
            call("[" * d + "]" * d)
        except RecursionError:
            return d
    raise AssertionError("no RecursionError below 1600")


def through(f):
    return lambda s: list(map(f, [s]))[0]


calls, fails = json.loads, []
for layers in range(5):
    fails.append(first_failing(calls))
    calls = through(calls)
json.dump({"python": sys.version.split()[0], "first_failing_by_c_calls": fails}, sys.stdout, indent=1)
print()
