#!/usr/bin/env bash
# Installs SGLang from PyPI for its CPU path (sglang==0.5.23, pinned with everything it runs on in
# sglang-cpu-requirements.txt) into a virtualenv, for the real-engine tests (make test-engines).
# About 7 GB; 2-4 minutes on a fresh machine, less with pip's cache warm.
#
#   fetch-sglang.sh VENVDIR
#
# Prints the venv's python, which serves with
#   SGLANG_USE_CPU_ENGINE=1 VENVDIR/bin/python -m sglang.launch_server --model-path M \
#     --device cpu --attention-backend torch_native ...
# A second run with the same pins in place does nothing.
#
# Two things differ from `pip install sglang`, which does not run on a machine without CUDA:
#  - sglang's metadata requires CUDA-only wheels (flashinfer, sglang-kernel, deep-ep, ...); the
#    pins leave them out and everything goes in with --no-deps.
#  - SGLang imports sgl_kernel while it loads, and PyPI has only CUDA builds of it:
#    sgl_kernel_standin.py is installed as the venv's sgl_kernel (its docstring says why that is
#    enough on the CPU path and what would make it unnecessary).
set -euo pipefail
venv=${1:?usage: fetch-sglang.sh VENVDIR}
venv=$(realpath -m "$venv")
here=$(cd "$(dirname "$0")" && pwd)
pins=$here/sglang-cpu-requirements.txt
standin=$here/sgl_kernel_standin.py
version=0.5.23
need_gb=10 # the venv (7 GB) and pip's unpacking room
PY=${PYTHON:-python3}

stamp=$venv/.mlperf-go-pins
want=$(cat "$pins" "$standin" | sha256sum | cut -d' ' -f1)-$version
if [[ -x $venv/bin/python && -f $stamp && $(cat "$stamp") == "$want" ]]; then
  echo "$venv/bin/python"
  exit 0
fi

mkdir -p "$(dirname "$venv")"
free_kb=$(df -Pk "$(dirname "$venv")" | awk 'NR==2 {print $4}')
if (( free_kb < need_gb * 1024 * 1024 )); then
  echo "fetch-sglang: $(dirname "$venv") has $((free_kb / 1024 / 1024)) GB free; SGLang and torch need about $need_gb GB. Free some room (or point BUILD elsewhere) and run again." >&2
  exit 1
fi
pyver=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
case $pyver in
  3.10|3.11|3.12|3.13) ;;
  *) echo "fetch-sglang: sglang $version needs Python 3.10 to 3.13; $PY is $pyver (set PYTHON)" >&2; exit 1 ;;
esac
rm -rf "$venv"
"$PY" -m venv "$venv" ||
  { echo "fetch-sglang: python3 -m venv failed: install python3-venv (Debian) and run again" >&2; exit 1; }
pip=("$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps)
"${pip[@]}" -r "$pins" ||
  { echo "fetch-sglang: pip install -r $pins failed (needs PyPI)" >&2; exit 1; }
"${pip[@]}" "sglang==$version" ||
  { echo "fetch-sglang: pip install sglang==$version failed (needs PyPI)" >&2; exit 1; }
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
mkdir -p "$site/sgl_kernel"
cp "$standin" "$site/sgl_kernel/__init__.py"
got=$(SGLANG_USE_CPU_ENGINE=1 "$venv/bin/python" -c 'import sgl_kernel, sglang.srt.entrypoints.http_server, sglang; assert sgl_kernel.STANDIN; print(sglang.__version__)' 2>/dev/null | tail -1) || true
if [[ $got != "$version" ]]; then
  echo "fetch-sglang: importing SGLang's server from $venv failed or gave version '$got', want $version:" >&2
  SGLANG_USE_CPU_ENGINE=1 "$venv/bin/python" -c 'import sglang.srt.entrypoints.http_server' 2>&1 | tail -5 >&2
  exit 1
fi
echo "$want" > "$stamp"
echo "$venv/bin/python"
