#!/usr/bin/env python3
"""Writes labels.json: what MLPerf's whisper reference SUT tells LoadGen for
a transcript. The labels list and the loop are taken from
speech2text/reference_SUT.py (mlcommons/inference at b66003e1) by reading
the file: the module itself imports torch and vLLM, so its `labels`
assignment and the body of Instance.process_queries' result loop
(result.lower().strip(), labels_dict lookups, array('q')) are extracted and
run here, unchanged.

    git -C /work/.mirror/mlcommons+inference/repo archive b66003e1 speech2text | tar x -C /tmp/inf
    python3 protocol/openaiaudio/testdata/gen_labels.py /tmp/inf/speech2text/reference_SUT.py \
        > protocol/openaiaudio/testdata/labels.json

Python 3.11.7. Each case: the transcript and the hex of the int64 array.
"""
import array
import ast
import json
import random
import sys

src = open(sys.argv[1]).read()
tree = ast.parse(src)
labels = None
for node in tree.body:
    if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "labels":
        labels = ast.literal_eval(node.value)
labels_dict = {c: i for i, c in enumerate(labels)}
assert "result = result.lower().strip()" in src and "if s in labels_dict:" in src


def sut_output(result):
    # reference_SUT.py, Instance.process_queries
    result = result.lower().strip()
    transcript = []
    for s in result:
        if s in labels_dict:
            transcript.append(labels_dict[s])
    return array.array('q', transcript).tobytes().hex()


CASES = [
    "", " ", " He hoped there would be stew for dinner.", "HELLO, World!",
    "It's 5 o'clock - $20 + 10% off.", "  \t\n trailing spaces \n ", "\u00a0nbsp\u00a0",
    "\u2003em space\u3000", "İstanbul", "\u212aelvin", "Straße", "Café naïve", "ΟΔΟΣ",
    "tab\there", "new\nline", "x\x1cy\x1f", "under_score", "quote\"s", "semi;colon",
    "1,000.50", "\u00bd", "\uff21\uff22", "\u0130I", "Mr. O'Neil's 3rd-place #1 finish!",
]
rng = random.Random(7)
pool = list(labels) + list("ABCXYZ.,!?;:\"()[]_\t\n\u00a0\u2003İéÉß½") + ["\u212a"]
CASES += ["".join(rng.choice(pool) for _ in range(rng.randint(0, 60))) for _ in range(300)]
json.dump({"labels": "".join(labels), "cases": [{"text": t, "hex": sut_output(t)} for t in CASES]},
          sys.stdout, ensure_ascii=False, indent=0)
print()
