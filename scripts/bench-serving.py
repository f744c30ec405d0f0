#!/usr/bin/env python3
"""Client-side cost of mlperf-go bench against GuideLLM and vllm bench serve (and mlperf-go run).

Runs each client against the same zero-latency fake endpoint (mlperf-go
fake-endpoint, a process of its own so that the clients' CPU is measured
alone) on the same workload: chat completions, a 50-word prompt (vllm bench
serve: 50 random tokens), 16 output tokens (streamed), 32 requests in
flight. Each client runs twice, with N1 and N2 requests; CPU per request is
the difference of the two runs' process CPU (user + system, from getrusage
of the children) over N2 - N1, so start-up costs (Python imports, dataset
loading) cancel out. The rate is the requests per second each client
reports over its own benchmark window. The clients take turns, --rounds
times (bench, GuideLLM, vllm bench serve, bench, …), so drift in the
machine's load touches each alike; the ratios are of the medians.

Usage: scripts/bench-serving.py --mlperf-go build/bin/mlperf-go --guidellm VENV/bin/guidellm
       [--vllm build/venv-vllm/bin/vllm --vllm-tokenizer build/engines/tiny-llama]
(make bench-serving installs guidellm==0.8.1 into build/venv-guidellm and runs this, with
vllm bench serve when make test-engines has installed vLLM into build/venv-vllm.)
Target (issue 25): bench sustains at least 5x GuideLLM's rate, at no more CPU per request
than run spends. This is a benchmark, not a test: numbers move with the machine's load.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def cpu_children():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def measured(cmd, cwd):
    c0, t0 = cpu_children(), time.monotonic()
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit(f"{cmd[0]} failed ({p.returncode}):\n{p.stderr[-3000:]}\n{p.stdout[-2000:]}")
    return cpu_children() - c0, time.monotonic() - t0


def run_bench(a, url, n, tmp):
    out = os.path.join(tmp, f"bench-{n}")
    cpu, wall = measured([a.mlperf_go, "bench", "--target", "fake=" + url, "--model", "fake", "--requests", str(n), "--input-len", "50",
                          "--output-len", "16", "--concurrency", str(a.concurrency), "--out", out,
                          "--progress-interval", "0"], tmp)
    run = json.load(open(os.path.join(out, "results.json")))["runs"][0]
    return cpu, run["completed"], run["request_throughput"]


def run_guidellm(a, url, n, tmp):
    data = os.path.join(tmp, "prompts.jsonl")
    if not os.path.exists(data):
        with open(data, "w") as f:
            for i in range(a.n2 + 10):
                f.write(json.dumps({"prompt": " ".join(["word"] * 49 + [str(i)]), "output_tokens_count": 16}) + "\n")
    out = os.path.join(tmp, f"guidellm-{n}.json")
    cpu, wall = measured([a.guidellm, "run", "--backend", "kind=openai_http,target=" + url,
                          "--profile", f"kind=concurrent,streams={a.concurrency}",
                          "--constraint", f"kind=max_requests,count={n}",
                          "--data", "kind=json_file,path=" + data, "--output", "kind=json,path=" + out,
                          "--disable-console-interactive"], tmp)
    b = json.load(open(out))["benchmarks"][0]
    ok = len(b["requests"]["successful"])
    return cpu, ok, ok / b["duration"]


def run_vllm(a, url, n, tmp):
    name = f"vllm-{n}.json"
    cpu, wall = measured([a.vllm, "bench", "serve", "--backend", "openai-chat", "--base-url", url, "--endpoint", "/v1/chat/completions",
                          "--model", "fake", "--tokenizer", a.vllm_tokenizer, "--dataset-name", "random", "--random-input-len", "50",
                          "--random-output-len", "16", "--ignore-eos", "--num-prompts", str(n), "--max-concurrency", str(a.concurrency),
                          "--disable-tqdm", "--ready-check-timeout-sec", "0", "--save-result", "--result-dir", tmp,
                          "--result-filename", name], tmp)
    r = json.load(open(os.path.join(tmp, name)))
    return cpu, r["completed"], r["request_throughput"]


def run_run(a, url, n, tmp):
    data = os.path.join(tmp, "llama")
    if not os.path.exists(data):
        subprocess.run([a.mlperf_go, "dataset", "synth", "--benchmark", "llama3_1-8b", "--samples", str(a.n2),
                        "--out", data], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = os.path.join(tmp, f"run-{n}")
    cpu, wall = measured([a.mlperf_go, "run", "-b", "llama3_1-8b", "-s", "Offline", "-d", os.path.join(data, "cnn_eval.json"), "-e", url, "--model", "fake",
                          "--quick", "--total-sample-count", str(n), "--concurrency", str(a.concurrency),
                          "--skip-preflight", "--progress-interval", "0", "-o", out, "--overwrite"], tmp)
    res = json.load(open(os.path.join(out, "results.json")))
    return cpu, res["samples"]["completed"], res["metrics"]["headline"]["value"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mlperf-go", required=True)
    ap.add_argument("--guidellm", help="the guidellm command: measure GuideLLM too")
    ap.add_argument("--n1", type=int, default=500)
    ap.add_argument("--n2", type=int, default=3000)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--with-run", action="store_true",
                    help="also measure mlperf-go run (llama3_1-8b Offline through LoadGen: completions, 128 tokens, not streamed)")
    ap.add_argument("--vllm", help="the vllm command (make test-engines installs it into build/venv-vllm): measure vllm bench serve too")
    ap.add_argument("--vllm-tokenizer", help="a tokenizer folder for vllm bench serve's random prompts (build/engines/tiny-llama)")
    ap.add_argument("--rounds", type=int, default=2, help="times each client runs, taking turns")
    a = ap.parse_args()
    if a.vllm and not a.vllm_tokenizer:
        sys.exit("--vllm needs --vllm-tokenizer")
    # The clients run in a temporary folder: paths given relative to here
    # must still name the same files.
    for k in ("mlperf_go", "guidellm", "vllm", "vllm_tokenizer"):
        if getattr(a, k):
            setattr(a, k, os.path.abspath(getattr(a, k)))
    with tempfile.TemporaryDirectory() as tmp:
        fake = subprocess.Popen([a.mlperf_go, "fake-endpoint", "--listen", "127.0.0.1:0", "--model", "fake"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            url = fake.stdout.readline().strip()
            clients = [("mlperf-go bench", run_bench)]
            if a.guidellm:
                clients.append(("guidellm 0.8.1", run_guidellm))
            if a.vllm:
                clients.append(("vllm bench serve", run_vllm))
            if a.with_run:
                clients.append(("mlperf-go run", run_run))
            print(f"fake endpoint {url}; {a.concurrency} in flight; N1={a.n1}, N2={a.n2}; {a.rounds} rounds, clients taking turns")
            print(f"{'round':<6} {'client':<18} {'req/s':>10} {'CPU µs/request':>16} {'completed':>10}")
            rows = {name: [] for name, _ in clients}
            for r in range(a.rounds):
                for name, fn in clients:
                    c1, d1, _ = fn(a, url, a.n1, tmp)
                    c2, d2, rate = fn(a, url, a.n2, tmp)
                    per = (c2 - c1) / max(d2 - d1, 1) * 1e6
                    rows[name].append((rate, per))
                    print(f"{r + 1:<6} {name:<18} {rate:>10.1f} {per:>16.1f} {d2:>10}", flush=True)
            med = {name: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v)) for name, v in rows.items()}
            print("medians:")
            for name, (rate, per) in med.items():
                print(f"       {name:<18} {rate:>10.1f} {per:>16.1f}")
            b = med["mlperf-go bench"]
            for other in ("guidellm 0.8.1", "vllm bench serve"):
                if other in med:
                    o = med[other]
                    print(f"bench/{other.split()[0]}: {b[0] / o[0]:.1f}x the rate, {o[1] / b[1]:.1f}x less CPU per request")
            if "mlperf-go run" in med:
                print(f"bench/run: {b[1] / med['mlperf-go run'][1]:.2f}x run's CPU per request")
        finally:
            fake.terminate()
            fake.wait()


if __name__ == "__main__":
    main()
