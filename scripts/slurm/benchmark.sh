#!/usr/bin/env bash
#SBATCH --job-name=mlperf-benchmark
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --signal=B:TERM@300
# (The directives above are defaults for a plain `sbatch benchmark.sh`;
# submit.sh passes its own on the command line, which win.)
set -uo pipefail

usage() {
  cat <<'EOF'
benchmark.sh: one MLPerf run inside a Slurm job: mlperf-go launches the engine
(vLLM, SGLang or any command), waits for it, runs the LoadGen test, and stops it.

Usage: sbatch [SBATCH OPTIONS] benchmark.sh [OPTIONS] -- MLPERF_GO_RUN_ARGS...
       (scripts/slurm/submit.sh submits it for you, followed by evaluate.sh)

The run arguments go to `mlperf-go run`; give --launch (and --engine-arg, …)
there to start the engine inside the job, or --endpoint for a server that
already runs. --output-dir is set by this script.

Options:
  --bin PATH               mlperf-go binary (default: $MLPERF_GO_BIN, else mlperf-go on PATH)
  --out-root DIR           outputs go to DIR/$SLURM_JOB_ID (default: $SLURM_SUBMIT_DIR/mlperf-out)
  --container-image IMG    run mlperf-go (and so the engine it launches) in a container
                           through pyxis/enroot: passed to srun as --container-image
  --container-mounts M     srun --container-mounts (pyxis), e.g. /data:/data,$PWD:$PWD;
                           the binary, the dataset and --out-root must be visible inside
  --srun-arg ARG           one more srun argument (repeatable)
  -h, --help               this help

Outputs, in OUT=<out-root>/$SLURM_JOB_ID:
  run/                     LoadGen's logs, user.conf, mlperf_go_run.json, engine.log
  benchmark.status         outcome=OK|ABORTED|FAILED, exit=N, signal=TERM if one came
  job.txt                  the job id, node, start and end times, and the command

Stopping: SIGTERM to this batch shell (sbatch --signal=B:TERM@SECONDS before
the time limit, or `scancel --batch --signal=TERM JOB`) is forwarded to
mlperf-go, which aborts the LoadGen test, keeps its logs, and stops the
engine (SIGTERM, then SIGKILL after --engine-stop-grace). `scancel
--signal=TERM JOB` signals mlperf-go directly through its job step.
EOF
}

die() { echo "benchmark.sh: $*" >&2; exit 2; }

BIN=${MLPERF_GO_BIN:-mlperf-go}
OUT_ROOT=""
SRUN_ARGS=()
while [[ $# -gt 0 ]]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --bin) [[ $# -ge 2 ]] || die "--bin needs a PATH"; BIN=$2; shift 2 ;;
    --out-root) [[ $# -ge 2 ]] || die "--out-root needs a DIR"; OUT_ROOT=$2; shift 2 ;;
    --container-image) [[ $# -ge 2 ]] || die "--container-image needs an IMAGE"; SRUN_ARGS+=("--container-image=$2"); shift 2 ;;
    --container-mounts) [[ $# -ge 2 ]] || die "--container-mounts needs MOUNTS"; SRUN_ARGS+=("--container-mounts=$2"); shift 2 ;;
    --srun-arg) [[ $# -ge 2 ]] || die "--srun-arg needs an ARG"; SRUN_ARGS+=("$2"); shift 2 ;;
    --) shift; break ;;
    *) die "unknown option $1 (mlperf-go run arguments go after --; see --help)" ;;
  esac
done
[[ $# -gt 0 ]] || die "no mlperf-go run arguments: add -- --benchmark … (see --help)"
[[ -n ${SLURM_JOB_ID:-} ]] || die "not inside a Slurm job: submit it with sbatch (or scripts/slurm/submit.sh)"
for a in "$@"; do
  case $a in -o|--output-dir|--output-dir=*|-o=*) die "$a: benchmark.sh sets the output directory (see --out-root)" ;; esac
done

OUT_ROOT=${OUT_ROOT:-${SLURM_SUBMIT_DIR:-$PWD}/mlperf-out}
OUT=$OUT_ROOT/$SLURM_JOB_ID
mkdir -p "$OUT" || die "cannot create $OUT"
{
  echo "job=$SLURM_JOB_ID"
  echo "node=$(hostname -s)"
  echo "start=$(date -u +%FT%TZ)"
  printf 'command=%q' "$BIN"; printf ' %q' run "$@" --output-dir "$OUT/run"; echo
} >"$OUT/job.txt"

# mlperf-go runs as a job step in the background, so this shell can take a
# SIGTERM (bash runs traps only between commands, and `wait` returns at once
# when one arrives) and forward it.
SIGNAL=""
STEP=""
# shellcheck disable=SC2317 # called from the traps below
forward() {
  SIGNAL=$1
  echo "benchmark.sh: got SIG$1; forwarding it to mlperf-go (it aborts the test and stops the engine)" >&2
  # Not `kill srun`: srun takes SIGTERM as "kill the step now". scancel
  # without --batch signals the job's steps, i.e. mlperf-go itself.
  if ! scancel --signal="$1" "$SLURM_JOB_ID"; then
    echo "benchmark.sh: scancel failed; ending the step through srun instead" >&2
    [[ -n $STEP ]] && kill -s "$1" "$STEP" 2>/dev/null
  fi
}
trap 'forward TERM' TERM
trap 'forward INT' INT

srun --ntasks=1 --kill-on-bad-exit=1 "${SRUN_ARGS[@]}" "$BIN" run "$@" --output-dir "$OUT/run" &
STEP=$!
# A second SIGTERM (Slurm's own, at the time limit) makes mlperf-go exit at
# once; SIGKILL follows KillWait later.
while :; do
  wait "$STEP"
  rc=$?
  # wait returns >128 when a trapped signal interrupted it; the step may
  # still be running.
  kill -0 "$STEP" 2>/dev/null || break
done
if [[ -n $SIGNAL && $rc -gt 128 ]]; then
  # The step ended while the trap ran: its own status is still to be read.
  wait "$STEP"; r=$?
  [[ $r -ne 127 ]] && rc=$r
fi

if [[ $rc -eq 0 ]]; then
  outcome=OK
elif [[ -n $SIGNAL || $rc -eq 130 ]]; then
  outcome=ABORTED
else
  outcome=FAILED
fi
{
  echo "outcome=$outcome"
  echo "exit=$rc"
  [[ -n $SIGNAL ]] && echo "signal=$SIGNAL"
} >"$OUT/benchmark.status"
echo "end=$(date -u +%FT%TZ)" >>"$OUT/job.txt"
echo "benchmark.sh: $outcome (mlperf-go exit $rc); outputs in $OUT" >&2
exit "$rc"
