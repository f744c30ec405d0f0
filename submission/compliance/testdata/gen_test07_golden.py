#!/usr/bin/env python3
"""Golden files for TEST07's verdict: the official compliance/TEST07/run_verification.py
run on accuracy-script outputs, each case's verify_accuracy.txt kept as the reference wrote it.

Python 3.11.7, standard library only (run_verification.py imports nothing else).
Reference: mlcommons/inference at b66003e10e2db4b8c36a448b0545ec90fcc6e9e9,
compliance/TEST07/run_verification.py (Apache-2.0; not committed: pass its path).

    python3 gen_test07_golden.py --script /path/to/inference/compliance/TEST07/run_verification.py

Writes test07/<case>.output (what the accuracy script printed: the script given to
run_verification.py is `cat` of it) and test07/<case>.verify_accuracy.txt, with the
threshold from the gpt-oss-120b audit.config mlperf-go embeds (a byte-identical copy).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
AUDIT = os.path.join(HERE, "..", "..", "..", "benchmarks", "gptoss120b", "TEST07.audit.config")

EQ = "=" * 80
DASH = "-" * 80
# The print block eval_mlperf_accuracy.py ends with (what mlperf-go's scorer writes).
SCORER = (
    "\n" + EQ + "\nMLPerf Accuracy Evaluation Results\n" + EQ + "\n"
    "Total samples evaluated: 990\nOverall raw accuracy: 62.12% (615/990)\n" + EQ + "\n\n"
    "Per-Dataset Breakdown:\n" + DASH + "\n"
    "Dataset                    Correct    Total  Repeats      Score   Accuracy\n" + DASH + "\n"
    "gpqa                          615      990        1     615.00     62.12%\n" + EQ + "\n\n"
    "Final Score Calculation:\n" + DASH + "\nFormula: gpqa/1\nScore:   = 615/1\n         = 615.00\n         = 615.00\n"
    "Max:     = 990/1\n         = 990.00\n\nFINAL SCORE: 62.12% (615.00/990.00)\n" + EQ + "\n\n\n"
    "Printing for submission_checker:\n\n'exact_match': {score}\n"
)

CASES = {
    "scorer_pass": SCORER.format(score="62.121"),
    "scorer_fail": SCORER.format(score="0.000"),
    "at_threshold": "'exact_match': 60.698\n",
    "just_below": "'exact_match': 60.697999\n",
    "crlf": "loading\r\n'exact_match':59.5\r\n",
    "lone_cr": "progress 1\rprogress 2\r'exact_match': 99.0\n",
    "no_score": "Traceback (most recent call last):\n  File \"eval.py\", line 1\nKeyError: 'gpqa'\n",
    "empty": "",
    "no_final_newline": "'exact_match': 61",
    "first_score_wins": "'exact_match': 10.0\n'exact_match': 90.0\n",
    "not_a_float": "'exact_match': 1.2.3\n",
    "lone_dot": "'exact_match': .\n",
    "leading_dot": "'exact_match': .5\n",
    "trailing_dot": "'exact_match': 70.\n",
    "score_on_next_line": "'exact_match':\n\t 80.25\n",
    "long_digits": "'exact_match': 60.69800000000000000000000001\n",
    "huge": "'exact_match': " + "9" * 400 + "\n",
    "double_quotes_ignored": "\"exact_match\": 99.0\n",
    "utf8": "résumé ✓ — 'exact_match': 61.5\n",
}


def run(script, name, output):
    with tempfile.TemporaryDirectory() as tmp:
        comp = os.path.join(tmp, "comp")
        os.makedirs(comp)
        with open(os.path.join(comp, "mlperf_log_accuracy.json"), "w") as f:
            f.write("[\n]\n")
        out_path = os.path.join(tmp, "script_output")
        with open(out_path, "wb") as f:
            f.write(output.encode("utf-8"))
        res = subprocess.run(
            [sys.executable, script, "-c", comp, "-o", os.path.join(tmp, "out"),
             "--accuracy-script", "cat " + out_path, "--audit-config", AUDIT],
            cwd=tmp, capture_output=True, text=True)
        if res.returncode != 0:
            sys.exit(f"{name}: run_verification.py failed:\n{res.stdout}\n{res.stderr}")
        shutil.copyfile(os.path.join(tmp, "out", "TEST07", "verify_accuracy.txt"),
                        os.path.join(HERE, "test07", name + ".verify_accuracy.txt"))
    with open(os.path.join(HERE, "test07", name + ".output"), "wb") as f:
        f.write(output.encode("utf-8"))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--script", required=True, help="compliance/TEST07/run_verification.py")
    args = p.parse_args()
    os.makedirs(os.path.join(HERE, "test07"), exist_ok=True)
    for name, output in CASES.items():
        run(args.script, name, output)
    print(f"wrote {len(CASES)} cases to {os.path.join(HERE, 'test07')}")


if __name__ == "__main__":
    main()
