#!/usr/bin/env python3
"""Golden vectors for benchmarks/qwen36 made by mlcommons/endpoints itself (git
ea3327530376) over the BFCL v4 data in the bfcl-eval 2026.3.23 wheel.

Environment: as score/bfcl/testdata/gen_golden.py (CPython 3.12.1, inference-endpoint
from that commit, bfcl-eval==2026.3.23). Usage:

    python3.12 gen_golden.py WHEEL     # WHEEL: pip download --no-deps bfcl-eval==2026.3.23

Writes, next to this script:
  ../bfcl_pins.json   sha256 of the wheel and of the 22 data files the accuracy set is
                      built from (bfcl_eval/data/BFCL_v4_<subset>.json and
                      possible_answer/BFCL_v4_<subset>.json)
  bodies.jsonl.gz     for each of the 995 samples, in endpoints' order: sample_id, subset,
                      the sha256 of the request body endpoints' msgspec adapter encodes
                      (streamed and not, model "Qwen3.6-27B-Q4_K_M", the example config's
                      sampling), and the whole streamed body of every 25th sample
  records.jsonl.gz    the raw BFCL records (question line and possible-answer line) of the
                      samples whose bodies are kept whole, for the offline test
  full.jsonl.gz       score/bfcl's --full vectors: three answers per sample with the
                      reference's scores, and a whole run's printed entry
BFCL data: Apache-2.0, (c) the Gorilla / Berkeley Function Calling Leaderboard authors.
"""
import gzip
import hashlib
import io
import os
import json
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path

warnings.filterwarnings("ignore")
assert sys.version_info[:2] == (3, 12)

from inference_endpoint.commands.benchmark.execute import _load_datasets  # noqa: E402
from inference_endpoint.config.schema import BenchmarkConfig, TestMode  # noqa: E402
from inference_endpoint.core.types import Query  # noqa: E402
from inference_endpoint.openai.openai_msgspec_adapter import OpenAIMsgspecAdapter as A  # noqa: E402

OUT = Path(__file__).resolve().parent
SUBSETS = ["simple_python", "simple_java", "simple_javascript", "multiple", "parallel", "parallel_multiple",
           "live_simple", "live_multiple", "live_parallel", "live_parallel_multiple", "irrelevance", "live_irrelevance"]
ENDPOINTS = Path("/work/.mirror/mlcommons+endpoints/repo")


def gzopen(path):
    return io.TextIOWrapper(gzip.GzipFile(str(path), "wb", compresslevel=9, mtime=0), encoding="utf-8")


def main():
    wheel = Path(sys.argv[1]).resolve()
    os.chdir("/tmp")  # endpoints caches datasets under the working directory
    z = zipfile.ZipFile(wheel)
    pins = {"wheel": wheel.name, "wheel_sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(), "files": {}}
    for s in SUBSETS:
        for name in (f"bfcl_eval/data/BFCL_v4_{s}.json", f"bfcl_eval/data/possible_answer/BFCL_v4_{s}.json"):
            if name in z.namelist():
                pins["files"][name] = hashlib.sha256(z.read(name)).hexdigest()
    (OUT.parent / "bfcl_pins.json").write_text(json.dumps(pins, indent=2) + "\n")

    cfg_text = subprocess.run(["git", "-C", str(ENDPOINTS), "show", "HEAD:examples/11_Edge_Agentic_Example/online_edge_full_run.yaml"],
                              check=True, capture_output=True, text=True).stdout
    cfg_path = Path("/tmp/qwen36-golden-config.yaml")
    cfg_path.write_text(cfg_text)
    cfg = BenchmarkConfig.from_yaml_file(cfg_path)
    _, evals = _load_datasets(cfg, Path("/tmp/qwen36-golden-report"), TestMode.ACC)
    ds = evals[0].dataset
    assert ds.num_samples() == 995
    frame = ds.dataframe
    raw_lines = {}
    for s in SUBSETS:
        for kind, name in (("q", f"bfcl_eval/data/BFCL_v4_{s}.json"), ("a", f"bfcl_eval/data/possible_answer/BFCL_v4_{s}.json")):
            if name in z.namelist():
                for line in z.read(name).decode().splitlines():
                    if line.strip():
                        raw_lines[(kind, json.loads(line)["id"])] = line
    with gzopen(OUT / "bodies.jsonl.gz") as f, gzopen(OUT / "records.jsonl.gz") as rec:
        for i in range(995):
            data = dict(ds.load_sample(i))
            stream = A.encode_query(Query(data=data)).decode()
            data.pop("stream", None)
            plain = A.encode_query(Query(data=data)).decode()
            sid = frame.loc[i, "sample_id"]
            row = {"index": i, "sample_id": sid, "subset": frame.loc[i, "subset"],
                   "sha256_stream": hashlib.sha256(stream.encode()).hexdigest(),
                   "sha256": hashlib.sha256(plain.encode()).hexdigest()}
            if i % 25 == 0 or '"format":"float"' in stream and i % 5 == 0:
                row["body_stream"] = stream
                rec.write(json.dumps({"sample_id": sid, "subset": frame.loc[i, "subset"], "question": raw_lines[("q", sid)],
                                      "answer": raw_lines.get(("a", sid))}, ensure_ascii=False) + "\n")
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    # the scorer's full-size vectors
    subprocess.run([sys.executable, str(OUT.parent.parent.parent / "score/bfcl/testdata/gen_golden.py"), "--full", str(OUT)], check=True)


main()
