#!/usr/bin/env bash
# Checks that a plain `go build ./cmd/mlperf-go` on a clone without the
# native libraries fails with loadgen/native.go's instructions (run make, or
# cmake) rather than with a linker error. The sources are copied, without
# build/, to a temporary directory, so the check holds whatever this
# checkout has built.
#
#   check-plain-go-build.sh [go]
set -euo pipefail
GO=${1:-go}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The tracked and new (not ignored) files: what a fresh clone plus local
# edits holds, never build outputs.
(cd "$root" && git ls-files -z --cached --others --exclude-standard) |
  (cd "$root" && xargs -0 cp --parents -t "$tmp" 2>/dev/null) || true
[[ -f $tmp/go.mod && -f $tmp/loadgen/native.go ]] || { echo "FAIL: could not copy the sources to $tmp" >&2; exit 1; }

out=$(cd "$tmp" && env -u CGO_CFLAGS -u CGO_LDFLAGS CGO_ENABLED=1 "$GO" build -o /dev/null ./cmd/mlperf-go 2>&1) && {
  echo "FAIL: go build ./cmd/mlperf-go succeeded without the native libraries" >&2
  exit 1
}
printf '%s\n' "$out"
want="the LoadGen libraries are not built. Run 'make' in the repository root first"
if ! grep -qF "$want" <<<"$out"; then
  echo "FAIL: go build failed, but its message does not say how to build the libraries (want: $want)" >&2
  exit 1
fi
echo "ok: a plain go build without the native libraries says to run make (or cmake)"
