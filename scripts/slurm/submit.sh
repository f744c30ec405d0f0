#!/usr/bin/env bash
set -euo pipefail

usage() {
  cat <<'EOF'
submit.sh: submit an MLPerf run to Slurm: benchmark.sh (mlperf-go launches the
engine and runs the test), then evaluate.sh, which runs only if the benchmark
succeeded (--dependency=afterok).

Usage: scripts/slurm/submit.sh [OPTIONS] -- MLPERF_GO_RUN_ARGS...

Example (Qwen3-VL on vLLM, 8 GPUs, 4 hours):
  scripts/slurm/submit.sh --time 04:00:00 --sbatch-arg=--gpus=8 \
    --evaluate-arg=-b --evaluate-arg=qwen3-vl-235b-a22b --evaluate-arg=-d --evaluate-arg=/data/shopify \
    -- -b qwen3-vl-235b-a22b -s Offline -m accuracy -d /data/shopify \
       --launch vllm --engine-arg=--tensor-parallel-size --engine-arg=8

Example (4 nodes, one vLLM replica on each, requests spread across them; the
replica command is yours, so it carries the flags the rules need, which --launch adds):
  flags='--host {host} --port {port} --tensor-parallel-size 8 --no-enable-prefix-caching --limit-mm-per-prompt.video 0'
  scripts/slurm/submit.sh --time 04:00:00 --nodes 4 --sbatch-arg=--gpus-per-node=8 --engine "vLLM 0.12.0" \
    --replica-command "vllm serve Qwen/Qwen3-VL-235B-A22B-Instruct $flags" \
    -- -b qwen3-vl-235b-a22b -s Offline -m performance -d /data/shopify

Options:
  --time T                 benchmark job time limit (sbatch --time; default 02:00:00)
  --signal-lead SECONDS    SIGTERM the benchmark's batch shell this long before the time
                           limit (sbatch --signal=B:TERM@SECONDS; default 300), so the run
                           aborts cleanly, keeps its logs and stops the engine
  --out-root DIR           outputs go to DIR/<job id> (default: ./mlperf-out)
  --bin PATH               mlperf-go binary (default: $MLPERF_GO_BIN, mlperf-go on PATH,
                           else this checkout's build/bin/mlperf-go)
  --sbatch-arg ARG         one more sbatch argument for both jobs (repeatable), e.g.
                           --sbatch-arg=--partition=gpu --sbatch-arg=--gpus=8
  --evaluate-arg ARG       one `mlperf-go evaluate` argument (repeatable), to score an accuracy
                           run (default: the run arguments' --benchmark, --dataset,
                           --dataset-split, --tokenizer and --tokenizer-model)
  --no-evaluate            submit the benchmark job alone
  --nodes N                the benchmark job's node count (sbatch --nodes=N, one task per
                           node; default 1); with --replica-command, one engine replica runs
                           on each node and mlperf-go, on the first, spreads requests across them
  --replica-command CMD, --replica-nodes LIST, --replica-port PORT, --replica-host HOST,
  --replica-ready-timeout SECONDS, --replica-stop-grace SECONDS, --engine NAME
                           passed to benchmark.sh: the engine replicas (see benchmark.sh --help)
  --container-image IMG    run both jobs' steps in a container (pyxis/enroot srun flag)
  --container-mounts M     pyxis --container-mounts; the binary, dataset and --out-root
                           must be visible inside
  --dry-run                print the sbatch commands instead of running them
  -h, --help               this help

Before submitting, it checks --time and the arguments as the jobs would (benchmark.sh
--check), so that a mistake does not wait in the queue to show. It prints the job ids; the
last line is "jobs: BENCHMARK_JOB [EVALUATE_JOB]".
Outputs: <out-root>/<benchmark job>/{run/,benchmark.status,job.txt},
<out-root>/<evaluate job>/{evaluate.txt,evaluate.status,accuracy.txt},
and each job's Slurm output in <out-root>/slurm-<job>.out.
EOF
}

die() { echo "submit.sh: $*" >&2; exit 2; }

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TIME=02:00:00
LEAD=300
OUT_ROOT=$PWD/mlperf-out
BIN=${MLPERF_GO_BIN:-}
SBATCH_ARGS=()
EVAL_ARGS=()
CONTAINER=()
EVALUATE=1
DRY=0
NODES=""
REPLICA=() # benchmark.sh's replica options, as given
while [[ $# -gt 0 ]]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --time) [[ $# -ge 2 ]] || die "--time needs a value"; TIME=$2; shift 2 ;;
    --time=*) TIME=${1#*=}; shift ;;
    --signal-lead) [[ $# -ge 2 ]] || die "--signal-lead needs SECONDS"; LEAD=$2; shift 2 ;;
    --signal-lead=*) LEAD=${1#*=}; shift ;;
    --out-root) [[ $# -ge 2 ]] || die "--out-root needs a DIR"; OUT_ROOT=$2; shift 2 ;;
    --out-root=*) OUT_ROOT=${1#*=}; shift ;;
    --bin) [[ $# -ge 2 ]] || die "--bin needs a PATH"; BIN=$2; shift 2 ;;
    --bin=*) BIN=${1#*=}; shift ;;
    --sbatch-arg) [[ $# -ge 2 ]] || die "--sbatch-arg needs an ARG"; SBATCH_ARGS+=("$2"); shift 2 ;;
    --sbatch-arg=*) SBATCH_ARGS+=("${1#*=}"); shift ;;
    --evaluate-arg) [[ $# -ge 2 ]] || die "--evaluate-arg needs an ARG"; EVAL_ARGS+=("$2"); shift 2 ;;
    --evaluate-arg=*) EVAL_ARGS+=("${1#*=}"); shift ;;
    --no-evaluate) EVALUATE=0; shift ;;
    --nodes) [[ $# -ge 2 ]] || die "--nodes needs N"; NODES=$2; shift 2 ;;
    --nodes=*) NODES=${1#*=}; shift ;;
    --replica-command|--replica-nodes|--replica-port|--replica-host|--replica-ready-timeout|--replica-stop-grace|--engine)
      [[ $# -ge 2 ]] || die "$1 needs a value"; REPLICA+=("$1" "$2"); shift 2 ;;
    --replica-*=*|--engine=*) REPLICA+=("${1%%=*}" "${1#*=}"); shift ;;
    --container-image|--container-mounts) [[ $# -ge 2 ]] || die "$1 needs a value"; CONTAINER+=("$1" "$2"); shift 2 ;;
    --dry-run) DRY=1; shift ;;
    --) shift; break ;;
    *) die "unknown option $1 (mlperf-go run arguments go after --; see --help)" ;;
  esac
done
[[ $# -gt 0 ]] || die "no mlperf-go run arguments: add -- --benchmark … (see --help)"
[[ $LEAD =~ ^[0-9]+$ ]] || die "--signal-lead $LEAD: want whole seconds"
[[ -z $NODES || $NODES =~ ^[1-9][0-9]*$ ]] || die "--nodes $NODES: want a node count"

# time_seconds T prints sbatch --time T in seconds, -1 for no limit; it
# fails for what sbatch does not take (MINUTES, MINUTES:SECONDS,
# HOURS:MINUTES:SECONDS, DAYS-HOURS, DAYS-HOURS:MINUTES,
# DAYS-HOURS:MINUTES:SECONDS; sbatch(1)).
time_seconds() {
  local d=0 h=0 m=0 sec=0 n='(0|[1-9][0-9]*|0[0-9]+)'
  if [[ ${1^^} =~ ^(UNLIMITED|INFINITE|-1)$ ]]; then echo -1; return; fi
  if [[ $1 =~ ^$n$ ]]; then m=${BASH_REMATCH[1]}
  elif [[ $1 =~ ^$n:$n$ ]]; then m=${BASH_REMATCH[1]} sec=${BASH_REMATCH[2]}
  elif [[ $1 =~ ^$n:$n:$n$ ]]; then h=${BASH_REMATCH[1]} m=${BASH_REMATCH[2]} sec=${BASH_REMATCH[3]}
  elif [[ $1 =~ ^$n-$n$ ]]; then d=${BASH_REMATCH[1]} h=${BASH_REMATCH[2]}
  elif [[ $1 =~ ^$n-$n:$n$ ]]; then d=${BASH_REMATCH[1]} h=${BASH_REMATCH[2]} m=${BASH_REMATCH[3]}
  elif [[ $1 =~ ^$n-$n:$n:$n$ ]]; then d=${BASH_REMATCH[1]} h=${BASH_REMATCH[2]} m=${BASH_REMATCH[3]} sec=${BASH_REMATCH[4]}
  else return 1
  fi
  echo $(((10#$d * 24 + 10#$h) * 3600 + 10#$m * 60 + 10#$sec))
}
LIMIT=$(time_seconds "$TIME") ||
  die "--time $TIME: sbatch takes MINUTES, MINUTES:SECONDS, HOURS:MINUTES:SECONDS, DAYS-HOURS, DAYS-HOURS:MINUTES or DAYS-HOURS:MINUTES:SECONDS (e.g. --time 04:00:00, --time 1-00:00:00)"
[[ $LIMIT -le 0 || $LEAD -lt $LIMIT ]] ||
  die "--signal-lead $LEAD s is not less than --time $TIME ($LIMIT s): the SIGTERM would come before the run; lower --signal-lead or raise --time"
# benchmark.sh checks its arguments and the run's as the job would, before
# anything waits in the queue.
"$BASH" "$HERE/benchmark.sh" --check "${REPLICA[@]}" -- "$@" || exit 2

# run_values FLAG SHORT ARGS... prints, one a line, the values the run
# arguments give FLAG (--dataset D, --dataset=D, -d D, -d=D).
run_values() {
  local long=$1 short=$2
  shift 2
  while [[ $# -gt 0 ]]; do
    case $1 in
      "$long" | "$short") [[ $# -ge 2 ]] && printf '%s\n' "$2"; shift ;;
      "$long="* | "$short="*) printf '%s\n' "${1#*=}" ;;
    esac
    shift
  done
}
# Without --evaluate-arg, the evaluate job is given what it needs of the
# run's arguments: the benchmark, dataset, splits and tokenizer.
if [[ $EVALUATE -eq 1 && ${#EVAL_ARGS[@]} -eq 0 ]]; then
  for f in "--benchmark -b" "--dataset -d" "--dataset-split -" "--tokenizer -" "--tokenizer-model -"; do
    while IFS= read -r v; do EVAL_ARGS+=("${f% *}" "$v"); done < <(run_values "${f% *}" "${f#* }" "$@")
  done
fi

if [[ -z $BIN ]]; then
  if command -v mlperf-go >/dev/null 2>&1; then
    BIN=$(command -v mlperf-go)
  else
    BIN=$(cd "$HERE/../.." && pwd)/build/bin/mlperf-go
  fi
fi
# The job runs on another node, from a copy of the script: give it an
# absolute path.
[[ $BIN == /* ]] || BIN=$PWD/$BIN
[[ -x $BIN || ${#CONTAINER[@]} -gt 0 ]] || die "mlperf-go not found at $BIN: run make, or pass --bin PATH"
[[ $OUT_ROOT == /* ]] || OUT_ROOT=$PWD/$OUT_ROOT
# Without Slurm's client tools bash would only say "sbatch: command not
# found", after the output folder was made.
[[ $DRY -eq 1 ]] || command -v sbatch >/dev/null 2>&1 ||
  die "sbatch not found on PATH: submit.sh submits Slurm jobs, so run it where Slurm's client tools are (a login node); --dry-run prints the sbatch commands instead"
[[ $DRY -eq 1 ]] || mkdir -p "$OUT_ROOT"

COMMON=(--bin "$BIN" --out-root "$OUT_ROOT" "${CONTAINER[@]}")
NODE_ARGS=()
[[ -n $NODES ]] && NODE_ARGS=(--nodes="$NODES" --ntasks-per-node=1)
bench_cmd=(sbatch --parsable --time="$TIME" --signal="B:TERM@$LEAD" --output="$OUT_ROOT/slurm-%j.out"
  "${NODE_ARGS[@]}" "${SBATCH_ARGS[@]}" "$HERE/benchmark.sh" "${COMMON[@]}" "${REPLICA[@]}" -- "$@")

if [[ $DRY -eq 1 ]]; then
  printf '%q ' "${bench_cmd[@]}"; echo
  if [[ $EVALUATE -eq 1 ]]; then
    printf '%q ' sbatch --parsable --dependency=afterok:BENCHMARK_JOB --output="$OUT_ROOT/slurm-%j.out" "${SBATCH_ARGS[@]}" \
      "$HERE/evaluate.sh" --run-dir "$OUT_ROOT/BENCHMARK_JOB/run" "${COMMON[@]}" -- "${EVAL_ARGS[@]}"; echo
  fi
  exit 0
fi

bench=$("${bench_cmd[@]}")
bench=${bench%%;*} # --parsable prints JOB[;CLUSTER]
echo "benchmark job $bench: outputs in $OUT_ROOT/$bench (Slurm log $OUT_ROOT/slurm-$bench.out)"
if [[ $EVALUATE -eq 0 ]]; then
  echo "jobs: $bench"
  exit 0
fi
eval_job=$(sbatch --parsable --dependency="afterok:$bench" --output="$OUT_ROOT/slurm-%j.out" "${SBATCH_ARGS[@]}" \
  "$HERE/evaluate.sh" --run-dir "$OUT_ROOT/$bench/run" "${COMMON[@]}" -- "${EVAL_ARGS[@]}")
eval_job=${eval_job%%;*}
echo "evaluate job $eval_job: runs if $bench succeeds; outputs in $OUT_ROOT/$eval_job"
echo "jobs: $bench $eval_job"
