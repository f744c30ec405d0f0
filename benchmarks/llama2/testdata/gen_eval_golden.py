#!/usr/bin/env python3
"""End-to-end golden of the llama2-70b accuracy evaluation, made by running the
reference script itself: mlcommons/inference language/llama2-70b/evaluate-accuracy.py,
read from a checkout at generation time and never committed.

It writes, into this folder:
  eval_orca.json.gz       the dataset as mlperf-go reads it: a pickled DataFrame with
                          processorca.py's columns (what the reference is given),
                          converted by the exact command the dataset reader prints,
                          pd.read_pickle(...).to_json(..., orient='records')
  eval_accuracy.json.gz   an mlperf_log_accuracy.json (int32, LoadGen's layout) whose
                          answers are score/testdata's corpus encoded with the spm-legacy
                          test tokenizer: some cut mid-character, some with <s> or with
                          repeated </s>, byte-fallback tokens, duplicated entries (the
                          script keeps the first of each qsl_idx) and an empty answer
  eval_expected.txt       what evaluate-accuracy.py prints (--dtype int32): accuracy.txt

Pinned environment (CPython 3.11.7; numpy 1, so the printed dict has plain numbers):
  python3 -m venv /tmp/venv-r1llama2
  /tmp/venv-r1llama2/bin/pip install numpy==1.26.4 pandas==2.2.3 transformers==4.46.2 \
      tokenizers==0.20.3 sentencepiece==0.2.0 protobuf==7.36.2 nltk==3.9.4 rouge_score==0.1.2 absl-py==2.1.0
Run (from the repository root):
  /tmp/venv-r1llama2/bin/python benchmarks/llama2/testdata/gen_eval_golden.py /work/.mirror/mlcommons+inference/repo

Stand-ins, each where the reference reaches the network or a licensed file:
  - the tokenizer is not Llama 2's (Meta's licence, no Hugging Face access here) but
    tokenizer/testdata's spm-legacy: a sentencepiece BPE model with byte fallback trained
    with Llama 2's trainer options, retrained here by tokenizer/testdata/gen_small_golden.py's
    own train_spm (checked to give the committed spm-legacy tokenizer.json) and saved as a
    slow LlamaTokenizer checkpoint, which the script loads with
    AutoTokenizer.from_pretrained(path, use_fast=False) exactly as it loads Llama 2's;
  - evaluate is a stub module whose load("rouge").compute() is evaluate's rouge _compute
    loop over rouge_score (use_aggregator=False), as score/testdata/gen_golden.py inlines it;
  - nltk.download is a no-op, with punkt_tab English loaded from score/punkt/data.
Everything else - the log reading, de-duplication, int32 parsing, gen_tok_len, batch_decode,
postprocess_text, the chunked multiprocessing ROUGE, np.mean/round and the printed dict -
is the reference's own code.
"""
import contextlib
import gzip
import importlib.util
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

_spec = importlib.util.spec_from_file_location("score_corpus", os.path.join(ROOT, "score", "testdata", "corpus.py"))
corpus = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(corpus)
import gen_small_golden  # noqa: E402  tokenizer/testdata: the spm-legacy training
import nltk  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from transformers import LlamaTokenizer, LlamaTokenizerFast  # noqa: E402

assert nltk.__version__ == "3.9.4" and np.__version__ == "1.26.4" and pd.__version__ == "2.2.3"
nltk.download = lambda *a, **k: True  # punkt_tab is in NLTK_DATA already

SEED = 20261127
N = 2100


def stub_evaluate():
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


def tokenizer_checkpoint(work):
    """The spm-legacy model retrained, proven equal to the committed one, as a slow checkpoint."""
    model = gen_small_golden.train_spm(work)
    fast_dir, ckpt = os.path.join(work, "fast"), os.path.join(work, "checkpoint")
    gen_small_golden.convert_spm(model, fast_dir, True)
    got = json.load(open(os.path.join(fast_dir, "tokenizer.json"), encoding="utf-8"))["model"]
    want = json.load(open(os.path.join(ROOT, "tokenizer", "testdata", "spm-legacy", "tokenizer.json"), encoding="utf-8"))["model"]
    assert got == want, "retrained sentencepiece model differs from tokenizer/testdata/spm-legacy"
    LlamaTokenizer(vocab_file=model, legacy=True, clean_up_tokenization_spaces=False).save_pretrained(ckpt)
    return ckpt, LlamaTokenizerFast.from_pretrained(os.path.join(ROOT, "tokenizer", "testdata", "spm-legacy"))


def answers(tok, rng):
    """Token IDs of corpus predictions, with the shapes a real log has."""
    rows = corpus.pairs(SEED, N, long_every=500)
    bos, eos = tok.bos_token_id, tok.eos_token_id
    byte = lambda b: tok.convert_tokens_to_ids(f"<0x{b:02X}>")  # noqa: E731
    # Byte-fallback runs mixing valid and invalid UTF-8: sentencepiece (the slow decode)
    # replaces only the invalid bytes, ByteFallback (the fast one) the whole run.
    runs = [[byte(b) for b in r] for r in ([0xE2, 0xC3, 0xA9], [0xF0, 0xC3, 0xA9, 0x41], [0xC3, 0xA9, 0x82],
                                             [0xE2, 0x82], [0xE2, 0x82, 0xAC, 0xAC], [0xC3, 0xA9])]
    out = []
    for i, (pred, target, _) in enumerate(rows):
        ids = tok.encode(pred, add_special_tokens=False)
        r = rng.random()
        if r < 0.15:
            ids = ids[: rng.randrange(len(ids) + 1)]  # cut (may split a character)
        elif r < 0.30:
            ids = ids + [eos] * rng.randrange(1, 3)
        elif r < 0.35:
            ids = [bos] + ids
        elif r < 0.40:
            k = rng.randrange(len(ids) + 1)
            ids = ids[:k] + rng.choice(runs) + ids[k:]  # a broken byte-fallback run
        if i % 997 == 0:
            ids = []
        out.append((ids, target))
    return out


def write_inputs(tok, rng, work):
    pairs = answers(tok, rng)
    origins = ["cot", "flan", "niv", "t0"]
    rows = []
    for i, (_, target) in enumerate(pairs):
        q = f"Question {i}?"
        inp = f"<s>[INST] {q} [/INST]"
        tok_input = tok(inp)["input_ids"] + [29871]
        tok_output = tok(target)["input_ids"]
        rows.append({"id": f"{origins[i % 4]}.{i}", "system_prompt": "", "question": q, "output": target,
                     "input": inp, "tok_input": tok_input, "tok_output": tok_output, "origin": origins[i % 4],
                     "tok_input_length": len(tok_input), "tok_output_length": len(tok_output)})
    pkl = os.path.join(work, "open_orca_gpt4_tokenized_llama.sampled_test.pkl")
    pd.DataFrame(rows).to_pickle(pkl)
    converted = os.path.join(work, "converted.json")
    pd.read_pickle(pkl).to_json(converted, orient='records')  # the reader's PickleFix, verbatim
    log = []
    order = list(range(len(pairs)))
    rng.shuffle(order)
    for seq, q in enumerate(order):
        ids = pairs[q][0]
        log.append({"seq_id": seq, "qsl_idx": q, "data": np.array(ids, np.int32).tobytes().hex().upper(), "token_count": len(ids)})
        if seq % 400 == 7:  # a duplicate answer: the first one counts
            dup = np.array(ids[:1] or [13], np.int32).tobytes().hex().upper()
            log.append({"seq_id": seq + 100000, "qsl_idx": q, "data": dup, "token_count": 1})
    log_path = os.path.join(work, "mlperf_log_accuracy.json")
    with open(log_path, "w") as f:  # LoadGen's layout
        f.write("[\n" + ",\n".join(json.dumps(e) for e in log) + "\n]\n")
    for src, name in ((converted, "eval_orca.json.gz"), (log_path, "eval_accuracy.json.gz")):
        with open(src, "rb") as fi, gzip.GzipFile(os.path.join(HERE, name), "wb", mtime=0) as fo:
            shutil.copyfileobj(fi, fo)
    return pkl, log_path


def run_reference(ref_dir, ckpt, pkl, log_path):
    """evaluate-accuracy.py's main(), as its README runs it (--dtype int32)."""
    spec = importlib.util.spec_from_file_location("evaluate_accuracy", os.path.join(ref_dir, "evaluate-accuracy.py"))
    mod = importlib.util.module_from_spec(spec)
    sys.modules["evaluate_accuracy"] = mod  # Pool pickles compute_rouge_chunk by its module
    spec.loader.exec_module(mod)
    sys.argv = ["evaluate-accuracy.py", "--checkpoint-path", ckpt, "--mlperf-accuracy-file", log_path,
                "--dataset-file", pkl, "--dtype", "int32"]
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        mod.main()
    return buf.getvalue()


def main():
    inference = sys.argv[1]
    stub_evaluate()
    rng = random.Random(SEED)
    work = tempfile.mkdtemp(prefix="llama2_eval_")
    ref_dir = os.path.join(work, "reference")
    os.makedirs(ref_dir)
    src = subprocess.run(["git", "-C", inference, "show", "HEAD:language/llama2-70b/evaluate-accuracy.py"],
                         check=True, capture_output=True).stdout
    with open(os.path.join(ref_dir, "evaluate-accuracy.py"), "wb") as f:
        f.write(src)
    ckpt, tok = tokenizer_checkpoint(work)
    pkl, log_path = write_inputs(tok, rng, work)
    out = run_reference(ref_dir, ckpt, pkl, log_path)
    with open(os.path.join(HERE, "eval_expected.txt"), "w", encoding="utf-8") as f:
        f.write(out)
    print(out, file=sys.stderr)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
