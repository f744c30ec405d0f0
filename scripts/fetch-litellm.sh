#!/usr/bin/env bash
# Installs LiteLLM's proxy (PyPI, pinned) into a virtualenv for the gateway test, which runs
# mlperf-go against it in mock mode: an OpenAI-compatible server no one here wrote, with a
# master key (cmd/mlperf-go/litellm_test.go; it skips without MLPERF_GO_LITELLM).
#
#   fetch-litellm.sh VENVDIR
#
# Prints the litellm command's path. A second run with the right version in place does nothing.
# Then: MLPERF_GO_LITELLM=VENVDIR/bin/litellm go test -run TestLiteLLMGateway ./cmd/mlperf-go/
set -euo pipefail
venv=${1:?usage: fetch-litellm.sh VENVDIR}
version=1.108.7
PY=${PYTHON:-python3}
if [[ -x $venv/bin/litellm ]] && [[ $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("litellm"))' 2>/dev/null) == "$version" ]]; then
  echo "$venv/bin/litellm"
  exit 0
fi
"$PY" -m venv "$venv" ||
  { echo "fetch-litellm: python3 -m venv failed: install python3-venv (Debian) and run again" >&2; exit 1; }
"$venv/bin/pip" install --quiet --disable-pip-version-check "litellm[proxy]==$version" ||
  { echo "fetch-litellm: pip install litellm[proxy]==$version failed (needs PyPI)" >&2; exit 1; }
echo "$venv/bin/litellm"
