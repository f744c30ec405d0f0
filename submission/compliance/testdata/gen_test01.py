#!/usr/bin/env python3
"""Writes testdata/test01/<case>/: a scenario folder (accuracy/,
performance/run_1/, TEST01/ as mlperf-go files them) and what the official
TEST01 scripts print for it, expected_verify_{accuracy,performance}.txt.

The scripts are compliance/TEST01/verify_accuracy.py and
verify_performance.py of mlcommons/inference at b66003e1 (with
tools/submission/log_parser.py), run unchanged from a checkout that is not
committed, as run_verification.py runs them (stdout and stderr together):

    git -C /work/.mirror/mlcommons+inference/repo archive b66003e1 compliance/TEST01 tools/submission | tar x -C /tmp/inf
    /tmp/venv-whisper/bin/python submission/compliance/testdata/gen_test01.py /tmp/inf \
        submission/compliance/testdata/test01

Python 3.11.7, numpy 2.2.6. Responses are int64 (whisper's labels,
--dtype int64).
"""
import json
import os
import shutil
import struct
import subprocess
import sys

inf, out = sys.argv[1], sys.argv[2]


def line(key, value, is_error=False):
    return (':::MLLOG {"key": %s, "value": %s, "time_ms": 0.012345, "namespace": "mlperf::logging", '
            '"event_type": "POINT_IN_TIME", "metadata": {"is_error": %s, "is_warning": false, '
            '"file": "test_settings_internal.cc", "line_no": 428, "pid": 100, "tid": 100}}\n'
            % (json.dumps(key), json.dumps(value), "true" if is_error else "false"))


def detail(path, scenario, score, valid=True, error=False):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    field = {"Offline": "result_samples_per_second", "Server": "result_completed_samples_per_sec",
             "SingleStream": "early_stopping_latency_ss"}[scenario]
    with open(path, "w") as f:
        f.write(line("loadgen_version", "6.0.17 @ 8e1fa4b9d1"))
        f.write(line("effective_scenario", scenario))
        f.write(line(field, score))
        f.write(line("effective_target_latency_ns", 1000))
        f.write(line("result_validity", "VALID" if valid else "INVALID"))
        if error:
            f.write(line("error_runtime", "boom", is_error=True))


def acclog(path, entries):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    rows = []
    for seq, (idx, labels) in enumerate(entries):
        data = b"".join(struct.pack("<q", v) for v in labels).hex().upper()
        rows.append('{ "seq_id" : %d, "qsl_idx" : %d, "data" : "%s", "token_count" : %d }' % (seq, idx, data, len(labels)))
    with open(path, "w") as f:
        f.write("[\n" + ",\n".join(rows) + "\n]\n")


ACC = [(0, [8, 5, 0, 8]), (1, [20, 8, 5]), (2, []), (3, [1, 2]), (3, [1, 3])]
CASES = {
    "pass": (ACC, [(1, [20, 8, 5]), (0, [8, 9, 9]), (1, [20])], ("Offline", 100.0), ("Offline", 95.5)),
    "first-label-differs": (ACC, [(0, [9, 5]), (1, [20, 8, 5])], ("Offline", 100.0), ("Offline", 100.0)),
    "empty-vs-not": (ACC, [(2, [5]), (1, [20])], ("Offline", 10.0), ("Offline", 10.0)),
    "both-empty-and-missing": (ACC, [(2, []), (7, [1]), (7, [2])], ("Offline", 10.0), ("Offline", 10.0)),
    "no-match": (ACC, [(8, [1])], ("Offline", 10.0), ("Offline", 10.0)),
    "slow": (ACC, [(0, [8])], ("Offline", 100.0), ("Offline", 89.9)),
    "fast": (ACC, [(0, [8])], ("Offline", 100.0), ("Offline", 110.00000000000001)),
    "scenarios-differ": (ACC, [(0, [8])], ("Offline", 100.0), ("Server", 100.0)),
    "singlestream-20pct": (ACC, [(0, [8])], ("SingleStream", 150000), ("SingleStream", 179000)),
    "duplicate-acc-mismatch": (ACC, [(3, [1, 9])], ("Offline", 1.5), ("Offline", 1.5)),
}


def main():
    shutil.rmtree(out, ignore_errors=True)
    for name, (acc, perf, ref, test) in CASES.items():
        d = os.path.join(out, name)
        acclog(os.path.join(d, "accuracy", "mlperf_log_accuracy.json"), acc)
        detail(os.path.join(d, "performance", "run_1", "mlperf_log_detail.txt"), *ref)
        acclog(os.path.join(d, "TEST01", "accuracy", "mlperf_log_accuracy.json"), perf)
        detail(os.path.join(d, "TEST01", "performance", "run_1", "mlperf_log_detail.txt"), *test)
        t01 = os.path.join(inf, "compliance", "TEST01")
        for script, args, exp in [
            ("verify_accuracy.py", ["--dtype", "int64", "-r", os.path.join(d, "accuracy", "mlperf_log_accuracy.json"),
                                    "-t", os.path.join(d, "TEST01", "accuracy", "mlperf_log_accuracy.json")], "accuracy"),
            ("verify_performance.py", ["-r" + os.path.join(d, "performance", "run_1", "mlperf_log_detail.txt"),
                                       "-t" + os.path.join(d, "TEST01", "performance", "run_1", "mlperf_log_detail.txt")], "performance")]:
            r = subprocess.run([sys.executable, os.path.join(t01, script)] + args,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            with open(os.path.join(d, "expected_verify_%s.txt" % exp), "w") as f:
                f.write(r.stdout)


if __name__ == "__main__":
    main()
