#!/usr/bin/env python3
"""Writes golden.json: Python's view of every code point assigned in its
Unicode database: str.isspace(), str.isalnum() (re's word characters, with
"_"), and str.lower() where it changes the character.

    python3.11 internal/pystr/testdata/gen_golden.py > internal/pystr/testdata/golden.json

Python 3.11.7, unicodedata 14.0.0. Code points unassigned there (category
Cn) are left out: Go's tables are Unicode 15.0.0, and the characters new in
15.0 are no part of the comparison.
"""
import json
import sys
import unicodedata


def ranges(cps):
    out = []
    for c in cps:
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return out


assigned, space, alnum, lower = [], [], [], {}
for cp in range(0x110000):
    if 0xD800 <= cp <= 0xDFFF:
        continue
    c = chr(cp)
    if unicodedata.category(c) == "Cn":
        continue
    assigned.append(cp)
    if c.isspace():
        space.append(cp)
    if c.isalnum():
        alnum.append(cp)
    if c.lower() != c:
        lower[cp] = c.lower()
json.dump({"unicodedata": unicodedata.unidata_version, "assigned": ranges(assigned),
           "space": space, "alnum": ranges(alnum), "lower": lower}, sys.stdout)
