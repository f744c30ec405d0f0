#!/usr/bin/env python3
"""Golden decode/encode cases for Meta's Llama 3 tokenizer, made by transformers itself.

The tokenizer is NOT committed (Meta's licence): scripts/fetch-test-tokenizers.sh extracts
llama_models/llama3/tokenizer.model from the PyPI wheel llama-models==0.3.0. This script turns it
into a tokenizer.json with transformers' own conversion (Llama3Converter from
convert_llama_weights_to_hf.py, the code that made the Hub's Llama 3.1 tokenizer.json, with
clean_up_tokenization_spaces=True as the round's config had), reloads it the way the reference
evaluator does (AutoTokenizer.from_pretrained(dir, use_fast=False), which gives the fast tokenizer),
and records:

  llama3_decode.jsonl.gz  ids -> decode(ids, skip_special_tokens=S, clean_up_tokenization_spaces=C)
                          for S, C in {0,1}^2, special tokens named as llama-models 0.3.0 names them
                          (the Go tiktoken reader's default); plus "hf31" (skip=0, clean=0) with the
                          names transformers' converter gives Llama 3.1 (<|reserved_special_token_2|>
                          at 128005 ...), what the Hub's tokenizer.json holds.
  llama3_encode.jsonl.gz  text -> encode(text, add_special_tokens=False).ids

It also checks, before writing, that the fast tokenizer agrees with tiktoken (llama-models'
Tokenizer) where they must agree, so a broken oracle cannot write goldens.

Exact versions (the reference llama3.1-8b requirements.txt pins transformers==4.46.2):
  python 3.11.7, transformers==4.46.2, tokenizers==0.20.3, tiktoken==0.14.0,
  llama-models==0.3.0 (wheel sha256 7f77f78ff13fca09f70d76a376aff6414cd901623fb9d57e69c2f8367a73032f)

Run:  python3 gen_llama3_golden.py /path/to/llama3/tokenizer.model [OUTDIR]   (from tokenizer/testdata)
With OUTDIR, the converted tokenizer.json and tokenizer_config.json are also written there, for the
Go test that reads them (MLPERF_GO_LLAMA3_TOKENIZER_JSON=OUTDIR/tokenizer.json); never commit them.
"""
import base64
import gzip
import io
import json
import random
import shutil
import sys
import tempfile
import types

import tiktoken
import tokenizers
import transformers
import transformers.convert_slow_tokenizer  # noqa: F401  (import before the torch stub below)

# convert_llama_weights_to_hf imports torch at module level for the weight conversion; the
# tokenizer conversion never touches it, so a stub module stands in (no 800 MB wheel needed).
sys.modules.setdefault("torch", types.ModuleType("torch"))
from transformers import AutoTokenizer  # noqa: E402
from transformers.models.llama.convert_llama_weights_to_hf import (  # noqa: E402
    DEFAULT_LLAMA_SPECIAL_TOKENS,
    Llama3Converter,
)

from corpus import corpus_texts, mutate_ids  # noqa: E402

assert transformers.__version__ == "4.46.2", transformers.__version__
assert tokenizers.__version__ == "0.20.3", tokenizers.__version__

PAT = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"  # noqa: E501

# llama_models/llama3/tokenizer.py (llama-models 0.3.0): 12 named tokens, then reserved ones.
LLAMA_MODELS_SPECIALS = [
    "<|begin_of_text|>",
    "<|end_of_text|>",
    "<|reserved_special_token_0|>",
    "<|reserved_special_token_1|>",
    "<|finetune_right_pad_id|>",
    "<|step_id|>",
    "<|start_header_id|>",
    "<|end_header_id|>",
    "<|eom_id|>",
    "<|eot_id|>",
    "<|python_tag|>",
    "<|image|>",
]
LLAMA_MODELS_SPECIALS += [f"<|reserved_special_token_{2 + i}|>" for i in range(256 - len(LLAMA_MODELS_SPECIALS))]


def gzip_writer(name):
    """A deterministic gzip text writer (no timestamp in the header)."""
    raw = open(name, "wb")
    return io.TextIOWrapper(gzip.GzipFile(filename="", fileobj=raw, mode="wb", compresslevel=9, mtime=0), encoding="utf-8")


def load_ranks(path):
    ranks = {}
    with open(path, encoding="utf-8") as f:
        for line in f.read().splitlines():
            if line.strip():
                tok, rank = line.split()
                ranks[base64.b64decode(tok)] = int(rank)
    return ranks


def converted(model_path, specials, out_dir):
    conv = Llama3Converter(model_path, specials, False, "3.1")
    conv.converted_tokenizer.save_pretrained(out_dir)
    # As the reference evaluator loads it: Llama 3 has no slow class, so this is the fast one.
    tok = AutoTokenizer.from_pretrained(out_dir, use_fast=False)
    assert tok.is_fast and tok.clean_up_tokenization_spaces is True
    return tok


def id_sequences(rng, tok, ranks, n_random):
    """Real text encoded (whole and cut anywhere), random ids weighted to the hard cases."""
    specials = list(range(128000, 128256))
    single = sorted(r for b, r in ranks.items() if len(b) == 1)
    high = sorted(r for b, r in ranks.items() if len(b) == 1 and b[0] >= 0x80)
    seqs = []
    for text in corpus_texts(rng):
        ids = tok.encode(text, add_special_tokens=False)
        seqs.append(ids)
        seqs.append(mutate_ids(rng, ids, specials, high))
    for _ in range(n_random):
        n = rng.choice([0, 1, 2, 3, 5, 8, 20, 60, 200])
        seq = []
        for _ in range(n):
            r = rng.random()
            if r < 0.15:
                seq.append(rng.choice(specials))
            elif r < 0.45:
                seq.append(rng.choice(high))
            elif r < 0.55:
                seq.append(rng.choice(single))
            else:
                seq.append(rng.randrange(128000))
        seqs.append(seq)
    return seqs


def main():
    model_path = sys.argv[1]
    rng = random.Random(20260301)
    ranks = load_ranks(model_path)
    tt = tiktoken.Encoding(
        name="llama3",
        pat_str=PAT,
        mergeable_ranks=ranks,
        special_tokens={t: 128000 + i for i, t in enumerate(LLAMA_MODELS_SPECIALS)},
    )
    with tempfile.TemporaryDirectory() as d1, tempfile.TemporaryDirectory() as d2:
        tok = converted(model_path, LLAMA_MODELS_SPECIALS, d1)
        tok31 = converted(model_path, DEFAULT_LLAMA_SPECIAL_TOKENS["3.1"], d2)
        if len(sys.argv) > 2:
            shutil.copytree(d1, sys.argv[2], dirs_exist_ok=True)
        seqs = id_sequences(rng, tok, ranks, 3000)
        n = 0
        with gzip_writer("llama3_decode.jsonl.gz") as out:
            for ids in seqs:
                case = {"ids": ids}
                for s in (0, 1):
                    for c in (0, 1):
                        case[f"s{s}c{c}"] = tok.decode(ids, skip_special_tokens=bool(s), clean_up_tokenization_spaces=bool(c))
                # tiktoken's own decode is the fast tokenizer's without clean-up: prove the oracle.
                assert case["s0c0"] == tt.decode(ids), ids
                case["hf31"] = tok31.decode(ids, skip_special_tokens=False, clean_up_tokenization_spaces=False)
                out.write(json.dumps(case, ensure_ascii=False) + "\n")
                n += 1
        print(f"llama3_decode.jsonl.gz: {n} cases")
        n = 0
        with gzip_writer("llama3_encode.jsonl.gz") as out:
            for text in corpus_texts(random.Random(7)):
                ids = tok.encode(text, add_special_tokens=False)
                if not any(t in text for t in LLAMA_MODELS_SPECIALS):
                    assert ids == tt.encode(text, disallowed_special=()), text
                out.write(json.dumps({"text": text, "ids": ids}, ensure_ascii=False) + "\n")
                n += 1
        print(f"llama3_encode.jsonl.gz: {n} cases")


if __name__ == "__main__":
    main()
