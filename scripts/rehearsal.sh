#!/usr/bin/env bash
# A submission rehearsal with the embedded default: a complete results tree
# for llama3.1-8b and qwen3-vl-235b-a22b (Offline and Server: accuracy,
# evaluated by mlperf-go, and performance; llama3.1-8b's TEST06), made
# against the fake endpoint answering the synthetic datasets' references,
# then packaged and checked. Every accuracy.txt is mlperf-go's own PASS
# (in the short default, qwen3-vl's on the samples its runs cover).
#
#   TOKENIZER=PATH scripts/rehearsal.sh
#
# TOKENIZER is Llama 3's tokenizer (tokenizer.json, tokenizer.model or a
# folder holding one; scripts/fetch-test-tokenizers.sh fetches one): the
# fake encodes the reference summaries with it and evaluate decodes them.
# The fake answers every sample with its reference as it is, so the
# accuracy runs score what a perfect model would (llama3.1-8b's ROUGE 100);
# the synthetic summaries are as long as the model's are on average, so
# llama3.1-8b's gen_len, a total over all 13,368 samples, meets its bounds,
# for answers that fit the reference's 128 tokens in Llama 3's tokenizer.
#
# OFFICIAL=1 drops the overrides, for a tree at official settings
# (10-minute performance runs, 270,336 Server queries, every sample; 77
# minutes on a 2-core machine) for the official checker, which says
# "submission looks OK" of it (docs/official-results.md). Server runs go to a fake with no
# latency at QPS (450: 270,336 queries in 600 s). An Offline run is VALID
# only if it lasts 10 minutes, so Offline runs go to a second fake capped at
# OFFLINE_SLOTS requests at once, each taking at least 500 ms (at most
# 2*OFFLINE_SLOTS answers a second), asked for OFFLINE_QPS, above that cap:
#   cd inference/tools/submission && python3 -m submission_checker.main --input $OUT/sub --version v6.1
# Otherwise (the default) runs are short (DURATION ms, the QSL of
# performance runs holding PERF_SAMPLES, qwen3-vl's set QWEN_SAMPLES
# samples) and filed with --allow-unofficial-settings, so `submission check`
# objects only to what short runs cannot satisfy. Everything goes under OUT.
set -euo pipefail

BIN=${BIN:-build/bin/mlperf-go}
OUT=${OUT:-build/rehearsal}
TOKENIZER=${TOKENIZER:?set TOKENIZER to Llama 3\'s tokenizer (scripts/fetch-test-tokenizers.sh fetches one)}
OFFICIAL=${OFFICIAL:-0}
DURATION=${DURATION:-1000}
PERF_SAMPLES=${PERF_SAMPLES:-200}
QWEN_SAMPLES=${QWEN_SAMPLES:-200}
QPS=${QPS:-400}
OFFLINE_SLOTS=${OFFLINE_SLOTS:-50}
OFFLINE_QPS=${OFFLINE_QPS:-120}
SYSTEM=${SYSTEM:-rehearsal}
SUBMITTER=${SUBMITTER:-Rehearsal}
LLAMA=llama3_1-8b
QWEN=qwen3-vl-235b-a22b

[[ -x $BIN ]] || { echo "rehearsal: $BIN not found; run 'make' first" >&2; exit 1; }
rm -rf "$OUT"
mkdir -p "$OUT"
step() { printf '\n== %s\n' "$*"; }

if [[ $OFFICIAL == 1 ]]; then
  QWEN_SAMPLES=48289
  QPS=${QPS_OFFICIAL:-450}
  short=()
else
  short=(--allow-unofficial-settings --min-duration "$DURATION" --min-query-count 1 --performance-sample-count "$PERF_SAMPLES")
fi

step "Synthetic datasets: all 13,368 llama3.1-8b samples (gen_len is a whole-set total), $QWEN_SAMPLES qwen3-vl"
"$BIN" dataset synth --benchmark $LLAMA --samples 13368 --out "$OUT/data/llama" >/dev/null
"$BIN" dataset synth --benchmark $QWEN --samples "$QWEN_SAMPLES" --out "$OUT/data/qwen" >/dev/null

# fake NAME BENCHMARK MODEL DATASET...: a fake endpoint answering every
# sample right; its URL lands in $OUT/NAME.url.
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done' EXIT
fake() {
  local name=$1 bench=$2 model=$3
  shift 3
  "$BIN" fake-endpoint --listen 127.0.0.1:0 -b "$bench" --model "$model" --accuracy 1 \
    --tokenizer "$TOKENIZER" "$@" >"$OUT/$name.url" 2>"$OUT/$name.log" &
  local pid=$! rc=0
  pids+=("$pid")
  for _ in $(seq 600); do
    [[ -s $OUT/$name.url ]] && return
    # A fake that exited (a bad TOKENIZER, a taken port) says so at once.
    if ! kill -0 "$pid" 2>/dev/null; then
      wait "$pid" || rc=$?
      echo "rehearsal: the $name fake exited (status $rc) before it served:" >&2
      cat "$OUT/$name.log" >&2
      exit 1
    fi
    sleep 0.1
  done
  echo "rehearsal: the $name fake did not start within 60 s:" >&2
  cat "$OUT/$name.log" >&2
  exit 1
}
step "Fake endpoints answering the references"
fake llama $LLAMA meta-llama/Llama-3.1-8B-Instruct --dataset "$OUT/data/llama/cnn_eval.json"
fake qwen $QWEN Qwen/Qwen3-VL-235B-A22B-Instruct --dataset "$OUT/data/qwen"
if [[ $OFFICIAL == 1 ]]; then
  slow=(--max-concurrency "$OFFLINE_SLOTS" --ttft 500ms)
  fake llama-Offline $LLAMA meta-llama/Llama-3.1-8B-Instruct --dataset "$OUT/data/llama/cnn_eval.json" "${slow[@]}"
  fake qwen-Offline $QWEN Qwen/Qwen3-VL-235B-A22B-Instruct --dataset "$OUT/data/qwen" "${slow[@]}"
else
  cp "$OUT/llama.url" "$OUT/llama-Offline.url"
  cp "$OUT/qwen.url" "$OUT/qwen-Offline.url"
  OFFLINE_QPS=$QPS
fi
cp "$OUT/llama.url" "$OUT/llama-Server.url"
cp "$OUT/qwen.url" "$OUT/qwen-Server.url"

# run BENCHMARK SCENARIO DATASET NAME ARGS...: one filed run against the
# fake NAME-SCENARIO. A short
# performance run is INVALID (exit 3: too short for early stopping or the
# minimum duration) and filed all the same; anything else stops the script.
run() {
  local bench=$1 scen=$2 data=$3 name=$4 qps=$QPS
  shift 4
  [[ $scen == Offline ]] && qps=$OFFLINE_QPS
  local rc=0
  "$BIN" --log-level warn run -b "$bench" -s "$scen" -d "$data" -e "$(head -n1 "$OUT/$name-$scen.url")" \
    --results-dir "$OUT/results" --system "$SYSTEM" --tokenizer "$TOKENIZER" \
    --target-qps "$qps" --progress-interval 0 "$@" || rc=$?
  if [[ $rc != 0 && ! ($rc == 3 && $OFFICIAL != 1) ]]; then
    echo "rehearsal: $bench $scen $* exited $rc" >&2
    exit 1
  fi
}
for scen in Offline Server; do
  step "$LLAMA $scen: accuracy (every sample) and performance, then TEST06"
  run $LLAMA $scen "$OUT/data/llama/cnn_eval.json" llama --mode both -o "$OUT/runs/llama-$scen" "${short[@]}"
  run $LLAMA $scen "$OUT/data/llama/cnn_eval.json" llama --compliance TEST06 -o "$OUT/runs/llama-$scen-TEST06" "${short[@]}"
  step "$QWEN $scen: accuracy and performance"
  run $QWEN $scen "$OUT/data/qwen" qwen --mode both -o "$OUT/runs/qwen-$scen" "${short[@]}"
done

step "Systems and measurements, then package and check"
mkdir -p "$OUT/systems"
"$BIN" submission system-template --out "$OUT/systems/$SYSTEM.json" >/dev/null
sed -i -e "s/\"division\": \"TODO[^\"]*\"/\"division\": \"closed\"/" \
  -e "s/\"submitter\": \"TODO[^\"]*\"/\"submitter\": \"$SUBMITTER\"/" \
  -e 's/"status": "TODO[^"]*"/"status": "available"/' \
  -e 's/"accelerators_per_node": "TODO[^"]*"/"accelerators_per_node": "1"/' \
  -e 's/"TODO[^"]*"/"fake endpoint (rehearsal)"/' "$OUT/systems/$SYSTEM.json"
for b in $LLAMA:llama3.1-8b $QWEN:qwen3-vl-235b-a22b; do
  "$BIN" submission measurements-template -b "${b%%:*}" --out "$OUT/results/$SYSTEM/${b#*:}/measurements.json" >/dev/null
  sed -i 's/"TODO[^"]*"/"rehearsal"/' "$OUT/results/$SYSTEM/${b#*:}/measurements.json"
done
"$BIN" submission package --division closed --submitter "$SUBMITTER" --results "$OUT/results" \
  --systems "$OUT/systems" --out "$OUT/sub"
rc=0
"$BIN" submission check "$OUT/sub" || rc=$?
if [[ $OFFICIAL == 1 && $rc != 0 ]]; then
  exit "$rc"
fi
echo "submission: $OUT/sub/closed/$SUBMITTER (check exit $rc)"
