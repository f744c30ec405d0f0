#!/usr/bin/env python3
"""Writes golden.jsonl: whisper's EnglishTextNormalizer on crafted inputs.

The oracle is the normalizer of openai-whisper 20250625 (PyPI sdist),
imported from its normalizers folder alone: whisper/__init__.py imports
torch, the normalizers do not. It is what speech2text/accuracy_eval.py
(mlcommons/inference) calls on every hypothesis and reference.

    python3 -m venv /tmp/venv-whisper
    /tmp/venv-whisper/bin/pip install regex==2026.11.19 more-itertools==11.2.1
    pip download --no-deps --no-binary :all: openai-whisper==20250625 -d /tmp/sdist
    tar xzf /tmp/sdist/openai_whisper-20250625.tar.gz -C /tmp/sdist
    /tmp/venv-whisper/bin/python score/whispernorm/testdata/gen_golden.py \
        /tmp/sdist/openai_whisper-20250625/whisper > score/whispernorm/testdata/golden.jsonl

Python 3.11.7 (unicodedata 14.0.0). Each line: {"in": ..., "out": ...}; an
input the normalizer raises on has "error": the exception's type.
"""
import importlib.util
import json
import random
import sys
import os

pkg = sys.argv[1]
spec = importlib.util.spec_from_file_location(
    "normalizers", os.path.join(pkg, "normalizers", "__init__.py"),
    submodule_search_locations=[os.path.join(pkg, "normalizers")])
mod = importlib.util.module_from_spec(spec)
sys.modules["normalizers"] = mod
spec.loader.exec_module(mod)
norm = mod.EnglishTextNormalizer()

CRAFTED = [
    "", " ", "hello world", "  Hello,   World!  ", "HELLO\tWORLD\nagain",
    # numbers
    "one", "ones", "one two three", "one hundred and twenty three",
    "twenty one", "twenty first", "twenty-first", "the nineteen sixties",
    "nineteen sixty", "nineteen oh five", "one oh one", "oh oh seven",
    "double seven", "triple zero", "double o seven", "double trouble",
    "three point five", "point five", "zero point zero one",
    "two and a half", "two and a half million", "a half", "and a half",
    "five and a half dollars", "one and a half hours",
    "minus five", "negative twenty", "plus three", "plus or minus",
    "positive thinking", "a million", "one million", "two million three hundred thousand",
    "seventy two thousand four hundred and one", "hundreds of people",
    "thousands", "the thousandth time", "millionth", "two hundredth",
    "one hundred one", "eleven hundred", "twelve twelve", "nineteen ninety nine",
    "fifteen hundred and six", "a hundred", "hundred", "zero", "oh", "o",
    "first second third fourth fifth", "ninth twelfth twentieth thirtieth",
    "eighties", "twenties", "sixes and sevens", "the fours",
    "1st 2nd 3rd 4th", "the 1960s", "1960 s", "in 2020th", "21 st",
    "1,000,000", "1,234.56", "3.14", "1.", "1.2.3.4", "192.168.0.1",
    "10 and 20", "one two", "1 2 3", "call 911", "007", "0.5 million",
    "1.5 million", "2.5 billion dollars", "one point five million",
    "three quarters", "a third", "one third", "1/2", "3/4 cup",
    "twenty twenty two", "two thousand and two", "two thousand two",
    "nine nine nine", "five five five one two one two",
    "one thousand million", "a thousand million", "million million",
    "one decillion", "ten decillion decillion", "sixty nine nonillion",
    "thousand thousand thousand", "the year eighteen hundred",
    "seven eighths", "twenty twenties", "thirty-three", "forty4",
    "one one", "one ones", "oh one", "eleven one", "twenty one one",
    "ten ten", "hundred one", "hundred and one", "one hundred and",
    "and", "and and", "one and two", "point", "point point", "double",
    "triple", "minus", "plus", "one plus one", "two minus one",
    # currencies and percentages
    "$20", "$20 million", "20 dollars", "twenty dollars", "twenty dollars and fifty cents",
    "$2 and ¢7", "$2 ¢7", "$0.07", "$0.7", "£5", "€10.50", "¢7", "5 cents",
    "fifty cents", "one dollar", "a dollar", "dollars", "one pound", "ten euros",
    "five pounds of flour", "5 percent", "fifty per cent", "fifty percent",
    "per cent", "percent", "100%", "50 %", "%", "the $ sign", "$", "$$5", "5$",
    "£", "€", "¢", "$5.", "5.5%", "$1", "1$", "$ 1", "one pound fifty",
    # contractions
    "won't", "can't", "let's go", "ain't", "y'all", "wanna", "gotta", "gonna",
    "i'ma", "imma", "woulda coulda shoulda", "ma'am", "it's", "he's been",
    "she'd been", "they'd gone", "he's gone", "we'd done", "it's got",
    "they're", "she'd", "we'll", "isn't", "can 't", "don 't", "I 'm",
    "we've", "I'm", "you'll", "'tis", "rock 'n' roll", "o'clock", "john's",
    "the boys' toys", "'s", "n't", "'re'", "won'tcha",
    # titles
    "mr smith", "Mr. Smith", "mrs jones", "st james", "St. James", "dr who",
    "prof x", "capt hook", "gov", "ald", "gen lee", "sen", "rep", "pres",
    "rev", "hon", "asst", "assoc", "lt dan", "col", "jr", "sr", "esq",
    "mister", "Dr.Who",
    # British spellings and the spelling table
    "colour", "organise", "centre", "travelling", "theatre", "aeroplane",
    "the colour of the centre", "analyse", "catalogue", "defence", "grey",
    # punctuation, brackets, hyphens
    "[noise] hello", "<unk> world", "(laughter) yes", "hello (there) friend",
    "a [b] c <d> e (f) g", "[unclosed", "<a]", "[a>", "((nested))", "()",
    "(  )", "well-known", "twenty-one", "1-2", "a--b", "state-of-the-art",
    "e.g.", "i.e. this", "U.S.A.", "end.", "mid.dle", "3.5.", ".5", "5.",
    "...", "a...b", "hello, world", "yes; no: maybe!", "\"quoted\"", "'single'",
    "semi;colon", "under_score", "back\\slash", "slash/es", "a&b", "a+b",
    "a*b", "#hashtag", "@mention", "~tilde", "`tick`", "^caret", "{brace}",
    "|pipe|", "=equals", "hmm", "mm", "mhm", "mmm", "uh", "um", "umm",
    "hmm, uh, um", "hmmm", "uh-huh", "um hum",
    # diacritics and other scripts
    "café", "naïve", "Œuvre", "straße", "Łódź", "Ægir", "Þór", "déjà vu",
    "ﬁne", "Ⅻ", "½", "²", "①", "³⁄₄", "ℌ", "ΟΔΟΣ", "Σ", "ΣΑΣ", "ὈΔΥΣΣΕΎΣ",
    "İstanbul", "Kelvin", "Å", "日本語", "١٢٣", "٣", "１２３", "１,０００",
    "x\u00a0y", "x\u2003y", "x\u3000y", "a\x1cb", "a\x1fb", "a\vb", "a\u0085b",
    "a\u2028b", "a\u200bb", "a\u00adb", "e\u0301", "\u0301", "a\u20ddb",
    "\u00c5ngstr\u00f6m", "ﬀ", "Ǆ", "ǅ", "ß$5", "é1", "1é", "1st é",
    "ÉCOLE NORMALE", "smörgåsbord", "piñata", "façade", "résumé",
    "won't\u00e9", "\u00e9won't", "mr\u00e9", "\u00e9mr", "uh\u00e9", "\u00e9uh",
    "5\u00e9 percent", "$5\u00e9", "1\u00e9s", "one\u00e9",
    # label-alphabet strings like accuracy_eval.py builds them
    "he hoped there would be stew for dinner turnips and carrots and bruised potatoes and fat mutton pieces to be ladled out in thick peppered flour fattened sauce",
    "stuff it into you his belly counselled him",
    "after early nightfall the yellow lamps would light up here and there the squalid quarter of the brothels",
    "hello bertie any good in your mind",
    "number ten fresh nelly is waiting on you good night husband",
    "the music came nearer and he recalled the words the words of shelley's fragment upon the moon wandering companionless pale for weariness",
    "mr quilter is the apostle of the middle classes and we are glad to welcome his gospel",
    "i'm 25 years old and i've got $300 and 50% of it is yours",
    "it's 3 o'clock in the mornin'",
    "-5 +5 5- 5+ - +",
    "1 -1 +1 $-1 -$1",
    "the 2 3 4 5",
    "0 00 000 0.0",
    "'' ' 'a a' 'a'",
    "1960's", "90's", "the '60s", "'s'", "it''s",
]


def random_cases(rng, n):
    labels = list(" abcdefghijklmnopqrstuvwxyz'0123456789$%+-")
    words = ("one two three four five six seven eight nine ten eleven twelve "
             "thirteen twenty thirty ninety hundred thousand million billion "
             "first second third fifth twelfth twentieth hundredth millions "
             "sixes twenties oh zero o and a half double triple point minus "
             "plus dollars dollar cents cent pounds euros per percent cent "
             "mr mrs st dr won't can't it's they're i'm we've you'll "
             "colour centre organise travelling hmm um uh the of to in "
             "$5 5% 10 1 2 3 4 1st 2nd 3rd 21st 1960s 007 12 100 1000 "
             "'s n't 's' '").split()
    out = []
    for _ in range(n):
        if rng.random() < 0.5:
            out.append("".join(rng.choice(labels) for _ in range(rng.randint(0, 40))))
        else:
            k = rng.randint(1, 12)
            sep = lambda: rng.choice([" ", " ", " ", "  ", "-", ""])
            out.append("".join(rng.choice(words) + sep() for _ in range(k)))
    return out


def unicode_cases(rng, n):
    """Random strings over the characters the patterns treat specially."""
    pool = list(" abcdehilmnoprstuwy'0123456789$%+-.,()[]<>¢€£") + [
        "\u00e9", "\u0301", "\u03a3", "\u0130", "\u00a0", "\u2003", "\x1c", "\v",
        "\n", "\t", "\u0663", "\uff13", "\u00bd", "\u00b2", "\u2460", "_", "\u00df",
        "\u0153", "\ufb01", "\u212a", "\u3000", "\u0085", "\u200b", "!", "?", ":",
        " one ", " two ", " twenty ", " hundred ", " point ", " and ", " a half ",
        " dollars ", " cents ", " per ", " cent ", " mr ", "won't", "'s", " uh ", " hmm ",
        " double ", " oh ", " first ", " million ", " colour ", " minus "]
    return ["".join(rng.choice(pool) for _ in range(rng.randint(0, 30))) for _ in range(n)]


def main():
    rng = random.Random(24)
    cases = CRAFTED + random_cases(rng, 1500) + unicode_cases(rng, 1500)
    for s in cases:
        rec = {"in": s}
        try:
            rec["out"] = norm(s)
        except Exception as e:  # the port must fail where the reference does
            rec["error"] = type(e).__name__
        print(json.dumps(rec, ensure_ascii=False))


if __name__ == "__main__":
    main()
