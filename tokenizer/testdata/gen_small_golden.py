#!/usr/bin/env python3
"""Small tokenizers of our own, in the shapes of the real ones, and transformers' goldens for them.

These tokenizers are trained here on corpus.py's text, so they may be committed (they are this
project's output) and the Go tests run on them offline, with no third-party tokenizer:

  bytelevel/   byte-level BPE configured as Llama 3's tokenizer.json is: Split by Llama 3's regex
               (isolated) + ByteLevel(use_regex=false), ByteLevel decoder, ignore_merges, special
               added tokens after the vocabulary, a non-special added token, a non-ASCII special
               token (DeepSeek-style), and a special token that only tokenizer_config.json names
               (transformers adds it at load). clean_up_tokenization_spaces=true.
  spm-legacy/  a sentencepiece BPE model with byte_fallback trained with Llama 2's trainer options,
               converted by transformers' LlamaConverter with legacy=True - the shape of the Hub's
               Llama 2 tokenizer.json (Prepend+Replace normalizer, Replace/ByteFallback/Fuse/Strip
               decoder). clean_up_tokenization_spaces=false, as Llama 2's config.
  spm/         the same model converted with legacy=False (Metaspace pre-tokenizer, prepend "first").
  metaspace/   the same vocabulary with a Metaspace decoder after ByteFallback and a splitting
               Metaspace pre-tokenizer, the SpmConverter default shape.

For each: <name>_decode.jsonl.gz (ids -> fast decode, skip_special_tokens and clean-up off/on; for
the spm ones also "slow"/"slow0": the sentencepiece LlamaTokenizer, which the llama2-70b reference
uses via use_fast=False, with skip_special_tokens on/off), <name>_encode.jsonl.gz (text -> encode(text, add_special_tokens=False).ids), and
quirks.json (the UTF-8 replacement and clean-up quirks, readable).

Exact versions (llama3.1-8b's reference requirements.txt pins transformers==4.46.2 and
sentencepiece==0.2.0):
  python 3.11.7, transformers==4.46.2, tokenizers==0.20.3, sentencepiece==0.2.0, protobuf==7.36.2

Run from tokenizer/testdata:  python3 gen_small_golden.py
"""
import gzip
import io
import json
import os
import random
import shutil
import tempfile

import sentencepiece as spm
import tokenizers
import transformers
from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import AutoTokenizer, LlamaTokenizer, LlamaTokenizerFast, PreTrainedTokenizerFast

from corpus import corpus_texts, mutate_ids

assert transformers.__version__ == "4.46.2", transformers.__version__
assert tokenizers.__version__ == "0.20.3", tokenizers.__version__
assert spm.__version__ == "0.2.0", spm.__version__

PAT = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"  # noqa: E501
HERE = os.path.dirname(os.path.abspath(__file__))


def gzip_writer(name):
    raw = open(os.path.join(HERE, name), "wb")
    return io.TextIOWrapper(gzip.GzipFile(filename="", fileobj=raw, mode="wb", compresslevel=9, mtime=0), encoding="utf-8")


def training_text():
    rng = random.Random(11)
    texts = corpus_texts(rng, n_random=4000)
    english = (
        "The quick brown fox jumps over the lazy dog. It's a test of the tokenizer, isn't it? "
        "Officials said on Tuesday that the company's profits had risen by 12 percent. "
        "\"We don't know yet,\" she said. They'll be here soon; we've waited long enough!\n"
    )
    return texts + [english] * 50


def train_bytelevel(out_dir):
    tok = Tokenizer(models.BPE(ignore_merges=True))
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(PAT), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=2500, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(training_text(), trainer)
    tok.add_special_tokens(["<|begin_of_text|>", "<|end_of_text|>", "<|eot_id|>", "<\uff5cend\u2581of\u2581sentence\uff5c>"])
    tok.add_tokens(["<think>", "</think>"])
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token="<|begin_of_text|>",
        eos_token="<|eot_id|>",
        additional_special_tokens=["<|config_only|>"],
        clean_up_tokenization_spaces=True,
    )
    fast.save_pretrained(out_dir)
    # <|config_only|> stays in tokenizer_config.json only: transformers adds it again at load.
    path = os.path.join(out_dir, "tokenizer.json")
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    data["added_tokens"] = [a for a in data["added_tokens"] if a["content"] != "<|config_only|>"]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)


def train_spm(work):
    lines = []
    for t in training_text():
        lines += [ln for ln in t.split("\n") if ln.strip()]
    path = os.path.join(work, "train.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    # Llama 2's trainer options (its tokenizer.model's trainer_spec), smaller vocabulary.
    spm.SentencePieceTrainer.train(
        input=path, model_prefix=os.path.join(work, "sp"), vocab_size=1200, model_type="bpe",
        byte_fallback=True, split_digits=True, allow_whitespace_only_pieces=True,
        remove_extra_whitespaces=False, normalization_rule_name="identity", add_dummy_prefix=True,
        character_coverage=0.9995, unk_id=0, bos_id=1, eos_id=2, pad_id=-1, num_threads=1,
        max_sentence_length=100000, minloglevel=2,
    )
    return os.path.join(work, "sp.model")


def convert_spm(model, out_dir, legacy):
    slow = LlamaTokenizer(vocab_file=model, legacy=legacy, clean_up_tokenization_spaces=False)
    slow.save_pretrained(out_dir)
    fast = LlamaTokenizerFast.from_pretrained(out_dir, from_slow=True, legacy=legacy)
    fast.save_pretrained(out_dir)
    os.remove(os.path.join(out_dir, "tokenizer.model"))  # the Go reader uses tokenizer.json
    # The Hub's Llama 2 config has no add_prefix_space; with it, LlamaTokenizerFast would rebuild
    # itself from the (removed) sentencepiece model instead of reading tokenizer.json.
    path = os.path.join(out_dir, "tokenizer_config.json")
    with open(path, encoding="utf-8") as f:
        cfg = json.load(f)
    del cfg["add_prefix_space"]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(cfg, f, ensure_ascii=False, indent=2)


def make_metaspace(spm_dir, out_dir):
    shutil.copytree(spm_dir, out_dir, dirs_exist_ok=True)
    path = os.path.join(out_dir, "tokenizer.json")
    tok = Tokenizer.from_file(path)
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="first", split=True)
    tok.normalizer = None
    tok.decoder = decoders.Sequence([decoders.ByteFallback(), decoders.Metaspace(replacement="\u2581", prepend_scheme="first")])
    tok.save(path)


def id_sequences(rng, tok, n_random):
    vocab = tok.backend_tokenizer.get_vocab_size(with_added_tokens=True)
    specials = sorted(tok.all_special_ids) + sorted(i for i, a in tok.added_tokens_decoder.items() if not a.special)
    inv = {v: k for k, v in tok.get_vocab().items()}
    # sorted: get_vocab() comes from a Rust HashMap, whose order changes from run to run.
    single = sorted(i for i, s in inv.items() if len(s) == 1 or (len(s) == 6 and s.startswith("<0x")))
    high = sorted(i for i, s in inv.items() if (len(s) == 1 and ord(s) >= 0xA1) or (s.startswith("<0x") and len(s) == 6 and s[3] in "89ABCDEF"))
    seqs = []
    for text in corpus_texts(rng, n_random=600):
        ids = tok.encode(text, add_special_tokens=False)
        seqs.append(ids)
        seqs.append(mutate_ids(rng, ids, specials, high))
    for _ in range(n_random):
        seq = []
        for _ in range(rng.choice([0, 1, 2, 3, 5, 10, 40, 120])):
            r = rng.random()
            if r < 0.15:
                seq.append(rng.choice(specials))
            elif r < 0.45:
                seq.append(rng.choice(high))
            elif r < 0.55:
                seq.append(rng.choice(single))
            elif r < 0.57:
                seq.append(vocab + rng.randrange(3))  # unknown ids: tokenizers drops them
            else:
                seq.append(rng.randrange(vocab))
        seqs.append(seq)
    return seqs


def write_goldens(name, tok_dir, slow_dir=None):
    rng = random.Random(name)
    tok = AutoTokenizer.from_pretrained(tok_dir, use_fast=True)
    assert tok.is_fast
    slow = LlamaTokenizer.from_pretrained(slow_dir) if slow_dir else None
    n_vocab = len(tok)
    n = 0
    with gzip_writer(f"{name}_decode.jsonl.gz") as out:
        for ids in id_sequences(rng, tok, 1500):
            case = {"ids": ids}
            for s in (0, 1):
                for c in (0, 1):
                    case[f"s{s}c{c}"] = tok.decode(ids, skip_special_tokens=bool(s), clean_up_tokenization_spaces=bool(c))
            if slow is not None and all(i < n_vocab for i in ids):
                case["slow"] = slow.decode(ids, skip_special_tokens=True)
                case["slow0"] = slow.decode(ids, skip_special_tokens=False)
            out.write(json.dumps(case, ensure_ascii=False) + "\n")
            n += 1
    m = 0
    with gzip_writer(f"{name}_encode.jsonl.gz") as out:
        for text in corpus_texts(random.Random(name + "enc"), n_random=800):
            out.write(json.dumps({"text": text, "ids": tok.encode(text, add_special_tokens=False)}, ensure_ascii=False) + "\n")
            m += 1
    print(f"{name}: {n} decode cases, {m} encode cases, vocabulary {n_vocab}")


# Byte sequences whose UTF-8 is broken in the ways that tell decoders apart: truncated sequences
# (one U+FFFD for the whole maximal subpart in Rust and Python, one per byte in Go's utf8),
# surrogates, overlongs, out-of-range lead bytes, lone continuation bytes.
UTF8_CASES = [
    "e282", "e28241", "e282ff", "e282e282ac", "f09f98", "f09f9841", "f09f", "f0", "c3", "c341",
    "eda080", "edbfbf", "c0af", "c1bf", "e08080", "e09f80", "f08080", "f48f8080", "f4908080",
    "f5", "ff", "fe", "80", "8080bf", "41c3a9", "c3a9", "e282ac", "f09f9880", "41e2", "e241e2",
    "c3c3a9", "e2e282ac", "f09f98f09f9880", "bfe282ac80",
]

CLEANUP_TEXTS = [
    "a . b ? c ! d , e ' f n't g 'm h 's i 've j 're k",
    " ' ' ' 's", "x . . . y", "don 't", "do n't", "I 'm", " .", ". .", "a  . b", "'s 's 's",
]


def quirks(bl_dir, spm_dir):
    bl = AutoTokenizer.from_pretrained(bl_dir, use_fast=True)
    sp = AutoTokenizer.from_pretrained(spm_dir, use_fast=True)
    bl_byte = {b: bl.convert_tokens_to_ids(bytes_to_char(b)) for b in range(256)}
    sp_byte = {b: sp.convert_tokens_to_ids(f"<0x{b:02X}>") for b in range(256)}
    out = {"utf8_bytelevel": [], "utf8_bytefallback": [], "cleanup": []}
    for h in UTF8_CASES:
        raw = bytes.fromhex(h)
        ids = [bl_byte[b] for b in raw]
        got = bl.decode(ids, clean_up_tokenization_spaces=False)
        assert got == raw.decode("utf-8", errors="replace"), h  # Rust's lossy == Python's replace
        out["utf8_bytelevel"].append({"hex": h, "ids": ids, "text": got})
        ids = [sp_byte[b] for b in raw]
        out["utf8_bytefallback"].append({"hex": h, "ids": ids, "text": sp.decode(ids, clean_up_tokenization_spaces=False)})
    for text in CLEANUP_TEXTS:
        ids = bl.encode(text, add_special_tokens=False)
        out["cleanup"].append({"ids": ids, "off": bl.decode(ids, clean_up_tokenization_spaces=False),
                               "on": bl.decode(ids, clean_up_tokenization_spaces=True)})
    with open(os.path.join(HERE, "quirks.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
        f.write("\n")


def bytes_to_char(b):
    from transformers.convert_slow_tokenizer import bytes_to_unicode
    return bytes_to_unicode()[b]


def main():
    with tempfile.TemporaryDirectory() as work:
        for d in ("bytelevel", "spm-legacy", "spm", "metaspace"):
            shutil.rmtree(os.path.join(HERE, d), ignore_errors=True)
        train_bytelevel(os.path.join(HERE, "bytelevel"))
        model = train_spm(work)
        slow_legacy, slow = os.path.join(work, "slow-legacy"), os.path.join(work, "slow")
        for legacy, d, sd in ((True, "spm-legacy", slow_legacy), (False, "spm", slow)):
            convert_spm(model, os.path.join(HERE, d), legacy)
            LlamaTokenizer(vocab_file=model, legacy=legacy, clean_up_tokenization_spaces=False).save_pretrained(sd)
        make_metaspace(os.path.join(HERE, "spm"), os.path.join(HERE, "metaspace"))
        write_goldens("bytelevel", os.path.join(HERE, "bytelevel"))
        write_goldens("spm-legacy", os.path.join(HERE, "spm-legacy"), slow_legacy)
        write_goldens("spm", os.path.join(HERE, "spm"), slow)
        write_goldens("metaspace", os.path.join(HERE, "metaspace"))
        quirks(os.path.join(HERE, "bytelevel"), os.path.join(HERE, "spm-legacy"))


if __name__ == "__main__":
    main()
