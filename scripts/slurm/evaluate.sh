#!/usr/bin/env bash
#SBATCH --job-name=mlperf-evaluate
#SBATCH --nodes=1
#SBATCH --ntasks=1
set -uo pipefail

usage() {
  cat <<'EOF'
evaluate.sh: check and score a finished benchmark.sh run, as a Slurm job that
runs only if the benchmark job succeeded (submit.sh submits it with
--dependency=afterok:BENCHMARK_JOB).

Usage: sbatch --dependency=afterok:JOB [SBATCH OPTIONS] evaluate.sh --run-dir DIR [OPTIONS] [-- EVALUATE_ARGS...]

An accuracy run (a non-empty mlperf_log_accuracy.json) with EVALUATE_ARGS is
scored with `mlperf-go evaluate -l DIR/mlperf_log_accuracy.json EVALUATE_ARGS`
(give --benchmark and --dataset there, as in the run). Any run has its LoadGen
result checked: the summary's "Result is" line, or the accuracy log for
accuracy runs.

Options:
  --run-dir DIR            the benchmark's run directory (<out-root>/<benchmark job>/run)
  --bin PATH               mlperf-go binary (default: $MLPERF_GO_BIN, else mlperf-go on PATH)
  --out-root DIR           outputs go to DIR/$SLURM_JOB_ID (default: $SLURM_SUBMIT_DIR/mlperf-out)
  --container-image IMG    srun --container-image (pyxis/enroot)
  --container-mounts M     srun --container-mounts (pyxis)
  --srun-arg ARG           one more srun argument (repeatable)
  -h, --help               this help

Outputs, in <out-root>/$SLURM_JOB_ID: evaluate.txt (what was checked and the
result), accuracy.txt (scored accuracy runs), evaluate.status (outcome=OK|FAILED).
EOF
}

die() { echo "evaluate.sh: $*" >&2; exit 2; }

BIN=${MLPERF_GO_BIN:-mlperf-go}
OUT_ROOT=""
RUN_DIR=""
SRUN_ARGS=()
while [[ $# -gt 0 ]]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --run-dir) [[ $# -ge 2 ]] || die "--run-dir needs a DIR"; RUN_DIR=$2; shift 2 ;;
    --bin) [[ $# -ge 2 ]] || die "--bin needs a PATH"; BIN=$2; shift 2 ;;
    --out-root) [[ $# -ge 2 ]] || die "--out-root needs a DIR"; OUT_ROOT=$2; shift 2 ;;
    --container-image) [[ $# -ge 2 ]] || die "--container-image needs an IMAGE"; SRUN_ARGS+=("--container-image=$2"); shift 2 ;;
    --container-mounts) [[ $# -ge 2 ]] || die "--container-mounts needs MOUNTS"; SRUN_ARGS+=("--container-mounts=$2"); shift 2 ;;
    --srun-arg) [[ $# -ge 2 ]] || die "--srun-arg needs an ARG"; SRUN_ARGS+=("$2"); shift 2 ;;
    --) shift; break ;;
    *) die "unknown option $1 (mlperf-go evaluate arguments go after --; see --help)" ;;
  esac
done
[[ -n $RUN_DIR ]] || die "--run-dir DIR is required (the benchmark job's <out-root>/<job>/run)"
[[ -n ${SLURM_JOB_ID:-} ]] || die "not inside a Slurm job: submit it with sbatch (or scripts/slurm/submit.sh)"

OUT_ROOT=${OUT_ROOT:-${SLURM_SUBMIT_DIR:-$PWD}/mlperf-out}
OUT=$OUT_ROOT/$SLURM_JOB_ID
mkdir -p "$OUT" || die "cannot create $OUT"
REPORT=$OUT/evaluate.txt

finish() {
  echo "outcome=$1" >"$OUT/evaluate.status"
  echo "evaluate.sh: $1; report in $REPORT" >&2
  [[ $1 == OK ]]
  exit $?
}

{
  echo "job=$SLURM_JOB_ID"
  echo "run_dir=$RUN_DIR"
  echo "start=$(date -u +%FT%TZ)"
} >"$REPORT"

# check_run DIR [EVALUATE_ARGS...]: checks (and, for an accuracy run with
# arguments, scores) one run's logs; returns 0 when they are OK.
check_run() {
  local dir=$1
  shift
  local acc=$dir/mlperf_log_accuracy.json summary=$dir/mlperf_log_summary.txt result rc
  echo "run=$dir" >>"$REPORT"
  if [[ ! -f $dir/mlperf_log_detail.txt ]]; then
    echo "evaluate.sh: $dir has no LoadGen logs (mlperf_log_detail.txt): did the benchmark job run?" | tee -a "$REPORT" >&2
    return 1
  fi
  # LoadGen leaves the accuracy log nearly empty ("[]") in performance runs.
  if [[ -f $acc && $(stat -c %s "$acc") -gt 8 ]]; then
    echo "kind=accuracy" >>"$REPORT"
    if [[ $# -eq 0 ]]; then
      if [[ -f $dir/accuracy.txt ]]; then
        echo "accuracy log present and already scored by the run ($dir/accuracy.txt)" >>"$REPORT"
        cp "$dir/accuracy.txt" "$OUT/accuracy.txt"
        # The run's own verdict (mlperf_go_run.json) says whether it passed.
        if grep -q '"pass": false' "$dir/mlperf_go_run.json" 2>/dev/null; then
          echo "the run's accuracy verdict is FAIL (see $dir/mlperf_go_run.json)" | tee -a "$REPORT" >&2
          return 1
        fi
        return 0
      fi
      echo "accuracy log present ($acc); not scored: no evaluate arguments given (pass -- --benchmark B --dataset D)" >>"$REPORT"
      return 0
    fi
    srun --ntasks=1 "${SRUN_ARGS[@]}" "$BIN" evaluate --accuracy-log "$acc" --output "$OUT/accuracy.txt" "$@" 2>&1 | tee -a "$REPORT"
    rc=${PIPESTATUS[0]}
    echo "evaluate_exit=$rc" >>"$REPORT"
    return "$rc"
  fi
  echo "kind=performance" >>"$REPORT"
  result=$(grep -m1 '^Result is' "$summary" 2>/dev/null)
  if [[ -z $result ]]; then
    echo "no 'Result is' line in $summary" | tee -a "$REPORT" >&2
    return 1
  fi
  echo "$result" | tee -a "$REPORT"
  [[ $result == *VALID* && $result != *INVALID* ]]
}

# A run with --mode both keeps its two tests in accuracy/ and performance/:
# both must be OK.
if [[ ! -f $RUN_DIR/mlperf_log_detail.txt && -d $RUN_DIR/accuracy && -d $RUN_DIR/performance ]]; then
  echo "mode=both" >>"$REPORT"
  ok=OK
  check_run "$RUN_DIR/accuracy" "$@" || ok=FAILED
  check_run "$RUN_DIR/performance" || ok=FAILED
  finish "$ok"
fi
check_run "$RUN_DIR" "$@" && finish OK
finish FAILED
