#!/usr/bin/env bash
#SBATCH --job-name=mlperf-benchmark
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=1
#SBATCH --signal=B:TERM@300
# (The directives above are defaults for a plain `sbatch benchmark.sh`;
# submit.sh passes its own on the command line, which win. One task per
# node: `sbatch --nodes=N` gives N tasks, one engine replica on each node.)
set -uo pipefail

usage() {
  cat <<'EOT'
benchmark.sh: one MLPerf run inside a Slurm job: mlperf-go launches the engine
(vLLM, SGLang or any command), waits for it, runs the LoadGen test, and stops it.
With --replica-command, one engine replica runs on each node of the job instead,
and mlperf-go, on the job's first node, spreads the requests across them.

Usage: sbatch [SBATCH OPTIONS] benchmark.sh [OPTIONS] -- MLPERF_GO_RUN_ARGS...
       (scripts/slurm/submit.sh submits it for you, followed by evaluate.sh)

The run arguments go to `mlperf-go run`; give --launch (and --engine-arg, …)
there to start the engine inside the job, or --endpoint for a server that
already runs. --output-dir is set by this script.

Options:
  --check                  check the arguments and exit, outside a job (submit.sh does, before
                           it submits)
  --bin PATH               mlperf-go binary (default: $MLPERF_GO_BIN, else mlperf-go on PATH)
  --out-root DIR           outputs go to DIR/$SLURM_JOB_ID (default: $SLURM_SUBMIT_DIR/mlperf-out)
  --container-image IMG    run mlperf-go (and so the engine it launches) in a container
                           through pyxis/enroot: passed to srun as --container-image
  --container-mounts M     srun --container-mounts (pyxis), e.g. /data:/data,$PWD:$PWD;
                           the binary, the dataset and --out-root must be visible inside
  --srun-arg ARG           one more srun argument (repeatable)
  -h, --help               this help

Engine replicas on many nodes (sbatch --nodes=N; submit.sh --nodes N):
  --replica-command CMD    start one engine replica on each node with the shell command
                           CMD ({host} and {port} replaced: --replica-host, --replica-port),
                           as one job step (srun --ntasks-per-node=1); e.g.
                           'vllm serve MODEL --host {host} --port {port} --tensor-parallel-size 8'
  --replica-nodes LIST     the nodes that get a replica, a Slurm hostlist within the job
                           (default: every node of the job)
  --replica-port PORT      the port each replica listens on (default 8000)
  --replica-host HOST      the address each replica listens on (default 0.0.0.0); `node`:
                           each node's own address (Slurm's NodeAddr)
  --replica-ready-timeout SECONDS
                           how long every replica gets to answer /health and list a model
                           in /v1/models (default 1800)
  --replica-stop-grace SECONDS
                           after the run, how long the replicas get after SIGTERM before
                           SIGKILL (default 30)
  --engine NAME            what each replica serves with, for the run record and the
                           submission README, e.g. "vLLM 0.12.0" (default: CMD's program)

  CMD is yours: it carries the engine flags the rules need, which --launch adds
  (vLLM --no-enable-prefix-caching, SGLang --disable-radix-cache, …). The
  harness waits until every replica is ready (a replica that is not is named,
  with what it answers and the end of its log), runs mlperf-go with one
  --endpoint http://<node address>:<port> per replica (requests go to the least
  busy), and stops every replica at the end. A replica that exits mid-run ends
  them all and stops mlperf-go (outcome=FAILED). The run record names the whole
  system: --engine "NAME, one replica on each of N nodes: n1 at ADDR:PORT, …"
  and --engine-flag /bin/sh -c CMD, as a launched command engine is recorded.
  The probes send $OPENAI_API_KEY as a bearer token when it is set.

Outputs, in OUT=<out-root>/$SLURM_JOB_ID:
  run/                     LoadGen's logs, user.conf, mlperf_go_run.json, engine.log
  replicas/NODE.log        each replica's output (with --replica-command)
  benchmark.status         outcome=OK|ABORTED|FAILED, exit=N, signal=TERM if one came; with
                           --replica-command replicas=stopped|killed|ended (by SIGTERM,
                           SIGKILL after the grace, or before this script stopped them),
                           and replica_error=not ready|ended mid-run when they failed the run
  job.txt                  the job id, node(s), replicas, start and end times, and the command

Stopping: SIGTERM to this batch shell (sbatch --signal=B:TERM@SECONDS before
the time limit, or `scancel --batch --signal=TERM JOB`) is forwarded to
mlperf-go, which aborts the LoadGen test, keeps its logs, and stops the
engine (SIGTERM, then SIGKILL after --engine-stop-grace), and to every
replica. `scancel --signal=TERM JOB` signals mlperf-go and the replicas
directly through their job steps.
EOT
}

die() { echo "benchmark.sh: $*" >&2; exit 2; }
whole() { [[ $2 =~ ^[0-9]+$ ]] || die "$1 $2: want whole seconds"; }

BIN=${MLPERF_GO_BIN:-mlperf-go}
OUT_ROOT=""
SRUN_ARGS=()
REPLICA_CMD=""
REPLICA_NODES=""
REPLICA_PORT=8000
REPLICA_HOST=0.0.0.0
REPLICA_READY=1800
REPLICA_GRACE=30
ENGINE_NAME=""
REPLICA_OPTS=() # the replica options given, refused without --replica-command
CHECK=0
while [[ $# -gt 0 ]]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --check) CHECK=1; shift ;;
    --bin) [[ $# -ge 2 ]] || die "--bin needs a PATH"; BIN=$2; shift 2 ;;
    --out-root) [[ $# -ge 2 ]] || die "--out-root needs a DIR"; OUT_ROOT=$2; shift 2 ;;
    --container-image) [[ $# -ge 2 ]] || die "--container-image needs an IMAGE"; SRUN_ARGS+=("--container-image=$2"); shift 2 ;;
    --container-mounts) [[ $# -ge 2 ]] || die "--container-mounts needs MOUNTS"; SRUN_ARGS+=("--container-mounts=$2"); shift 2 ;;
    --srun-arg) [[ $# -ge 2 ]] || die "--srun-arg needs an ARG"; SRUN_ARGS+=("$2"); shift 2 ;;
    --replica-command) [[ $# -ge 2 ]] || die "--replica-command needs a CMD"; REPLICA_CMD=$2; shift 2 ;;
    --replica-nodes) REPLICA_OPTS+=("$1"); [[ $# -ge 2 ]] || die "--replica-nodes needs a LIST"; REPLICA_NODES=$2; shift 2 ;;
    --replica-port) REPLICA_OPTS+=("$1"); [[ $# -ge 2 ]] || die "--replica-port needs a PORT"; REPLICA_PORT=$2; shift 2 ;;
    --replica-host) REPLICA_OPTS+=("$1"); [[ $# -ge 2 ]] || die "--replica-host needs a HOST"; REPLICA_HOST=$2; shift 2 ;;
    --replica-ready-timeout) REPLICA_OPTS+=("$1"); [[ $# -ge 2 ]] || die "$1 needs SECONDS"; whole "$1" "$2"; REPLICA_READY=$2; shift 2 ;;
    --replica-stop-grace) REPLICA_OPTS+=("$1"); [[ $# -ge 2 ]] || die "$1 needs SECONDS"; whole "$1" "$2"; REPLICA_GRACE=$2; shift 2 ;;
    --engine) REPLICA_OPTS+=("$1"); [[ $# -ge 2 ]] || die "--engine needs a NAME"; ENGINE_NAME=$2; shift 2 ;;
    --) shift; break ;;
    *) die "unknown option $1 (mlperf-go run arguments go after --; see --help)" ;;
  esac
done
[[ $# -gt 0 ]] || die "no mlperf-go run arguments: add -- --benchmark … (see --help)"
[[ $CHECK -eq 1 || -n ${SLURM_JOB_ID:-} ]] || die "not inside a Slurm job: submit it with sbatch (or scripts/slurm/submit.sh)"
for a in "$@"; do
  case $a in -o|--output-dir|--output-dir=*|-o=*) die "$a: benchmark.sh sets the output directory (see --out-root)" ;; esac
done
# The flags mlperf-go run requires, checked here so that a job does not
# wait in the queue to be told.
for need in "-b --benchmark" "-d --dataset"; do
  found=""
  for a in "$@"; do
    case $a in "${need% *}" | "${need% *}="* | "${need#* }" | "${need#* }="*) found=1 ;; esac
  done
  [[ -n $found ]] || die "the mlperf-go run arguments lack ${need#* } (${need% *}): add it after -- (mlperf-go run needs it)"
done
if [[ -z $REPLICA_CMD ]]; then
  [[ ${#REPLICA_OPTS[@]} -eq 0 ]] || die "${REPLICA_OPTS[0]} needs --replica-command (the engine each node runs); for one engine, give --launch or --endpoint (and --engine) in the run arguments"
else
  [[ $REPLICA_PORT =~ ^[0-9]+$ && $REPLICA_PORT -ge 1 && $REPLICA_PORT -le 65535 ]] || die "--replica-port $REPLICA_PORT: want a port number"
  for a in "$@"; do
    case $a in
      -e|--endpoint|--endpoint=*|-e=*) die "$a: with --replica-command the replicas are the endpoints; drop it" ;;
      --launch|--launch=*|--engine-config*|--engine-model*|--engine-arg*|--engine-command*|--engine-host*|--engine-port*|--engine-ready-timeout*|--engine-log*|--engine-stop-grace*)
        die "$a: with --replica-command each node runs the engine; drop mlperf-go's own launch flags" ;;
      --engine|--engine=*|--engine-flag|--engine-flag=*)
        die "$a: benchmark.sh records the engine: give --engine NAME to benchmark.sh (before --), the record adds the nodes and the replica command" ;;
    esac
  done
  [[ $CHECK -eq 1 ]] || command -v curl >/dev/null 2>&1 || die "curl not found on $(hostname -s): it probes the replicas' /health and /v1/models"
fi
# --check (submit.sh, before it submits): the arguments are all checked.
[[ $CHECK -eq 0 ]] || exit 0

OUT_ROOT=${OUT_ROOT:-${SLURM_SUBMIT_DIR:-$PWD}/mlperf-out}
OUT=$OUT_ROOT/$SLURM_JOB_ID
mkdir -p "$OUT" || die "cannot create $OUT"

# ---- replicas: where they run and how they are reached ------------------------
NODES=()   # the nodes with a replica
ADDRS=()   # each node's address (Slurm's NodeAddr)
URLS=()    # each replica's base URL
if [[ -n $REPLICA_CMD ]]; then
  mapfile -t JOB_NODES < <(scontrol show hostnames "$SLURM_JOB_NODELIST")
  mapfile -t NODES < <(scontrol show hostnames "${REPLICA_NODES:-$SLURM_JOB_NODELIST}")
  [[ ${#NODES[@]} -gt 0 ]] || die "--replica-nodes ${REPLICA_NODES}: names no node (a Slurm hostlist, e.g. gpu[01-04])"
  for n in "${NODES[@]}"; do
    [[ " ${JOB_NODES[*]} " == *" $n "* ]] || die "--replica-nodes: $n is not in this job's nodes ($SLURM_JOB_NODELIST); ask for it with sbatch --nodelist"
    a=$(scontrol show node -o "$n" 2>/dev/null | tr ' ' '\n' | sed -n 's/^NodeAddr=//p')
    ADDRS+=("${a:-$n}")
    URLS+=("http://${a:-$n}:$REPLICA_PORT")
  done
fi

{
  echo "job=$SLURM_JOB_ID"
  echo "node=$(hostname -s)"
  echo "nodes=${SLURM_JOB_NODELIST:-$(hostname -s)}"
  for i in "${!NODES[@]}"; do echo "replica=${NODES[i]} ${URLS[i]}"; done
  echo "start=$(date -u +%FT%TZ)"
} >"$OUT/job.txt"

# mlperf-go and the replicas run as job steps in the background, so this
# shell can take a SIGTERM (bash runs traps only between commands, and
# `wait` returns at once when one arrives) and forward it.
SIGNAL=""
STEP=""
REPLICAS=""
# shellcheck disable=SC2317 # called from the traps below
forward() {
  SIGNAL=$1
  echo "benchmark.sh: got SIG$1; forwarding it to mlperf-go (it aborts the test and stops the engine)${REPLICAS:+ and to the replicas}" >&2
  # Not `kill srun`: srun takes SIGTERM as "kill the step now". scancel
  # without --batch signals the job's steps, i.e. mlperf-go itself and
  # the replicas.
  if ! scancel --signal="$1" "$SLURM_JOB_ID"; then
    echo "benchmark.sh: scancel failed; ending the steps through srun instead" >&2
    [[ -n $STEP ]] && kill -s "$1" "$STEP" 2>/dev/null
    [[ -n $REPLICAS ]] && kill -s "$1" "$REPLICAS" 2>/dev/null
  fi
}
trap 'forward TERM' TERM
trap 'forward INT' INT

# nap sleeps a little, waking when a trapped signal arrives.
nap() { sleep "${1:-0.5}" & wait $!; }

# ---- replicas: start, wait, stop ----------------------------------------------
# Each task of the replica step runs its node's command through /bin/sh, as
# a launched command engine runs, its output appended to replicas/NODE.log.
# Slurm signals every process of the step: the shell that runs the command
# dies of SIGTERM at once while the engine shuts down, so the task waits for
# the command's whole process group (job control gives it its own), and
# exits 0 once stopped, so that srun's --kill-on-bad-exit cuts short no
# other replica's shutdown, and is reserved for a replica that fails.
# shellcheck disable=SC2016 # expanded by the task's own bash
REPLICA_TASK='
node=${SLURMD_NODENAME:?not a Slurm task}
exec >>"$MLPERF_REPLICA_LOGS/$node.log" 2>&1
host=$MLPERF_REPLICA_HOST
if [[ $host == node ]]; then
  host=""
  for p in $MLPERF_REPLICA_ADDRS; do [[ ${p%%=*} == "$node" ]] && host=${p#*=}; done
fi
[[ -n $host ]] || { echo "benchmark.sh: node $node has no address in: $MLPERF_REPLICA_ADDRS"; exit 2; }
cmd=${MLPERF_REPLICA_CMD//"{host}"/$host}
echo "benchmark.sh: replica on $node: $cmd"
stopping=""
trap "stopping=1" TERM INT
set -m
/bin/sh -c "$cmd" &
pid=$!
while :; do
  wait "$pid"; rc=$?
  kill -0 "$pid" 2>/dev/null || break
done
while kill -0 -- "-$pid" 2>/dev/null; do sleep 0.2; done
if [[ -n $stopping ]]; then
  echo "benchmark.sh: replica on $node stopped (its command exited $rc)"
  exit 0
fi
echo "benchmark.sh: replica on $node exited $rc on its own"
exit $((rc ? rc : 1))
'

start_replicas() {
  local addrs=() list
  for i in "${!NODES[@]}"; do addrs+=("${NODES[i]}=${ADDRS[i]}"); done
  list=$(IFS=,; echo "${NODES[*]}")
  mkdir -p "$OUT/replicas" || die "cannot create $OUT/replicas"
  echo "benchmark.sh: starting ${#NODES[@]} engine replicas, one on each of $list, port $REPLICA_PORT (logs in $OUT/replicas/)" >&2
  MLPERF_REPLICA_CMD=${REPLICA_CMD//"{port}"/$REPLICA_PORT} MLPERF_REPLICA_HOST=$REPLICA_HOST \
    MLPERF_REPLICA_ADDRS="${addrs[*]}" MLPERF_REPLICA_LOGS=$OUT/replicas \
    srun --job-name=mlperf-replicas --nodes="${#NODES[@]}" --ntasks="${#NODES[@]}" --ntasks-per-node=1 \
    --nodelist="$list" --kill-on-bad-exit=1 "${SRUN_ARGS[@]}" bash -c "$REPLICA_TASK" &
  REPLICAS=$!
}

# replica_state URL prints "ready" when the server at URL answers /health
# with 200 and lists a model in /v1/models (mlperf-go's preflight then
# checks it is --model), else what it answers.
replica_state() {
  local auth=() code body
  [[ -n ${OPENAI_API_KEY:-} ]] && auth=(-H "Authorization: Bearer $OPENAI_API_KEY")
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "${auth[@]}" "$1/health")
  [[ $code == 200 ]] || { [[ $code == 000 ]] && echo "no answer on /health" || echo "/health answers $code"; return; }
  body=$(curl -s -w '\n%{http_code}' --max-time 5 "${auth[@]}" "$1/v1/models")
  code=${body##*$'\n'}
  if [[ $code != 200 ]]; then echo "/v1/models answers $code"
  elif [[ $body != *'"id"'* ]]; then echo "/v1/models lists no model yet"
  else echo ready
  fi
}

# tail_log NODE prints the last lines of the node's replica log.
tail_log() {
  local f=$OUT/replicas/$1.log
  if [[ -s $f ]]; then echo "  last lines of $f:"; tail -n "${2:-5}" "$f" | sed 's/^/    /'
  else echo "  no output in $f (the replica did not start?)"
  fi
}

# wait_replicas waits until every replica is ready; it fails naming the
# nodes that are not, with what they answer and the end of their logs.
wait_replicas() {
  local t0=$SECONDS last=$SECONDS ready=() state=() pending i why
  while :; do
    pending=()
    for i in "${!NODES[@]}"; do
      [[ ${ready[i]:-} == 1 ]] && continue
      state[i]=$(replica_state "${URLS[i]}")
      if [[ ${state[i]} == ready ]]; then
        ready[i]=1
        echo "benchmark.sh: replica on ${NODES[i]} ready at ${URLS[i]} after $((SECONDS - t0)) s" >&2
      else
        pending+=("$i")
      fi
    done
    [[ ${#pending[@]} -eq 0 ]] && return 0
    why=""
    if [[ -n $SIGNAL ]]; then
      why="interrupted by SIG$SIGNAL"
    elif ! kill -0 "$REPLICAS" 2>/dev/null; then
      why="the replica step ended (a replica exited)"
    elif ((SECONDS - t0 >= REPLICA_READY)); then
      why="not ready after $REPLICA_READY s (raise --replica-ready-timeout if they are still loading)"
    fi
    if [[ -n $why || $((SECONDS - last)) -ge 15 ]]; then
      last=$SECONDS
      {
        if [[ -n $why ]]; then echo "benchmark.sh: replicas not ready: $why:"
        else echo "benchmark.sh: waiting for ${#pending[@]} of ${#NODES[@]} replicas ($((SECONDS - t0)) s of $REPLICA_READY s):"
        fi
        for i in "${pending[@]}"; do
          echo "  ${NODES[i]} (${URLS[i]}): ${state[i]}"
          [[ -n $why ]] && tail_log "${NODES[i]}"
        done
      } >&2
      [[ -n $why ]] && return 1
    fi
    nap 1
  done
}

# step_id NAME prints the id (JOB.STEP) of this job's step called NAME.
step_id() { squeue -h -s -j "$SLURM_JOB_ID" -o '%i %j' 2>/dev/null | awk -v n="$1" '$2 == n { print $1; exit }'; }

# signal_step PID NAME SIG signals the job step NAME, which srun PID runs,
# through scancel: srun itself takes SIGTERM as "kill the step now", which
# cuts an engine's shutdown short, so squeue is asked again for a few
# seconds (a busy slurmctld can leave a running step out of one answer)
# before srun is signalled. scancel's status is no guide: for a step on
# some of the job's nodes it says "Invalid job id specified" (the other
# nodes have no such step) after the step got the signal, as it does for a
# step that just ended.
signal_step() {
  local id i
  for ((i = 0; i < 5; i++)); do
    id=$(step_id "$2")
    [[ -n $id ]] && break
    kill -0 "$1" 2>/dev/null || return 0 # the step has ended
    nap 0.5
  done
  if [[ -n $id ]]; then
    scancel --signal="$3" "$id" 2>/dev/null
  elif kill -0 "$1" 2>/dev/null; then
    echo "benchmark.sh: squeue does not list job step $2; sending SIG$3 to its srun" >&2
    kill -s "$3" "$1" 2>/dev/null
  fi
  return 0
}

# stop_replicas ends the replica step, SIGTERM then SIGKILL after the
# grace, and sets REPLICA_END: stopped, killed, or ended (before: by a
# signal from outside, or a crash). A first argument says the replicas had
# their SIGTERM already: they get the grace, no second one, which can cut
# an engine's graceful shutdown short.
stop_replicas() {
  local i
  if ! kill -0 "$REPLICAS" 2>/dev/null; then
    REPLICA_END=ended
    wait "$REPLICAS" 2>/dev/null
    return
  fi
  REPLICA_END=stopped
  echo "benchmark.sh: stopping the replicas (SIGTERM; SIGKILL after $REPLICA_GRACE s)" >&2
  [[ -n $1 ]] || signal_step "$REPLICAS" mlperf-replicas TERM
  for ((i = 0; i < REPLICA_GRACE * 5; i++)); do
    kill -0 "$REPLICAS" 2>/dev/null || break
    sleep 0.2
  done
  if kill -0 "$REPLICAS" 2>/dev/null; then
    REPLICA_END=killed
    echo "benchmark.sh: replicas still running after $REPLICA_GRACE s; sending SIGKILL" >&2
    signal_step "$REPLICAS" mlperf-replicas KILL
    for ((i = 0; i < 50; i++)); do kill -0 "$REPLICAS" 2>/dev/null || break; sleep 0.2; done
    kill -s KILL "$REPLICAS" 2>/dev/null
  fi
  wait "$REPLICAS" 2>/dev/null
}

# record_args prints, NUL-separated, the run arguments that name the
# replicas: one --endpoint each, and the whole system for the run record
# and the submission README (--engine, --engine-flag).
record_args() {
  local where="" i
  for i in "${!NODES[@]}"; do where+="${where:+, }${NODES[i]} at ${URLS[i]#http://}"; done
  printf '%s\0' --engine "${ENGINE_NAME:-$(basename "${REPLICA_CMD%% *}")}, one replica on each of ${#NODES[@]} nodes: $where (Slurm job $SLURM_JOB_ID)" \
    --engine-flag=/bin/sh --engine-flag=-c "--engine-flag=${REPLICA_CMD//"{port}"/$REPLICA_PORT}"
  for i in "${URLS[@]}"; do printf '%s\0' --endpoint "$i"; done
}

# ---- the run ------------------------------------------------------------------
RUN_ARGS=("$@")
HARNESS=(srun --ntasks=1 --kill-on-bad-exit=1)
REPLICA_END=""   # how the replicas ended
REPLICA_ERROR="" # why they failed the run
rc=""
if [[ -n $REPLICA_CMD ]]; then
  start_replicas
  if wait_replicas; then
    mapfile -d '' -t extra < <(record_args)
    RUN_ARGS+=("${extra[@]}")
    # The harness shares the job's first node with that node's replica.
    HARNESS=(srun --job-name=mlperf-go-run --nodes=1 --ntasks=1 --nodelist="${SLURMD_NODENAME:-$(hostname -s)}" --overlap --kill-on-bad-exit=1)
  else
    rc=1
    [[ -n $SIGNAL ]] && rc=130
    REPLICA_ERROR="not ready"
  fi
fi
{ printf '%q' "$BIN"; printf ' %q' run "${RUN_ARGS[@]}" --output-dir "$OUT/run"; echo; } >>"$OUT/job.txt"

if [[ -z $rc ]]; then
  "${HARNESS[@]}" "${SRUN_ARGS[@]}" "$BIN" run "${RUN_ARGS[@]}" --output-dir "$OUT/run" &
  STEP=$!
  # Polled rather than waited for: a replica step that ends mid-run stops
  # the harness, whose requests could only fail from then on.
  replicas_gone=""
  stopped_harness=""
  while kill -0 "$STEP" 2>/dev/null; do
    if [[ -n $REPLICAS && -z $replicas_gone ]] && ! kill -0 "$REPLICAS" 2>/dev/null; then
      replicas_gone=1
      # `scancel --signal=TERM JOB` ends both steps: mlperf-go gets the
      # time to abort on its own before it is stopped here.
      for ((i = 0; i < 20; i++)); do kill -0 "$STEP" 2>/dev/null || break; nap 0.5; done
      if kill -0 "$STEP" 2>/dev/null; then
        echo "benchmark.sh: the replica step ended mid-run; stopping mlperf-go" >&2
        signal_step "$STEP" mlperf-go-run TERM
        stopped_harness=1
      fi
    fi
    nap 0.5
  done
  wait "$STEP"
  rc=$?
  # Replicas that ended first, with no SIGTERM that ended mlperf-go too,
  # failed the run.
  if [[ -n $replicas_gone && -z $SIGNAL ]] && [[ $rc -ne 130 || -n $stopped_harness ]]; then
    REPLICA_ERROR="ended mid-run"
    { echo "benchmark.sh: the replicas ended before mlperf-go:"; for n in "${NODES[@]}"; do tail_log "$n"; done; } >&2
  fi
fi
# The replicas got the SIGTERM that ended mlperf-go (130) too: from this
# shell's forward, or from `scancel --signal=TERM JOB`. (A SIGTERM sent to
# mlperf-go's step alone leaves them to SIGKILL after the grace.)
signalled=""
[[ -n $SIGNAL || $rc -eq 130 ]] && [[ $REPLICA_ERROR != "ended mid-run" ]] && signalled=1
[[ -n $REPLICAS ]] && stop_replicas "$signalled"

if [[ $rc -eq 0 ]]; then
  outcome=OK
elif [[ -n $REPLICA_ERROR && -z $SIGNAL ]]; then
  outcome=FAILED
elif [[ -n $SIGNAL || $rc -eq 130 ]]; then
  outcome=ABORTED
else
  outcome=FAILED
fi
{
  echo "outcome=$outcome"
  echo "exit=$rc"
  [[ -n $SIGNAL ]] && echo "signal=$SIGNAL"
  [[ -n $REPLICAS ]] && echo "replicas=$REPLICA_END"
  [[ -n $REPLICA_ERROR ]] && echo "replica_error=$REPLICA_ERROR"
} >"$OUT/benchmark.status"
echo "end=$(date -u +%FT%TZ)" >>"$OUT/job.txt"
if [[ -n $STEP ]]; then
  echo "benchmark.sh: $outcome (mlperf-go exit $rc); outputs in $OUT" >&2
else
  echo "benchmark.sh: $outcome (the replicas were not ready: mlperf-go did not run); outputs in $OUT" >&2
fi
# mlperf-go stopped here because its replicas failed: a failure, not an
# interruption.
[[ $outcome == FAILED && $rc -eq 130 ]] && exit 1
exit "$rc"
