#!/usr/bin/env python3
"""End-to-end golden of the llama3.1-8b accuracy evaluation, made by running the
reference script itself: mlcommons/inference language/llama3.1-8b/evaluation.py
(and the dataset.py beside it), read from a checkout at generation time and never
committed.

It writes, into this folder:
  eval_cnn.json.gz        a cnn_eval.json-shaped dataset (records with tok_input
                          and output) of 2,000+ real-shaped target summaries
  eval_accuracy.json.gz   an mlperf_log_accuracy.json whose answers are those of
                          score/testdata's corpus, encoded with Llama 3's tokenizer,
                          some cut mid-character, some with special tokens and
                          repeated <|eot_id|>, duplicated entries (the script keeps
                          the first of each qsl_idx) and an empty answer
  eval_expected.txt       what evaluation.py prints: the accuracy.txt content
  eval_expected_noclean.txt  the same with clean_up_tokenization_spaces=False
                          (tokenizers converted after transformers PR #44914)

Pinned environment (CPython 3.11.7):
  python3 -m venv /tmp/venv-tok446
  /tmp/venv-tok446/bin/pip install transformers==4.46.2 tokenizers==0.20.3 tiktoken==0.14.0 \
      nltk==3.9.4 rouge_score==0.1.2 numpy==1.26.4 absl-py==2.1.0 pandas==2.2.3
Run (from the repository root):
  bash scripts/fetch-test-tokenizers.sh /tmp/toks
  /tmp/venv-tok446/bin/python benchmarks/llama31/testdata/gen_eval_golden.py \
      /tmp/toks/llama3/tokenizer.model /work/.mirror/mlcommons+inference/repo

Stand-ins, each where the reference reaches the network: torch, datasets and
evaluate are stub modules (the script imports them but the evaluation path uses
only evaluate.load("rouge"), whose compute() is evaluate's rouge _compute loop over
rouge_score, inlined as score/testdata/gen_golden.py inlines it); nltk.download is
a no-op with punkt_tab English loaded from score/punkt/data; the tokenizer is
Meta's tokenizer.model converted by transformers' own Llama3Converter (as the Hub's
Llama 3.1 tokenizer.json was), loaded by AutoTokenizer.from_pretrained(dir,
use_fast=False) exactly as the script does.
"""
import contextlib
import gzip
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tokenizer", "testdata"))

_data = tempfile.mkdtemp(prefix="nltk_data_")
shutil.copytree(os.path.join(ROOT, "score", "punkt", "data", "english"),
                os.path.join(_data, "tokenizers", "punkt_tab", "english"))
os.environ["NLTK_DATA"] = _data

import importlib.util  # noqa: E402

# score/testdata's seeded summary generator (tokenizer/testdata has a corpus.py too).
_spec = importlib.util.spec_from_file_location("score_corpus", os.path.join(ROOT, "score", "testdata", "corpus.py"))
corpus = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(corpus)
import gen_llama3_golden  # noqa: E402  the Llama 3 conversion (stubs torch itself)
import nltk  # noqa: E402
import numpy as np  # noqa: E402

assert nltk.__version__ == "3.9.4" and np.__version__ == "1.26.4"
nltk.download = lambda *a, **k: True  # punkt_tab is in NLTK_DATA already

SEED = 20261126
N = 2100


def stub_modules():
    """torch, datasets and evaluate as the evaluation path needs them."""
    sys.modules.setdefault("torch", types.ModuleType("torch"))
    nn = types.ModuleType("torch.nn")
    fn = types.ModuleType("torch.nn.functional")
    fn.pad = None
    ud = types.ModuleType("torch.utils.data")
    ud.DataLoader = None
    sys.modules.update({"torch.nn": nn, "torch.nn.functional": fn, "torch.utils": types.ModuleType("torch.utils"), "torch.utils.data": ud})
    ds = types.ModuleType("datasets")
    ds.load_dataset = ds.load_from_disk = None
    sys.modules["datasets"] = ds

    class Rouge:  # evaluate/metrics/rouge/rouge.py _compute, use_aggregator=False
        def compute(self, predictions, references, use_stemmer=False, use_aggregator=True, rouge_types=None, tokenizer=None):
            from rouge_score import rouge_scorer
            assert use_stemmer and not use_aggregator
            types_ = rouge_types or ["rouge1", "rouge2", "rougeL", "rougeLsum"]
            scorer = rouge_scorer.RougeScorer(rouge_types=types_, use_stemmer=use_stemmer)
            scores = [scorer.score(ref, pred) for ref, pred in zip(references, predictions)]
            return {key: [s[key].fmeasure for s in scores] for key in types_}

    ev = types.ModuleType("evaluate")
    ev.load = lambda name, *a, **k: Rouge()
    sys.modules["evaluate"] = ev


def answers(tok, rng):
    """Token IDs of corpus predictions, with the shapes a real log has."""
    rows = corpus.pairs(SEED, N, long_every=500)
    eot = tok.convert_tokens_to_ids("<|eot_id|>")
    out = []
    for i, (pred, target, _) in enumerate(rows):
        ids = tok.encode(pred, add_special_tokens=False)
        r = rng.random()
        if r < 0.15:
            ids = ids[: rng.randrange(len(ids) + 1)]  # cut (may split a character)
        elif r < 0.30:
            ids = ids + [eot] * rng.randrange(1, 3)
        elif r < 0.35:
            ids = [tok.convert_tokens_to_ids("<|begin_of_text|>")] + ids
        if i % 997 == 0:
            ids = []
        out.append((ids, target))
    return out


def write_inputs(tok, rng, workdir):
    pairs = answers(tok, rng)
    records = [{"instruction": "", "input": "", "tok_input": [128000, 1000 + i % 5000], "output": t} for i, (_, t) in enumerate(pairs)]
    log = []
    order = list(range(len(pairs)))
    rng.shuffle(order)
    for seq, q in enumerate(order):
        ids = pairs[q][0]
        log.append({"seq_id": seq, "qsl_idx": q, "data": np.array(ids, np.int32).tobytes().hex().upper(), "token_count": len(ids)})
        if seq % 400 == 7:  # a duplicate answer: the first one counts
            dup = np.array(ids[:1] or [13], np.int32).tobytes().hex().upper()
            log.append({"seq_id": seq + 100000, "qsl_idx": q, "data": dup, "token_count": 1})
    ds_path, log_path = os.path.join(workdir, "cnn_eval.json"), os.path.join(workdir, "mlperf_log_accuracy.json")
    with open(ds_path, "w", encoding="utf-8") as f:
        json.dump(records, f, ensure_ascii=False)
    with open(log_path, "w") as f:  # LoadGen's layout
        f.write("[\n" + ",\n".join(json.dumps(e) for e in log) + "\n]\n")
    for src, name in ((ds_path, "eval_cnn.json.gz"), (log_path, "eval_accuracy.json.gz")):
        with open(src, "rb") as fi, gzip.GzipFile(os.path.join(HERE, name), "wb", mtime=0) as fo:
            shutil.copyfileobj(fi, fo)
    return ds_path, log_path, len(records)


def run_reference(ref_dir, tok_dir, ds_path, log_path, n):
    """evaluation.py's main(), as its README runs it (--dtype int32)."""
    sys.path.insert(0, ref_dir)
    import evaluation  # noqa: E402  the reference, from the checkout
    sys.argv = ["evaluation.py", "--mlperf-accuracy-file", log_path, "--dataset-file", ds_path,
                "--dtype", "int32", "--model-name", tok_dir, "--total-sample-count", str(n)]
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        evaluation.main()
    return buf.getvalue()


def main():
    model_path, inference = sys.argv[1], sys.argv[2]
    stub_modules()
    rng = random.Random(SEED)
    work = tempfile.mkdtemp(prefix="llama31_eval_")
    ref_dir = os.path.join(work, "reference")
    os.makedirs(ref_dir)
    for name in ("evaluation.py", "dataset.py"):
        src = subprocess.run(["git", "-C", inference, "show", "HEAD:language/llama3.1-8b/" + name], check=True, capture_output=True).stdout
        with open(os.path.join(ref_dir, name), "wb") as f:
            f.write(src)
    tok_dir = os.path.join(work, "tokenizer")
    tok = gen_llama3_golden.converted(model_path, gen_llama3_golden.DEFAULT_LLAMA_SPECIAL_TOKENS["3.1"], tok_dir)
    ds_path, log_path, n = write_inputs(tok, rng, work)
    out = run_reference(ref_dir, tok_dir, ds_path, log_path, n)
    with open(os.path.join(HERE, "eval_expected.txt"), "w", encoding="utf-8") as f:
        f.write(out)
    # The same tokenizer converted after transformers PR #44914.
    cfg_path = os.path.join(tok_dir, "tokenizer_config.json")
    with open(cfg_path) as f:
        cfg = json.load(f)
    cfg["clean_up_tokenization_spaces"] = False
    with open(cfg_path, "w") as f:
        json.dump(cfg, f)
    out2 = run_reference(ref_dir, tok_dir, ds_path, log_path, n)
    with open(os.path.join(HERE, "eval_expected_noclean.txt"), "w", encoding="utf-8") as f:
        f.write(out2)
    print(out, out2, file=sys.stderr)


if __name__ == "__main__":
    main()
