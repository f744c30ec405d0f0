#!/usr/bin/env python3
"""Time the reference llama3.1-8b evaluation in Python on the Go benchmark's
corpus, to compare with BenchmarkLlamaEval (score/summarization).

  SCORE_BENCH_DUMP=/tmp/bench.jsonl go test ./score/summarization -run TestDumpBenchCorpus
  /tmp/venv-rouge/bin/python score/testdata/time_python.py /tmp/bench.jsonl [--limit N]

Same pinned environment as gen_golden.py. With --limit the first N pairs are
scored and the time for all pairs is extrapolated (the cost per pair does not
depend on the others). Prints the result line and the seconds taken.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_data = tempfile.mkdtemp(prefix="nltk_data_")
shutil.copytree(os.path.join(os.path.dirname(HERE), "punkt", "data", "english"),
                os.path.join(_data, "tokenizers", "punkt_tab", "english"))
os.environ["NLTK_DATA"] = _data
sys.path.insert(0, HERE)
import gen_golden  # noqa: E402  (postprocess_text and the rouge loop of the scripts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--limit", type=int, default=0)
    args = ap.parse_args()
    with open(args.corpus, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    total = len(rows)
    if args.limit:
        rows = rows[:args.limit]
    preds = [r["prediction"] for r in rows]
    targets = [r["target"] for r in rows]
    t0, c0 = time.perf_counter(), time.process_time()
    out = gen_golden.llama31_output(preds, targets)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(out.strip())
    print(f"python: {len(rows)} pairs in {wall:.1f} s wall, {cpu:.1f} s CPU; "
          f"{total} pairs extrapolated: {wall * total / len(rows):.0f} s wall, {cpu * total / len(rows):.0f} s CPU")


if __name__ == "__main__":
    main()
