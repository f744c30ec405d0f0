#!/usr/bin/env python3
"""Golden files for quality/mmlu, made by the reference code itself.

    python3 -m venv /tmp/venv-mmlu
    /tmp/venv-mmlu/bin/pip install lm_eval==0.4.13 pyarrow==26.0.1   # datasets 5.2.0, Jinja2 3.1.6
    /tmp/venv-mmlu/bin/python quality/mmlu/testdata/gen_golden.py [--hendrycks PATH/categories.py]

Writes, beside this script:
  mmlu/all/test-00000-of-00001.parquet, mmlu/all/dev-00000-of-00001.parquet
      a small data set in the layout of the Hugging Face data set cais/mmlu (columns question,
      subject, choices list<string>, answer int64), written by pyarrow: the test split with
      pyarrow's default (compliant) list naming, the dev split with the legacy one
      (use_compliant_nested_type=False), so the reader is proven on both. The rows are made up
      here, with the edge cases the prompt builder must keep: surrounding whitespace, newlines,
      unicode, Jinja-looking braces, empty choices.
  prompts.jsonl
      one line per test question and shot count (0, 1, 5): the prompt lm-evaluation-harness
      0.4.13 builds for its `mmlu_<subject>` task (tasks/mmlu/default: description, first_n
      few-shot examples from dev, doc_to_text), computed by lm_eval's own ConfigurableTask over
      the parquet files above, and the target letter.
  categories_lmeval.json
      lm_eval 0.4.13's subject -> category table (tasks/mmlu/_generate_configs.py SUBJECTS).
  pyspace.json
      every code point Python's str.isspace() holds for (what str.strip() removes), for the
      Go port of the template's question.strip().
  categories_hendrycks.json (only with --hendrycks)
      the subject -> category table of the original MMLU code (hendrycks/test categories.py,
      MIT licence, commit 4450500f923c49f1fb1dd3d99108a0bd9717b660): subcategories mapped
      through categories.
"""
import argparse
import importlib.util
import json
import os
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

import lm_eval
from lm_eval.api.task import ConfigurableTask
from lm_eval.tasks._yaml_loader import load_yaml

HERE = Path(__file__).resolve().parent
MMLU_TASKS = Path(lm_eval.__file__).parent / "tasks" / "mmlu"

SUBJECTS = ["abstract_algebra", "anatomy", "high_school_us_history", "sociology", "professional_law", "miscellaneous"]


def rows():
    """The made-up questions: (subject, question, choices, answer), test then dev."""
    test, dev = [], []
    tricky_q = [
        "  What is 2 + 2?  \n",
        "Which one is {{ not }} a template?",
        "Ünïcödé: which is the capital of 日本?\n\nThink twice.",
        "Choose the empty option.",
        "Is 100% of {x} a format string?",
        "A question ending in a colon:",
        "Tabs\tand\r\nCRLF lines",
        # str.strip() removes what str.isspace() calls space: more than Go's
        # unicode.IsSpace (the separators U+001C..U+001F), not U+200B.
        "\x1c\u3000\xa0Python strips these\u2029\x1f\x85",
        "\u200bzero width space is no space\u200b",
    ]
    tricky_c = [
        ["3", "4", "5", "22"],
        ["{{ choices[0] }}", "B", " leading space", "trailing space "],
        ["東京", "Ōsaka", "Kyoto 🏯", "Nara\nline two"],
        ["", "not empty", "  ", "D."],
        ["yes", "no", "maybe", "A. B. C."],
        ["first", "second", "third", "fourth"],
        ["a\tb", "c\r\nd", "e", "f"],
        ["<b>bold</b>", "&amp;", "\"quoted\"", "it's"],
        ["\x00nul", "x", "y", "z"],
    ]
    for si, subj in enumerate(SUBJECTS):
        n = 4 + si % 4  # 4..7 questions per subject
        for i in range(n):
            k = (si + i) % len(tricky_q)
            # Every other question keeps the bare text, whose surrounding
            # whitespace doc_to_text strips.
            q = tricky_q[k] if i % 2 == 0 else f"[{subj} #{i}] " + tricky_q[k]
            test.append((subj, q, tricky_c[k], (si * 3 + i) % 4))
        for i in range(5):
            dev.append((subj, f"Dev {i} of {subj.replace('_', ' ')}: pick {'ABCD'[i % 4]}.", [f"opt {j}" for j in range(4)], i % 4))
    return test, dev


def table(rs):
    return pa.table({
        "question": pa.array([r[1] for r in rs], pa.string()),
        "subject": pa.array([r[0] for r in rs], pa.string()),
        "choices": pa.array([r[2] for r in rs], pa.list_(pa.string())),
        "answer": pa.array([r[3] for r in rs], pa.int64()),
    })


def prompts(test_path, dev_path, tmp):
    out = []
    for subj in SUBJECTS:
        # cais/mmlu's per-subject configs hold one subject: filter as they do.
        files = {}
        for split, path in (("test", test_path), ("dev", dev_path)):
            t = pq.read_table(path)
            t = t.filter(pa.compute.equal(t["subject"], subj))
            files[split] = os.path.join(tmp, f"{subj}-{split}.parquet")
            pq.write_table(t, files[split])
        cfg = load_yaml(MMLU_TASKS / "default" / f"mmlu_{subj}.yaml")
        cfg.pop("tag", None)
        cfg.update(dataset_path="parquet", dataset_name=None, dataset_kwargs={"data_files": files})
        task = ConfigurableTask(config=cfg)
        for idx, doc in enumerate(task.test_docs()):
            for shots in (0, 1, 5):
                out.append({
                    "subject": subj, "subject_index": idx, "shots": shots,
                    "prompt": task.fewshot_context(doc, shots),
                    "target": "ABCD"[task.doc_to_target(doc)],
                })
    return out


def hendrycks_categories(path):
    spec = importlib.util.spec_from_file_location("categories", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = {}
    for subj, subcats in mod.subcategories.items():
        cats = [c for c, subs in mod.categories.items() if any(s in subs for s in subcats)]
        assert len(cats) == 1, (subj, cats)
        out[subj] = cats[0]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hendrycks", help="path to hendrycks/test's categories.py")
    args = ap.parse_args()
    test, dev = rows()
    d = HERE / "mmlu" / "all"
    d.mkdir(parents=True, exist_ok=True)
    test_path, dev_path = d / "test-00000-of-00001.parquet", d / "dev-00000-of-00001.parquet"
    pq.write_table(table(test), test_path)
    pq.write_table(table(dev), dev_path, use_compliant_nested_type=False)
    with tempfile.TemporaryDirectory() as tmp:
        ps = prompts(test_path, dev_path, tmp)
    with open(HERE / "prompts.jsonl", "w", encoding="utf-8") as f:
        for p in ps:
            f.write(json.dumps(p, ensure_ascii=False) + "\n")
    spec = importlib.util.spec_from_file_location("gen", MMLU_TASKS / "_generate_configs.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    with open(HERE / "categories_lmeval.json", "w") as f:
        json.dump(gen.SUBJECTS, f, indent=1, sort_keys=True)
        f.write("\n")
    with open(HERE / "pyspace.json", "w") as f:
        json.dump([c for c in range(0x110000) if chr(c).isspace()], f)
        f.write("\n")
    if args.hendrycks:
        with open(HERE / "categories_hendrycks.json", "w") as f:
            json.dump(hendrycks_categories(args.hendrycks), f, indent=1, sort_keys=True)
            f.write("\n")
    print(f"{len(test)} test and {len(dev)} dev rows, {len(ps)} prompts")


if __name__ == "__main__":
    main()
