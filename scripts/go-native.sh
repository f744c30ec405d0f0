#!/usr/bin/env bash
# Runs one go command against the native libraries of one CMake build
# directory. CMake's targets and tests call Go only through this script, so
# the binary, the static binary, the tests and the benchmarks all link the
# same LoadGen and carry the same version information, whatever the build
# directory is (`make` uses build/).
#
#   go-native.sh build|test|vet|static [go arguments...]
#
# static is `go build` of a fully static binary: LoadGen, libstdc++ and glibc
# linked in, Go's own DNS resolver and user lookup (netgo, osusergo), so it
# runs in a container or chroot that holds nothing else.
#
# Environment (CMake sets it): MLPG_BUILD_DIR (holds lib/ and include/),
# MLPG_LOADGEN_VERSION, MLPG_LOADGEN_SOURCE, GO (default go).
# MLPERF_GO_VERSION overrides the harness version (default: git describe,
# or "dev" outside a git checkout, e.g. in a container build).
set -euo pipefail

: "${MLPG_BUILD_DIR:?go-native.sh: MLPG_BUILD_DIR is not set; run it through CMake (make, or cmake --build DIR)}"
GO=${GO:-go}
cmd=${1:?usage: go-native.sh build|test|vet|static [go arguments...]}
shift

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

libs=("$MLPG_BUILD_DIR/lib/libmlperf_loadgen.a" "$MLPG_BUILD_DIR/lib/libmlperf_go_shim.a")
for l in "${libs[@]}" "$MLPG_BUILD_DIR/include/mlperf_go_native.h"; do
  if [[ ! -f $l ]]; then
    echo "go-native.sh: $l is missing: build the native libraries first (cmake --build $MLPG_BUILD_DIR)" >&2
    exit 1
  fi
done

version=${MLPERF_GO_VERSION:-$(git -C "$root" describe --tags --always --dirty 2>/dev/null || echo dev)}
bi=github.com/mlperf-go/mlperf-go/internal/buildinfo
# LibrarySHA256 also makes Go relink when the libraries change: its build
# cache keys on the flags, not on the .a files (golang/go#29843).
ldflags="-X '$bi.Version=$version'"
ldflags+=" -X '$bi.LoadGenVersion=${MLPG_LOADGEN_VERSION:-}'"
ldflags+=" -X '$bi.LoadGenSource=${MLPG_LOADGEN_SOURCE:-}'"
ldflags+=" -X '$bi.LibrarySHA256=$(cat "${libs[@]}" | sha256sum | cut -d' ' -f1)'"

# The environment's flags come before loadgen's #cgo defaults
# (build/include, build/lib), so this build directory's header and
# libraries are the ones found.
export CGO_ENABLED=1
export CGO_CFLAGS="${CGO_CFLAGS:--O2 -g} '-I$MLPG_BUILD_DIR/include'"
export CGO_LDFLAGS="${CGO_LDFLAGS:--O2 -g} '-L$MLPG_BUILD_DIR/lib'"

case $cmd in
  build | test)
    exec "$GO" "$cmd" -ldflags "$ldflags" "$@" ;;
  vet)
    exec "$GO" vet "$@" ;;
  static)
    exec "$GO" build -tags netgo,osusergo \
      -ldflags "$ldflags -s -w -linkmode external -extldflags '-static'" "$@" ;;
  *)
    echo "go-native.sh: unknown command '$cmd' (want build, test, vet or static)" >&2
    exit 2 ;;
esac
