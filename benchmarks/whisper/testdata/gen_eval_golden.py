#!/usr/bin/env python3
"""Writes testdata/eval/: a manifest, an accuracy log and what the official
evaluator prints for them.

The evaluator is speech2text/accuracy_eval.py of mlcommons/inference at
b66003e1, run unchanged (not committed), with whisper's normalizers of
openai-whisper 20250625 importable as whisper.normalizers (the package's
__init__ imports torch, so a stub whisper package holding only normalizers/
is put on PYTHONPATH):

    git -C /work/.mirror/mlcommons+inference/repo archive b66003e1 speech2text | tar x -C /tmp/inf
    mkdir -p /tmp/wshim/whisper && touch /tmp/wshim/whisper/__init__.py
    cp -r /tmp/sdist/openai_whisper-20250625/whisper/normalizers /tmp/wshim/whisper/
    PYTHONPATH=/tmp/wshim /tmp/venv-whisper/bin/python benchmarks/whisper/testdata/gen_eval_golden.py \
        /tmp/inf/speech2text benchmarks/whisper/testdata/eval

Python 3.11.7, regex 2026.11.19, more-itertools 11.2.1. The manifest's
fname values are absolute paths of the machine that made the set (as the
published manifest's are), an entry is over 30 s and two transcripts are not
strings (a number and null), so the reader's resolution and dropping rules are exercised.
"""
import array
import io
import json
import os
import random
import subprocess
import sys

s2t, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
labels = " abcdefghijklmnopqrstuvwxyz'0123456789$%+-"
labels_dict = {c: i for i, c in enumerate(labels)}

rng = random.Random(5)
words = ("he hoped there would be stew for dinner turnips and carrots mister quilter "
         "is the apostle of middle classes twenty one colour honour it's o'clock don't").split()


def entry(transcript, name, duration):
    n = int(duration * 16000)
    return {"transcript": transcript,
            "files": [{"channels": 1, "sample_rate": 16000.0, "bitdepth": 16, "bitrate": 256000.0,
                       "duration": duration, "num_samples": n, "encoding": "Signed Integer PCM",
                       "silent": False, "fname": "/data/dev-all-repack/" + name, "speed": 1}],
            "original_duration": duration, "original_num_samples": n}


manifest, refs = [], []
for i in range(40):
    t = " ".join(rng.choice(words) for _ in range(rng.randint(3, 25)))
    if i == 3:
        t = "Mr. Quilter's 2nd gospel, (for) the MIDDLE classes!"
    dur = 31.5 if i == 7 else round(rng.uniform(1, 30), 4)
    manifest.append(entry(t, "%d-%d_%d.wav" % (100 + i, 2000 + i, i), dur))
manifest[11]["transcript"] = 42  # not a string: the reference drops it
manifest[17]["transcript"] = None  # null: dropped too (Go's json keeps it as "")
with open(os.path.join(out, "dev-all-repack.json"), "w") as f:
    json.dump(manifest, f, indent=2)

kept = [m for m in manifest if m["original_duration"] <= 30.0 and isinstance(m["transcript"], str)]


def sut(result):
    result = result.lower().strip()
    return array.array('q', [labels_dict[s] for s in result if s in labels_dict]).tobytes().hex()


log = []
for seq in range(len(kept) + 5):
    idx = seq if seq < len(kept) else rng.randrange(len(kept))  # a few duplicates
    ref = kept[idx]["transcript"]
    w = ref.split()
    op = rng.randint(0, 4)
    if op == 1 and len(w) > 1:
        del w[rng.randrange(len(w))]
    elif op == 2:
        w[rng.randrange(len(w))] = rng.choice(words)
    elif op == 3 and len(w) > 1:
        j = rng.randrange(len(w) - 1)
        w[j:j + 2] = [w[j] + w[j + 1]]
    hyp = " " + " ".join(w).capitalize() + "."
    log.append({"seq_id": seq, "qsl_idx": idx, "data": sut(hyp).upper(), "token_count": len(w) + 1})
with open(os.path.join(out, "mlperf_log_accuracy.json"), "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(e) for e in log) + "\n]\n")

res = subprocess.run([sys.executable, "accuracy_eval.py", "--log_dir", os.path.abspath(out),
                      "--dataset_dir", os.path.abspath(out), "--manifest",
                      os.path.abspath(os.path.join(out, "dev-all-repack.json"))],
                     cwd=s2t, capture_output=True, text=True, check=True)
with open(os.path.join(out, "accuracy.txt"), "w") as f:
    f.write(res.stdout)
print(res.stdout, end="")
