#!/usr/bin/env bash
# The embedded default, end to end, on any machine: synthesize a small
# Qwen3-VL dataset in the real parquet format, serve it from the fake
# endpoint, run an Offline accuracy test through the official LoadGen and
# evaluate it, then an Offline performance test. `make demo` runs this after
# building; everything it writes goes under $DEMO_DIR (default build/demo).
set -euo pipefail

BIN=${BIN:-build/bin/mlperf-go}
DEMO_DIR=${DEMO_DIR:-build/demo}
SAMPLES=${SAMPLES:-300}
BENCH=qwen3-vl-235b-a22b

if [[ ! -x $BIN ]]; then
  echo "demo: $BIN not found; run 'make' first (or 'make demo', which builds it)" >&2
  exit 1
fi
rm -rf "$DEMO_DIR"
mkdir -p "$DEMO_DIR"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "Synthesizing $SAMPLES $BENCH samples (parquet, real JPEG/PNG images)"
"$BIN" dataset synth --benchmark $BENCH --samples "$SAMPLES" --out "$DEMO_DIR/data" >/dev/null

# The latency model caps the fake at about 32 / (100 ms + ~45 tokens x 2 ms)
# = 170 samples/s, so the performance run below (2,200 samples at
# --target-qps 200) always lasts longer than its 10 s minimum, whatever the
# machine.
step "Starting the fake endpoint (90% of answers correct, 100 ms TTFT, 2 ms/token, 32 slots)"
"$BIN" fake-endpoint --listen 127.0.0.1:0 --dataset "$DEMO_DIR/data" --accuracy 0.9 \
  --ttft 100ms --tpot 2ms --max-concurrency 32 >"$DEMO_DIR/fake.url" 2>"$DEMO_DIR/fake.log" &
FAKE=$!
trap 'kill $FAKE 2>/dev/null || true; wait $FAKE 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  [[ -s $DEMO_DIR/fake.url ]] && break
  # A fake that exited says so at once, with its log.
  if ! kill -0 "$FAKE" 2>/dev/null; then
    rc=0
    wait "$FAKE" || rc=$?
    echo "demo: the fake endpoint exited (status $rc) before it served:" >&2
    cat "$DEMO_DIR/fake.log" >&2
    exit 1
  fi
  sleep 0.1
done
URL=$(head -n1 "$DEMO_DIR/fake.url")
[[ -n $URL ]] || { echo "demo: the fake endpoint did not start within 10 s:" >&2; cat "$DEMO_DIR/fake.log" >&2; exit 1; }
echo "fake endpoint at $URL"

step "Offline accuracy run + evaluation"
"$BIN" run --benchmark $BENCH --scenario Offline --mode accuracy \
  --dataset "$DEMO_DIR/data" --endpoint "$URL" --output-dir "$DEMO_DIR/accuracy" \
  --setting min_query_count=1 --evaluate --progress-interval 2s

step "Offline performance run (10 s instead of the official 10 minutes)"
"$BIN" run --benchmark $BENCH --scenario Offline --mode performance \
  --dataset "$DEMO_DIR/data" --endpoint "$URL" --output-dir "$DEMO_DIR/performance" \
  --setting min_duration=10000 --setting min_query_count=100 --target-qps 200 --progress-interval 2s

step "Done"
echo "LoadGen logs: $DEMO_DIR/accuracy and $DEMO_DIR/performance"
