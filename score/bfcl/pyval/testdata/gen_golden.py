#!/usr/bin/env python3
"""Golden vectors for package pyval: CPython 3.12's json.loads / json.dumps,
int(str), float(str), str.lower-free == between values, and `in`.

Run with CPython 3.12.1, no third-party package:
    python3.12 gen_golden.py | gzip -9 -n > values.jsonl.gz
Lines: {"op": "json", "src", "loads": tagged|{"err"}, "dumps": str|{"err"}}
       {"op": "int"|"float", "src", "value": tagged|{"err"}}
       {"op": "eq", "a": json, "b": json, "eq": bool, "in": bool}   (a and b given as JSON texts)
"""
import json
import random
import sys

assert sys.version_info[:2] == (3, 12), sys.version


def tag(v):
    if v is None:
        return {"t": "NoneType"}
    t = type(v).__name__
    if isinstance(v, bool):
        return {"t": t, "v": v}
    if isinstance(v, int):
        return {"t": t, "v": str(v)}
    if isinstance(v, float):
        return {"t": t, "v": repr(v)}
    if isinstance(v, str):
        return {"t": t, "v": v.encode("utf-8", "replace").decode("utf-8")}
    if isinstance(v, list):
        return {"t": t, "v": [tag(x) for x in v]}
    if isinstance(v, dict):
        return {"t": t, "v": [[tag(k), tag(x)] for k, x in v.items()]}
    raise TypeError(t)


def err(e):
    return {"err": type(e).__name__}


JSON = [
    "1", "-1", "-0", "0", "01", "1.0", "1e5", "1E+5", "1e-5", "-0.0", "1.", ".5", "1e", "1e400", "-1e400",
    "123456789012345678901234567890", "1" * 4300, "1" * 4301, "NaN", "Infinity", "-Infinity", "nan", "inf",
    "true", "false", "null", "True", "None", '"a"', "'a'", '"\\u00e9"', '"\\ud83d\\ude00"', '"\\ud800"',
    '"\\ud800x"', '"\\udc00"', '"\\x41"', '"\\/"', '"\\b\\f\\n\\r\\t"', '"a\tb"', '"a\nb"', '"\u00e9\u20ac"',
    '"\\u00E9"', '"\\u12"', '"\\u12g4"', '"unterminated', "[]", "[1,]", "[,1]", "[1 2]", "{}", '{"a":1,}',
    '{"a":1,"a":2}', '{"a":1,"b":2,"a":3}', "{1:2}", '{"a" 1}', " [1] ", "\t[1]\n", "\u00a0[1]", "\ufeff[1]",
    "[1] x", "[1][2]", '[{"a": [1, {"b": null}]}]', "[" * 500 + "]" * 500, "[" * 990 + "]" * 990,
    "[" * 2000 + "]" * 2000, '{"a": ' * 985 + "1" + "}" * 985, "", " ", "-", "--1", "+1", "0x10",
    '"\\u0000"', '"\x00"', '"\x7f"', '"\\u007f\\u0080\\u2028 é 😀 \\ud83d\\ude00"', '[1.5e300, 2.5e-300, 5e-324, 1.7976931348623157e308]', '[0.1, 0.2, 1e16, 1e-4, 1e-5]',
]

NUMS = ["1", " 1 ", "+1", "-1", "1_000", "1__0", "_1", "1_", "0x10", "007", "", " ", "1.5", "١٢٣", "１２",
        "1\n", "\u00a01\u2003", "1e5", "1E5", ".5", "5.", "inf", "-inf", "+Infinity", "nAn", "-nan", "infinity",
        "in", "1e", "1e+", "1.5.5", "1_0.5_0", "1_.5", "1._5", "1e1_0", "٣.٥", "12L", "3.14f", "0.0", "-0",
        "1" * 4300, "1" * 4301, "9" * 400, "1e309", "2.5e-324", "\x1c1\x1f", "１.５"]

VALUES = ["1", "1.0", "true", "false", "0", "0.0", "-0.0", "null", '"1"', '"a"', "[1]", "[1.0]", "[true]",
          '{"a": 1}', '{"a": 1.0}', '{"a": true}', '{"b": 1, "a": 2}', '{"a": 2, "b": 1}', "[]", "{}", '""',
          "9007199254740993", "9007199254740992.0", "9007199254740992", "NaN", "[NaN]", "Infinity", "1e400",
          '[[1, 2], [3]]', '[[1, 2], [3.0]]', '["a", ["b"]]']


def main():
    out = []
    for s in JSON:
        row = {"op": "json", "src": s}
        try:
            v = json.loads(s)
            if s.startswith("[" * 100) or s.startswith('{"a": ' * 100):
                row["loads"] = {"deep": True}
                out.append(row)
                continue
            row["loads"] = tag(v)
            try:
                row["dumps"] = json.dumps(v)
                u = json.dumps(v, ensure_ascii=False)
                try:
                    u.encode("utf-8")
                    row["dumps_u"] = u
                except UnicodeEncodeError:  # a lone surrogate: no UTF-8 for it
                    pass
            except Exception as e:  # noqa: BLE001
                row["dumps"] = err(e)
        except Exception as e:  # noqa: BLE001
            row["loads"] = err(e)
        out.append(row)
    for s in NUMS:
        for op, fn in (("int", int), ("float", float)):
            try:
                out.append({"op": op, "src": s, "value": tag(fn(s))})
            except Exception as e:  # noqa: BLE001
                out.append({"op": op, "src": s, "value": err(e)})
    for a in VALUES:
        for b in VALUES:
            va, vb = json.loads(a), json.loads(b)
            out.append({"op": "eq", "a": a, "b": b, "eq": va == vb, "in": va in [vb]})
    rng = random.Random(7)
    for _ in range(300):
        # random dicts with key collisions through json round trips
        v = {rng.choice(["a", "b", "c"]): rng.choice([1, 1.0, True, "x", None, [1], {"k": 2}]) for _ in range(rng.randint(0, 4))}
        s = json.dumps(v)
        out.append({"op": "json", "src": s, "loads": tag(json.loads(s)), "dumps": json.dumps(json.loads(s)),
                    "dumps_u": json.dumps(json.loads(s), ensure_ascii=False)})
    for r in out:
        print(json.dumps(r, ensure_ascii=False))


main()
