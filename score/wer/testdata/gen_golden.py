#!/usr/bin/env python3
"""Writes golden.json: MLPerf speech2text's word error rate on crafted pairs.

The oracle is the reference's own code, read at generation time and not
committed: speech2text/helpers.py (compute_wer_with_concatenation) and
legacy_helpers.py (__levenshtein) of mlcommons/inference at b66003e1, and
accuracy_eval.py's word_error_rate and print line, with whisper's
EnglishTextNormalizer from openai-whisper 20250625 (see
score/whispernorm/testdata/gen_golden.py for the venv: Python 3.11.7,
regex 2026.11.19, more-itertools 11.2.1).

    git -C /work/.mirror/mlcommons+inference/repo archive b66003e1 speech2text | tar x -C /tmp/inf
    /tmp/venv-whisper/bin/python score/wer/testdata/gen_golden.py /tmp/inf/speech2text \
        /tmp/sdist/openai_whisper-20250625/whisper > score/wer/testdata/golden.json

"pairs": each raw hypothesis/reference pair with the reference's
(distance, words) after normalizing and splitting; "sets": lists of pair
indexes with the line accuracy_eval.py prints for them.
"""
import importlib.util
import json
import os
import random
import sys

s2t, whisper_pkg = sys.argv[1], sys.argv[2]
sys.path.insert(0, s2t)
from legacy_helpers import __levenshtein as levenshtein  # noqa: E402
from helpers import compute_wer_with_concatenation  # noqa: E402

spec = importlib.util.spec_from_file_location(
    "normalizers", os.path.join(whisper_pkg, "normalizers", "__init__.py"),
    submodule_search_locations=[os.path.join(whisper_pkg, "normalizers")])
mod = importlib.util.module_from_spec(spec)
sys.modules["normalizers"] = mod
spec.loader.exec_module(mod)
normalizer = mod.EnglishTextNormalizer()

CRAFTED = [
    ("the cat sat", "the cat sat"),
    ("the cat sat", "the cat sat on the mat"),
    ("the cat sat on the mat", "the cat sat"),
    ("a b c", "x y z"),
    ("", "hello world"),
    ("hello world", ""),
    ("", ""),
    ("baseball game", "base ball game"),
    ("base ball game", "baseball game"),
    ("new york city is big", "newyorkcity is big"),
    ("newyorkcity is big", "new york city is big"),
    ("a b c d", "abcd"),
    ("abcd", "a b c d"),
    ("ab c", "a bc"),
    ("a bc d", "abc d"),
    ("every one of them", "everyone of them"),
    ("some times i wonder", "sometimes i wonder"),
    ("twenty one guns", "21 guns"),
    ("It's twenty-one o'clock, Mr. Smith!", "its 21 oclock mister smith"),
    ("He paid $5.50 for the colour TV.", "he paid five dollars and fifty cents for the color tv"),
    ("um so uh the the the end", "so the end"),
    ("the the the", "the"),
    ("x", "x x x x"),
    ("in to the woods", "into the woods"),
    ("into the woods", "in to the woods"),
    ("can not do it", "can't do it"),
    ("to day to morrow", "today tomorrow"),
    ("a a a a", "aa aa"),
    ("aa aa", "a a a a"),
    ("ab", "a b"),
    ("a b", "ab"),
    ("abc", "ab c"),
    ("abc def", "a bc de f"),
    ("he hoped there would be stew for dinner turnips and carrots and bruised potatoes",
     "he hoped there would be stew for dinner turnips and carrots and bruised potatoes and fat mutton pieces"),
    ("stuff it into you his belly counseled him", "stuff it into you his belly counselled him"),
]

VOCAB = ("a b c ab bc abc the cat sat on mat in to into any one anyone some "
         "times sometimes base ball baseball new york newyork x y z").split()


def random_pairs(rng, n):
    out = []
    for _ in range(n):
        r = [rng.choice(VOCAB) for _ in range(rng.randint(0, 10))]
        h = list(r)
        for _ in range(rng.randint(0, 4)):
            op = rng.randint(0, 3)
            if op == 0 and h:
                del h[rng.randrange(len(h))]
            elif op == 1:
                h.insert(rng.randint(0, len(h)), rng.choice(VOCAB))
            elif op == 2 and h:
                h[rng.randrange(len(h))] = rng.choice(VOCAB)
            elif op == 3 and len(h) > 1:
                i = rng.randrange(len(h) - 1)
                h[i:i + 2] = [h[i] + h[i + 1]]
        out.append((" ".join(h), " ".join(r)))
    return out


def line(pairs):
    scores = words = 0
    for h, r in pairs:
        d, w = compute_wer_with_concatenation(normalizer(h).split(), normalizer(r).split())
        scores += d
        words += w
    wer = scores / words
    return "Word Error Rate: {:}%, accuracy={:}%".format(wer * 100, (1 - wer) * 100)


def main():
    rng = random.Random(61)
    pairs = CRAFTED + random_pairs(rng, 800)
    recs = []
    for h, r in pairs:
        hl, rl = normalizer(h).split(), normalizer(r).split()
        d, w = compute_wer_with_concatenation(hl, rl)
        recs.append({"hyp": h, "ref": r, "distance": d, "words": w,
                     "levenshtein": levenshtein(rl, hl)})
    sets = []
    for _ in range(200):
        idx = rng.sample(range(len(pairs)), rng.randint(1, 40))
        try:
            sets.append({"pairs": idx, "line": line([pairs[i] for i in idx])})
        except ZeroDivisionError:
            sets.append({"pairs": idx, "error": "ZeroDivisionError"})
    json.dump({"pairs": recs, "sets": sets}, sys.stdout, ensure_ascii=False, indent=0)
    print()


if __name__ == "__main__":
    main()
