#!/usr/bin/env python3
"""transformers' batch_decode on the batch BenchmarkBatchDecodeLlama3 decodes, for comparison.

  python3 bench_batch_decode.py DIR   (DIR: the converted Llama 3 tokenizer gen_llama3_golden.py
                                       writes with its OUTDIR argument; run from tokenizer/testdata)
Versions as gen_llama3_golden.py (transformers 4.46.2, tokenizers 0.20.3).
"""
import gzip
import json
import sys
import time

from transformers import AutoTokenizer

SAMPLES, LEN = 13368, 600

tok = AutoTokenizer.from_pretrained(sys.argv[1], use_fast=False)
vocab = len(tok)  # once: len() of a fast tokenizer asks the Rust side for its vocabulary
stream = [i for line in gzip.open("llama3_decode.jsonl.gz", "rt", encoding="utf-8") for i in json.loads(line)["ids"] if i < vocab]
seqs = [[stream[(k * LEN + j) % len(stream)] for j in range(LEN)] for k in range(SAMPLES)]
best = None
for _ in range(3):
    t0 = time.perf_counter()
    out = tok.batch_decode(seqs, skip_special_tokens=True)
    dt = time.perf_counter() - t0
    best = dt if best is None else min(best, dt)
print(f"transformers {sys.modules['transformers'].__version__} batch_decode {SAMPLES}x{LEN}: best of 3 {best:.3f} s "
      f"({best / SAMPLES * 1e9:.0f} ns/sequence); {sum(len(s) for s in out)} characters")
