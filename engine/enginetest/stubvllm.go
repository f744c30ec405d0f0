// Package enginetest holds test doubles for launching engines: a stub
// `vllm` command that parses its arguments as the real one does and then
// serves whatever the test asks. Only tests import it.
package enginetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Quote quotes s for /bin/sh as one word.
func Quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// StubVLLM writes a `vllm` executable into a new temporary folder. It parses
// `vllm serve MODEL …` the way the real CLI does (the subcommand, the
// positional model, flags with and without values, dotted JSON-field
// flags), refuses unknown flags as argparse does, records its arguments one
// per line in argsFile, and then runs serve: a shell command line in which
// $host, $port and $served hold the address and served model name it was
// given (it should exec a server, such as the fake endpoint).
func StubVLLM(t testing.TB, serve string) (path, argsFile string) {
	t.Helper()
	dir := t.TempDir()
	path, argsFile = filepath.Join(dir, "vllm"), filepath.Join(dir, "vllm-args.txt")
	script := `#!/bin/sh
set -eu
printf '%s\n' "$@" > ` + Quote(argsFile) + `
[ "${1:-}" = serve ] || { echo "usage: vllm {chat,complete,serve,bench,collect-env,run-batch} ..." >&2; exit 2; }
shift
case "${1:-}" in ""|-*) echo "vllm serve: error: the following arguments are required: model_tag" >&2; exit 2;; esac
model=$1; shift
host=0.0.0.0 port=8000 served=$model
need() { [ $# -ge 2 ] || { echo "vllm serve: error: argument $1: expected one argument" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
  case "$1" in
    --host) need "$@"; host=$2; shift 2;;
    --port) need "$@"; port=$2; shift 2;;
    --served-model-name) need "$@"; served=$2; shift 2;;
    --tensor-parallel-size|--max-model-len|--gpu-memory-utilization|--limit-mm-per-prompt.video|--limit-mm-per-prompt.image) need "$@"; shift 2;;
    --no-enable-prefix-caching|--enable-prefix-caching|--enforce-eager) shift;;
    *) echo "vllm serve: error: unrecognized arguments: $1" >&2; exit 2;;
  esac
done
` + serve + "\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, argsFile
}
