#!/usr/bin/env bash
# Runs bench-latency (cmd/bench-latency): llama3_1-8b Server, streamed, against
# the fake endpoint at 60, 200 and 500 QPS, printing the latency mlperf-go
# adds (and, when mlcommons/endpoints is installed, the latency its harness
# adds, side by side). CMake's bench_latency target calls it.
#
#   bench-latency.sh BUILD_DIR
#
# Environment:
#   ENDPOINTS_SRC   mlcommons/endpoints' repository (a checkout, or a bare git
#                   directory whose HEAD is exported): installed once into
#                   BUILD_DIR/endpoints-venv, never into the source tree. It
#                   needs Python 3.12 or later (python3.12 on PATH or under
#                   pyenv) and reaches PyPI for its dependencies. Without it an
#                   existing BUILD_DIR/endpoints-venv is used, else mlperf-go
#                   is measured alone.
#   BENCH_LATENCY_FLAGS  extra bench-latency flags (e.g. -duration 60s -rounds 2).
set -euo pipefail

build=${1:?usage: bench-latency.sh BUILD_DIR}
venv=$build/endpoints-venv
ep=$venv/bin/inference-endpoint

# python312 prints a Python 3.12 or later that runs (pyenv's shims exist
# for versions that are not selected, and fail).
python312() {
  local p
  for p in python3 python3.14 python3.13 python3.12 "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[2-9]*/bin/python3; do
    if "$p" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then
      command -v "$p"
      return
    fi
  done
  return 1
}

if [[ -n ${ENDPOINTS_SRC:-} && ! -x $ep ]]; then
  py=$(python312) || { echo "bench-latency: mlcommons/endpoints needs Python >= 3.12 (none found); measuring mlperf-go alone" >&2; py=; }
  if [[ -n $py ]]; then
    src=$(mktemp -d)
    trap 'rm -rf "$src"' EXIT
    if git -C "$ENDPOINTS_SRC" rev-parse --is-bare-repository 2>/dev/null | grep -q true ||
       [[ ! -f $ENDPOINTS_SRC/pyproject.toml ]]; then
      git -C "$ENDPOINTS_SRC" archive HEAD | tar -x -C "$src"
    else
      cp -r "$ENDPOINTS_SRC"/. "$src"
    fi
    echo "bench-latency: installing mlcommons/endpoints ($(git -C "$ENDPOINTS_SRC" rev-parse --short HEAD 2>/dev/null || echo checkout)) into $venv"
    "$py" -m venv "$venv"
    "$venv/bin/pip" install -q "$src"
  fi
fi
args=(-bin "$build/bin/mlperf-go" -out "$build/bench-latency")
if [[ -x $ep ]]; then
  args+=(-endpoints "$ep")
else
  echo "bench-latency: mlcommons/endpoints not installed (set ENDPOINTS_SRC to its repository); measuring mlperf-go alone"
fi
rm -rf "$build/bench-latency"
# shellcheck disable=SC2086 # BENCH_LATENCY_FLAGS is a list of flags
exec "$build/bin/bench-latency" "${args[@]}" ${BENCH_LATENCY_FLAGS:-}
