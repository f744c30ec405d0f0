#!/usr/bin/env bash
#SBATCH --job-name=mlperf-bench
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --signal=B:TERM@120
# (Defaults for a plain `sbatch bench.sh`; sbatch's own flags win: --nodes=N gives N
# bench processes, one on each node.)
set -uo pipefail

usage() {
  cat <<'EOT'
bench.sh: one `mlperf-go bench` job sent from every node of a Slurm job at once, then merged:
srun starts one bench process per node, each sending its part of the workload (--shard
$SLURM_PROCID/$SLURM_NTASKS) at its share of the load; they meet before each run in a folder
of the job's output (--rendezvous) and start together; `mlperf-go bench merge` then joins
their results exactly (every percentile from every request, throughput over the union of
their windows, each node's own figures beside).

Usage: sbatch --nodes N [SBATCH OPTIONS] bench.sh [OPTIONS] -- MLPERF_GO_BENCH_ARGS...

The bench arguments are those of one process sending the whole job: the targets, the
workload, the load (--concurrency and --rate are the whole job's). --shard, --rendezvous,
--host-name and --out are set by this script.

Options:
  --bin PATH               mlperf-go binary (default: $MLPERF_GO_BIN, else mlperf-go on PATH)
  --out-root DIR           outputs go to DIR/$SLURM_JOB_ID (default: $SLURM_SUBMIT_DIR/mlperf-out);
                           every node must see it (a shared file system): the rendezvous
                           folder and the nodes' results are there
  --rendezvous-timeout D   how long each process waits for the others before each run
                           (bench --rendezvous-timeout; default 10m)
  --srun-arg ARG           one more srun argument for the bench step (repeatable), e.g.
                           --srun-arg=--container-image=IMG
  -h, --help               this help

Outputs, in OUT=<out-root>/$SLURM_JOB_ID:
  hosts/RANK-NODE/         each node's results (results.json, requests-*.jsonl, report.html)
  hosts/RANK.log           each node's bench output
  rendezvous/              the processes' ready files, run by run
  merged/                  the job's results: results.json, requests-*.jsonl, report.html
  bench.status             outcome=OK|FAILED|ABORTED, exit=N (bench's: 1 when requests
                           failed), merge_exit=N, signal=TERM if one came
  job.txt                  the job id, nodes, start and end times, and the command

Stopping: SIGTERM to this batch shell (sbatch --signal=B:TERM@SECONDS, or `scancel --batch
--signal=TERM JOB`) is forwarded to every bench process, which keeps the runs that finished
(marked interrupted, so they are not merged) and exits 130.
EOT
}

die() { echo "bench.sh: $*" >&2; exit 2; }

BIN=${MLPERF_GO_BIN:-mlperf-go}
OUT_ROOT=""
TIMEOUT=10m
SRUN_ARGS=()
while [[ $# -gt 0 ]]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --bin) [[ $# -ge 2 ]] || die "--bin needs a PATH"; BIN=$2; shift 2 ;;
    --out-root) [[ $# -ge 2 ]] || die "--out-root needs a DIR"; OUT_ROOT=$2; shift 2 ;;
    --rendezvous-timeout) [[ $# -ge 2 ]] || die "--rendezvous-timeout needs a DURATION"; TIMEOUT=$2; shift 2 ;;
    --srun-arg) [[ $# -ge 2 ]] || die "--srun-arg needs an ARG"; SRUN_ARGS+=("$2"); shift 2 ;;
    --) shift; break ;;
    *) die "unknown option $1 (mlperf-go bench arguments go after --; see --help)" ;;
  esac
done
[[ $# -gt 0 ]] || die "no mlperf-go bench arguments: add -- --target NAME=URL … (see --help)"
[[ -n ${SLURM_JOB_ID:-} ]] || die "not inside a Slurm job: submit it with sbatch --nodes N"
for a in "$@"; do
  case $a in
    --shard|--shard=*|--rendezvous|--rendezvous=*|--host-name|--host-name=*|-o|-o=*|--out|--out=*|--result-dir|--result-dir=*)
      die "$a: bench.sh sets it (each node's --shard, --rendezvous, --host-name and --out; see --out-root)" ;;
  esac
done
command -v "$BIN" >/dev/null 2>&1 || [[ -x $BIN ]] || die "$BIN not found: give --bin PATH or set MLPERF_GO_BIN"

OUT_ROOT=${OUT_ROOT:-${SLURM_SUBMIT_DIR:-$PWD}/mlperf-out}
OUT=$OUT_ROOT/$SLURM_JOB_ID
mkdir -p "$OUT/hosts" || die "cannot create $OUT"
NODES=${SLURM_JOB_NUM_NODES:-1}
{
  echo "job=$SLURM_JOB_ID"
  echo "nodes=${SLURM_JOB_NODELIST:-$(hostname -s)}"
  echo "start=$(date -u +%FT%TZ)"
  printf 'command=%q' "$BIN"; printf ' %q' bench "$@"; echo
} >"$OUT/job.txt"

# The bench step runs in the background so this shell can take a SIGTERM
# (bash runs traps only between commands; `wait` returns when one comes)
# and forward it to the step's processes.
SIGNAL=""
STEP=""
# shellcheck disable=SC2317 # called from the traps below
forward() {
  SIGNAL=$1
  echo "bench.sh: got SIG$1; forwarding it to the bench processes (they keep the runs that finished)" >&2
  # Not `kill srun`: srun takes SIGTERM as "kill the step now".
  if ! scancel --signal="$1" "$SLURM_JOB_ID"; then
    [[ -n $STEP ]] && kill -s "$1" "$STEP" 2>/dev/null
  fi
}
trap 'forward TERM' TERM
trap 'forward INT' INT

# Each task: shard SLURM_PROCID of SLURM_NTASKS, named after its node.
# shellcheck disable=SC2016 # expanded by the task's own bash
TASK='
rank=${SLURM_PROCID:?not a Slurm task}
node=${SLURMD_NODENAME:-$(hostname -s)}
exec "$0" bench --shard "$rank/$SLURM_NTASKS" --host-name "$node" --rendezvous "$OUT/rendezvous" \
  --rendezvous-timeout "$TIMEOUT" --out "$OUT/hosts/$rank-$node" --progress-interval 30s "$@" >"$OUT/hosts/$rank.log" 2>&1
'
export OUT TIMEOUT
srun --job-name=mlperf-bench --nodes="$NODES" --ntasks="$NODES" --ntasks-per-node=1 "${SRUN_ARGS[@]}" \
  bash -c "$TASK" "$BIN" "$@" &
STEP=$!
rc=0
while :; do
  wait "$STEP"; rc=$?
  # A trapped signal makes wait return early (status > 128) while the step runs on.
  kill -0 "$STEP" 2>/dev/null || break
done

for log in "$OUT"/hosts/*.log; do
  [[ -f $log ]] && { echo "--- $(basename "$log" .log): last lines"; tail -n 3 "$log"; }
done
merge_rc=0
mapfile -t HOSTS < <(find "$OUT/hosts" -mindepth 1 -maxdepth 1 -type d | sort)
if [[ -z $SIGNAL ]]; then
  "$BIN" bench merge --out "$OUT/merged" "${HOSTS[@]}"
  merge_rc=$?
fi

outcome=OK
if [[ -n $SIGNAL ]]; then
  outcome=ABORTED
elif [[ $rc -ne 0 || $merge_rc -ne 0 ]]; then
  outcome=FAILED
fi
{
  echo "outcome=$outcome"
  echo "exit=$rc"
  echo "merge_exit=$merge_rc"
  [[ -n $SIGNAL ]] && echo "signal=$SIGNAL"
} >"$OUT/bench.status"
echo "end=$(date -u +%FT%TZ)" >>"$OUT/job.txt"
echo "bench.sh: $outcome; the job's results: $OUT/merged"
if [[ -n $SIGNAL ]]; then exit 130; fi
if [[ $rc -ne 0 ]]; then exit "$rc"; fi
exit "$merge_rc"
