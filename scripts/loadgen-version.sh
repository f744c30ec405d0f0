#!/usr/bin/env bash
# Runs LoadGen's own version_generator.py (arguments passed through) and
# drops the one line it makes git print for a source tree that is not a git
# checkout (the pinned sdist never is): "fatal: not a git repository". The
# script then writes its stub git fields, as intended; any other message,
# and its exit status, pass through.
set -euo pipefail
status=0
{ "$@" 2>&1 1>&3 3>&- | { grep -v '^fatal: not a git repository' || true; } >&2; } 3>&1 || status=$?
exit "$status"
