#!/usr/bin/env python3
"""Golden extractions of text-form calls that need CPython's Unicode
semantics: \\N{NAME} escapes in string arguments (resolved by name, an
unknown name a SyntaxError) and non-ASCII keyword names (NFKC-normalized,
ｌｏｃａｔｉｏｎ= is location=). Made by mlcommons/endpoints'
FunctionCallExtractor itself (src/inference_endpoint/evaluation/extractor.py
at ea3327530376, standard library only), exported to a temporary folder at
generation time, never copied here.

Run with CPython 3.12.1 from this folder:

    python3.12 gen_unicode_calls.py /work/.mirror/mlcommons+endpoints/repo

Writes unicode_calls.json: [{"output": ..., "extract": ...}], read by
TestUnicodeCallsGolden.
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

assert sys.version_info[:2] == (3, 12), sys.version
COMMIT = "ea3327530376"
PATH = "src/inference_endpoint/evaluation/extractor.py"

OUTPUTS = [
    r"get_weather(city='Divin\N{LATIN SMALL LETTER O WITH ACUTE}polis')",
    r"get_weather(city='Divin\N{latin small letter o with acute}polis')",
    r"get_weather(city='S\N{LATIN SMALL LETTER A WITH TILDE}o Paulo', unit='\N{DEGREE SIGN}C')",
    r"get_weather('Divin\N{LATIN SMALL LETTER O WITH ACUTE}polis')",
    r"get_weather('Divin\N{NO SUCH LETTER}polis')",
    r"get_weather(city='Divin\N{NO SUCH LETTER}polis')",
    r"get_weather(city='\N{}')",
    r"get_weather(city='\N{HANGUL SYLLABLE GA}\N{CJK UNIFIED IDEOGRAPH-4E00}\N{BOM}')",
    r"get_weather(city=f'\N{BULLET} {x}')",
    r"get_weather(city=b'\N{BULLET}')",
    "get_weather(ｌｏｃａｔｉｏｎ='Paris')",
    "get_weather(ｌｏｃａｔｉｏｎ='Paris', ｕｎｉｔ='celsius')",
    "get_weather(ﬁlter='x')",
    "get_weather(ǅ=1)",
    "get_weather(café=1, cafe\u0301=2)",
    "get_weather(𝐱=1)",
    "get_weather(location=ｘ)",
    "get_weather(location=Ｔｒｕｅ)",
    "get_weather(location=[ｘ for ｘ in ｙ])",
    "get_weather(ｌｏｃａｔｉｏｎ='Paris', location='Rome')",
    "Let me call get_weather(ｃｉｔｙ='Paris') and then get_time(ｔｚ='CET').",
]


def load_extractor(repo):
    src = subprocess.run(["git", "-C", repo, "show", f"{COMMIT}:{PATH}"],
                         check=True, capture_output=True, text=True).stdout
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "extractor.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(src)
    spec = importlib.util.spec_from_file_location("extractor", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.FunctionCallExtractor


def main():
    fce = load_extractor(sys.argv[1])
    rows = []
    for out in OUTPUTS:
        try:
            got = fce.extract(out, default="[]")
        except Exception as e:  # an escaping exception aborts the reference's scoring
            got = {"err": type(e).__name__}
        rows.append({"output": out, "extract": got})
        print(out, "->", got, file=sys.stderr)
    with open("unicode_calls.json", "w", encoding="utf-8") as f:
        json.dump({"source": "mlcommons/endpoints@" + COMMIT, "python": sys.version.split()[0],
                   "cases": rows}, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
