#!/usr/bin/env bash
# Fetches Meta's Llama 3 tokenizer.model for the tokenizer package's golden tests, which skip
# without it. It is not committed (Llama 3 Community License); PyPI's llama-models wheel ships it.
#
#   fetch-test-tokenizers.sh OUTDIR [CACHEDIR]
#
# Downloads llama-models==0.3.0 (no dependencies) into CACHEDIR (default OUTDIR/cache) with pip,
# checks the wheel's SHA-256, and extracts llama_models/llama3/tokenizer.model to
# OUTDIR/llama3/tokenizer.model (checked too). A second run with the file in place does nothing.
# Then: MLPERF_GO_LLAMA3_TOKENIZER=OUTDIR/llama3/tokenizer.model go test ./tokenizer/
set -euo pipefail
out=${1:?usage: fetch-test-tokenizers.sh OUTDIR [CACHEDIR]}
cache=${2:-$out/cache}
version=0.3.0
wheel=llama_models-$version-py3-none-any.whl
wheel_sha256=7f77f78ff13fca09f70d76a376aff6414cd901623fb9d57e69c2f8367a73032f
model_sha256=82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55
dest=$out/llama3/tokenizer.model
PY=${PYTHON:-python3}

check() { # file sha256
  local got
  got=$(sha256sum "$1" | cut -d' ' -f1)
  [[ $got == "$2" ]] || { echo "fetch-test-tokenizers: $1 has SHA-256 $got, want $2; delete it and run again" >&2; return 1; }
}

if [[ -f $dest ]] && check "$dest" "$model_sha256" 2>/dev/null; then
  echo "$dest"
  exit 0
fi
mkdir -p "$cache" "$(dirname "$dest")"
if [[ ! -f $cache/$wheel ]]; then
  "$PY" -m pip download --quiet --no-deps --only-binary :all: "llama-models==$version" -d "$cache" ||
    { echo "fetch-test-tokenizers: pip download llama-models==$version failed (needs PyPI)" >&2; exit 1; }
fi
check "$cache/$wheel" "$wheel_sha256"
"$PY" - "$cache/$wheel" "$dest.tmp" <<'PYEOF'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open("llama_models/llama3/tokenizer.model") as src, open(sys.argv[2], "wb") as dst:
    shutil.copyfileobj(src, dst)
PYEOF
check "$dest.tmp" "$model_sha256"
mv "$dest.tmp" "$dest"
echo "$dest"
