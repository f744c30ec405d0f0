#!/usr/bin/env bash
# The Slurm scripts (scripts/slurm/) on a real two-node Slurm: munged,
# slurmctld and two slurmd (nodes n1 and n2, on 127.0.0.1 and 127.0.0.2)
# started here as root from Debian's slurm-wlm and munge, with everything
# under a temporary folder, and stopped at the end.
#
#   1. submit.sh with the fake endpoint as the launched engine: the benchmark
#      job runs, then (afterok) the evaluate job; both leave their outputs.
#   2. SIGTERM to the benchmark's batch shell mid-run (what sbatch
#      --signal=B:TERM@N delivers; sent here with scancel --batch): the run
#      aborts, the engine stops, the folder is marked aborted, well inside
#      KillWait, and the evaluate job never runs.
#   3. SIGTERM to the job step (scancel --signal=TERM): the same.
#   4. submit.sh --nodes 2 --replica-command: a fake endpoint on each node,
#      mlperf-go on n1 waits for both and spreads the run across them: both
#      serve requests, the run is VALID, both stop at the end, and the run
#      record names the nodes, their endpoints and the replica command.
#   5, 6. SIGTERM mid-run to a two-node job's batch shell, and to its steps:
#      the harness and both replicas stop on SIGTERM well inside KillWait,
#      the folder is marked aborted, and nothing answers on the ports.
#   7, 8, 9. n2's replica exits at start, never answers, or dies mid-run: the
#      job fails, naming n2, what it answers and the end of its log.
#   10. bench.sh on both nodes against two fakes of fixed latency, one bench
#      process per node (srun), then merged: the merged summary's request and
#      token counts equal one process's sending the same requests, its
#      latency percentiles are within the fakes' jitter of that process's, its
#      throughput within 10% of the sum of the nodes', and it breaks the
#      figures down by node and by endpoint.
#
# Usage: scripts/ci/slurm_test.sh [--help]   (root on Debian; `make test-slurm`)
# Env: BIN (default build/bin/mlperf-go), KEEP=1 keeps the temporary folder,
# CASES (default "single replicas bench") the cases to run: single (1-3), replicas (4-9),
# bench (10).
set -euo pipefail

if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi

cd "$(dirname "$0")/../.."
ROOT=$PWD
CASES=${CASES:-single replicas bench}
BIN=$(realpath "${BIN:-build/bin/mlperf-go}")
KILL_WAIT=30
log() { printf '[slurm-test] %s\n' "$*"; }
fail_setup() { echo "[slurm-test] error: $*" >&2; exit 1; }

[[ -x $BIN ]] || fail_setup "$BIN not found: run make first"
[[ $(id -u) == 0 ]] || fail_setup "needs root (slurmd runs jobs as the submitting user; the daemons here run as root)"

if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  command -v apt-get >/dev/null 2>&1 || fail_setup "slurmctld/munged missing and no apt-get: install slurm-wlm and munge"
  log "installing slurm-wlm and munge"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

T=$(mktemp -d /tmp/mlperf-slurm.XXXXXX)
chmod 755 "$T"
STARTED_MUNGE=0
cleanup() {
  local rc=$?
  set +e
  # Jobs first, then the daemons this script started, by their pid files.
  [[ -n ${SLURM_CONF:-} ]] && scancel --full --signal=KILL --user=root >/dev/null 2>&1
  for d in slurmd-n1 slurmd-n2 slurmctld; do
    if [[ -f $T/$d.pid ]]; then
      pid=$(cat "$T/$d.pid")
      kill "$pid" 2>/dev/null
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null
    fi
  done
  if [[ $STARTED_MUNGE == 1 && -s $T/munge/munged.pid ]]; then
    pid=$(cat "$T/munge/munged.pid")
    kill "$pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  if [[ $rc -ne 0 ]]; then
    for f in slurmctld.log slurmd-n1.log slurmd-n2.log; do
      [[ -f $T/$f ]] && { echo "--- last lines of $f"; tail -n 30 "$T/$f"; }
    done
  fi
  if [[ ${KEEP:-} == 1 ]]; then log "kept $T"; else rm -rf "$T"; fi
  exit $rc
}
trap cleanup EXIT

# ---- munge ----------------------------------------------------------------
if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  log "munged already running; using it"
else
  if [[ ! -s /etc/munge/munge.key ]]; then
    mkdir -p /etc/munge
    head -c 1024 /dev/urandom >/etc/munge/munge.key
  fi
  chown munge:munge /etc/munge/munge.key
  chmod 400 /etc/munge/munge.key
  mkdir -p /run/munge /var/lib/munge /var/log/munge
  chown munge:munge /run/munge /var/lib/munge /var/log/munge
  chmod 755 /run/munge
  # munged runs as munge and writes its pid file where munge may write.
  mkdir -p "$T/munge"
  chown munge:munge "$T/munge"
  runuser -u munge -- /usr/sbin/munged --pid-file="$T/munge/munged.pid" 2>&1 ||
    fail_setup "munged did not start"
  STARTED_MUNGE=1
  for _ in $(seq 50); do [[ -s $T/munge/munged.pid ]] && break; sleep 0.1; done
  munge -n | unmunge >/dev/null || fail_setup "munge does not work"
fi

# ---- slurm ----------------------------------------------------------------
# Two nodes on this machine: a slurmd for each, with its own NodeName, port
# and loopback address (127.0.0.1, 127.0.0.2), so each node's engine
# replica listens on the same port, as on a real cluster.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
HOST=$(hostname -s)
NODES=(n1 n2)
PORTS=()
while [[ ${#PORTS[@]} -lt 3 ]]; do
  p=$(free_port)
  [[ " ${PORTS[*]} " == *" $p "* ]] || PORTS+=("$p")
done
mkdir -p "$T/state" "$T/spool-n1" "$T/spool-n2"
export SLURM_CONF=$T/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=mlperfci
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
ReturnToService=2
SlurmdParameters=config_overrides
KillWait=$KILL_WAIT
MinJobAge=600
SlurmctldPort=${PORTS[0]}
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool-%n
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd-%n.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd-%n.log
NodeName=n1 NodeHostname=$HOST NodeAddr=127.0.0.1 Port=${PORTS[1]} CPUs=2 RealMemory=4000 State=UNKNOWN
NodeName=n2 NodeHostname=$HOST NodeAddr=127.0.0.2 Port=${PORTS[2]} CPUs=2 RealMemory=4000 State=UNKNOWN
PartitionName=ci Nodes=n1,n2 Default=YES MaxTime=INFINITE State=UP
EOF
log "starting slurmctld and a slurmd for each of ${NODES[*]} ($SLURM_CONF)"
slurmctld -f "$SLURM_CONF" -i || fail_setup "slurmctld did not start"
for n in "${NODES[@]}"; do
  slurmd -f "$SLURM_CONF" -N "$n" || fail_setup "slurmd -N $n did not start"
done
# daemon_gone prints the first of the daemons that wrote its pid file and
# has exited since (its log then says why).
daemon_gone() {
  local d
  for d in slurmctld slurmd-n1 slurmd-n2; do
    if [[ -s $T/$d.pid ]] && ! kill -0 "$(cat "$T/$d.pid")" 2>/dev/null; then
      echo "$d"
      return
    fi
  done
}
for _ in $(seq 60); do
  state=$(sinfo -h -n n1,n2 -o %t 2>/dev/null | sort -u | tr '\n' ' ')
  [[ $state == "idle " ]] && break
  gone=$(daemon_gone)
  [[ -z $gone ]] || fail_setup "$gone exited while the nodes came up (its log is $T/$gone.log)"
  sleep 0.5
done
[[ $state == "idle " ]] || fail_setup "nodes n1, n2 not idle after 30 s (sinfo says '${state:-nothing}')"
log "nodes n1 and n2 idle"

# ---- assertions -------------------------------------------------------------
PASSED=0
FAILED=0
check() { # check DESCRIPTION COMMAND...
  local what=$1; shift
  if "$@"; then PASSED=$((PASSED + 1)); log "ok: $what"; else FAILED=$((FAILED + 1)); log "FAIL: $what"; fi
}
job_field() { scontrol show job "$1" -o 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n1; }
wait_job_done() { # wait_job_done JOB SECONDS
  local s
  for _ in $(seq $(($2 * 5))); do
    s=$(job_field "$1" JobState)
    case $s in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) return 0 ;; esac
    if [[ $(job_field "$1" Reason) == DependencyNeverSatisfied ]]; then
      log "job $1 will never run: its dependency failed"
      return 1
    fi
    sleep 0.2
  done
  log "job $1 still $s after $2 s"
  return 1
}
wait_state() { # wait_state JOB "STATE REASON" SECONDS: the scheduler says so (it looks at dependencies every few seconds)
  local s
  for _ in $(seq $(($3 * 5))); do
    s="$(job_field "$1" JobState) $(job_field "$1" Reason)"
    [[ $s == "$2" ]] && return 0
    sleep 0.2
  done
  log "job $1 is $s after $3 s, not $2"
  return 1
}
wait_file() { # wait_file JOB PATH SECONDS: PATH appears while JOB runs
  for _ in $(seq $(($3 * 10))); do
    [[ -e $2 ]] && return 0
    case $(job_field "$1" JobState) in PENDING | RUNNING | CONFIGURING) ;; *) log "job $1 ended first"; return 1 ;; esac
    sleep 0.1
  done
  return 1
}
ended_as() { # ended_as JOB "STATE EXIT:SIGNAL"
  local got
  got="$(job_field "$1" JobState) $(job_field "$1" ExitCode)"
  [[ $got == "$2" ]] || { log "job $1 ended $got"; return 1; }
}
has_line() { grep -qxF -- "$2" "$1" 2>/dev/null; }
# eventually_grep SECONDS PATTERN FILE: the line shows within SECONDS. A
# replica task's last line can land after its job is reported done: the
# step's tasks on a node may finish after the batch script (seen in CI: the
# replica step on n1 ended 2 s after its job).
eventually_grep() {
  local i
  for ((i = 0; i < $1 * 5; i++)); do grep -q -- "$2" "$3" 2>/dev/null && return 0; sleep 0.2; done
  grep -q -- "$2" "$3" 2>/dev/null
}
exists() { [[ -s $1 ]]; }
epoch() { date -d "$1" +%s; }

# assert_marked_aborted DIR: the benchmark's output folder says the run was
# aborted: benchmark.sh's status file, and mlperf-go's own run record once
# it records an outcome (mlperf_go_run.json "outcome": "ABORTED"; today the
# run record is not written for an interrupted run, so only a record that
# exists and has the field is checked).
assert_marked_aborted() {
  local dir=$1 rec=$1/run/mlperf_go_run.json
  has_line "$dir/benchmark.status" "outcome=ABORTED" || { log "$dir/benchmark.status: $(tr '\n' ' ' <"$dir/benchmark.status" 2>/dev/null)"; return 1; }
  if [[ -f $rec ]] && grep -q '"outcome"' "$rec"; then
    grep -Eq '"outcome": *"ABORTED"' "$rec" || { log "$rec records another outcome: $(grep '"outcome"' "$rec")"; return 1; }
  fi
  return 0
}

WORK=$T/work
mkdir -p "$WORK"
"$BIN" dataset synth -b llama3_1-8b -n 40 -o "$WORK/data" >/dev/null
DATA=$WORK/data/cnn_eval.json
# Qwen3-VL for the accuracy cases: the fake endpoint, told the dataset,
# answers it right, so the Go evaluation passes (a fake cannot summarise).
"$BIN" dataset synth -b qwen3-vl-235b-a22b -n 20 -o "$WORK/q3vl" >/dev/null
Q3DATA=$WORK/q3vl
OUT_ROOT=$WORK/mlperf-out
submit() { # submit SUBMIT_ARGS... -- RUN_ARGS...; prints "BENCH EVAL"
  (cd "$WORK" && "$ROOT/scripts/slurm/submit.sh" --bin "$BIN" --out-root "$OUT_ROOT" "$@") | sed -n 's/^jobs: //p'
}

# ---- 1, 2 and 3. one node ------------------------------------------------------
single_node_cases() {
  # 1. benchmark, then evaluate
  log "1. accuracy run with a launched fake engine, then the evaluate job"
  read -r J1 E1 < <(submit --time 00:15:00 --evaluate-arg=-b --evaluate-arg=qwen3-vl-235b-a22b --evaluate-arg=-d --evaluate-arg="$Q3DATA" \
    -- -b qwen3-vl-235b-a22b -s Offline -m accuracy -d "$Q3DATA" --progress-interval 0 \
    --launch command --engine-port 0 --engine-ready-timeout 60s \
    --engine-command "$BIN fake-endpoint --listen {host}:{port} --model {model} -b qwen3-vl-235b-a22b --dataset $Q3DATA --ttft 5ms")
  [[ -n ${E1:-} ]] || fail_setup "submit.sh did not submit both jobs"
  log "benchmark job $J1, evaluate job $E1"
  check "benchmark job $J1 finished" wait_job_done "$J1" 90
  check "evaluate job $E1 finished" wait_job_done "$E1" 60
  check "benchmark job COMPLETED 0:0" ended_as "$J1" "COMPLETED 0:0"
  check "evaluate job COMPLETED 0:0" ended_as "$E1" "COMPLETED 0:0"
  check "evaluate started after the benchmark ended" test "$(epoch "$(job_field "$E1" StartTime)")" -ge "$(epoch "$(job_field "$J1" EndTime)")"
  check "benchmark outputs under <submit dir>/mlperf-out/$J1" exists "$OUT_ROOT/$J1/run/mlperf_log_accuracy.json"
  check "mlperf-go's run record" exists "$OUT_ROOT/$J1/run/mlperf_go_run.json"
  check "engine log kept, engine stopped" grep -q "engine stopped" "$OUT_ROOT/$J1/run/engine.log"
  check "benchmark.status outcome=OK" has_line "$OUT_ROOT/$J1/benchmark.status" "outcome=OK"
  check "evaluate.status outcome=OK" has_line "$OUT_ROOT/$E1/evaluate.status" "outcome=OK"
  check "evaluate ran mlperf-go evaluate" grep -q "evaluate_exit=0" "$OUT_ROOT/$E1/evaluate.txt"
  check "Slurm output files" exists "$OUT_ROOT/slurm-$J1.out"

  # 1b. --mode both: the evaluate job checks both tests' folders
  log "1b. --mode both (accuracy, scored by the run, then performance), then the evaluate job"
  read -r JB EB < <(submit --time 00:15:00 \
    -- -b qwen3-vl-235b-a22b -s Offline -m both -d "$Q3DATA" --progress-interval 0 \
    --min-duration 0 --min-query-count 20 --setting performance_sample_count_override=20 \
    --launch command --engine-port 0 --engine-ready-timeout 60s \
    --engine-command "$BIN fake-endpoint --listen {host}:{port} --model {model} -b qwen3-vl-235b-a22b --dataset $Q3DATA --ttft 5ms")
  [[ -n ${EB:-} ]] || fail_setup "submit.sh did not submit both jobs"
  check "benchmark job $JB finished" wait_job_done "$JB" 120
  check "evaluate job $EB finished" wait_job_done "$EB" 60
  check "--mode both benchmark job COMPLETED 0:0" ended_as "$JB" "COMPLETED 0:0"
  check "--mode both evaluate job COMPLETED 0:0" ended_as "$EB" "COMPLETED 0:0"
  check "evaluate saw both tests" grep -q "mode=both" "$OUT_ROOT/$EB/evaluate.txt"
  check "evaluate kept the run's accuracy.txt" exists "$OUT_ROOT/$EB/accuracy.txt"
  check "evaluate.status outcome=OK after --mode both" has_line "$OUT_ROOT/$EB/evaluate.status" "outcome=OK"

  # 2 and 3. SIGTERM mid-run
  # Performance runs of ten minutes unless stopped.
  long_run() {
    submit --time 00:15:00 -- -b llama3_1-8b -s Offline -m performance -d "$DATA" --progress-interval 2s \
      --setting min_duration=600000 --target-qps 100 --total-sample-count 40 \
      --launch command --engine-port 0 --engine-ready-timeout 60s --engine-stop-grace 10s \
      --engine-command "$BIN fake-endpoint --listen {host}:{port} --model {model} --output-tokens 12 --ttft 50ms --max-concurrency 4"
  }
  log "2 and 3. SIGTERM mid-run: to the batch shell (as --signal=B:TERM delivers), and to the job step"
  read -r J2 E2 < <(long_run)
  read -r J3 E3 < <(long_run)
  [[ -n ${E2:-} && -n ${E3:-} ]] || fail_setup "submit.sh did not submit the jobs"
  log "batch-shell TERM: job $J2 (evaluate $E2); step TERM: job $J3 (evaluate $E3)"
  for j in "$J2" "$J3"; do
    check "job $j's LoadGen test started" wait_file "$j" "$OUT_ROOT/$j/run/mlperf_log_detail.txt" 90
  done
  sleep 3
  check "jobs $J2 and $J3 still running before the signal" test "$(job_field "$J2" JobState) $(job_field "$J3" JobState)" = "RUNNING RUNNING"
  t0=$(date +%s)
  scancel --batch --signal=TERM "$J2"
  scancel --signal=TERM "$J3"
  for j in "$J2" "$J3"; do
    check "job $j ended after TERM" wait_job_done "$j" "$KILL_WAIT"
    took=$(($(epoch "$(job_field "$j" EndTime)") - t0))
    log "job $j ended ${took}s after the signal (KillWait ${KILL_WAIT}s)"
    check "job $j ended well inside KillWait (${took}s < $((KILL_WAIT / 2))s)" test "$took" -lt $((KILL_WAIT / 2))
    check "job $j exit status is mlperf-go's interrupted 130" test "$(job_field "$j" ExitCode)" = "130:0"
    check "job $j's output folder marked aborted" assert_marked_aborted "$OUT_ROOT/$j"
    check "job $j kept LoadGen's logs" exists "$OUT_ROOT/$j/run/mlperf_log_detail.txt"
    check "job $j stopped its engine" grep -q "engine stopped" "$OUT_ROOT/$j/run/engine.log"
    check "job $j's engine stopped on SIGTERM, not SIGKILL" bash -c "grep -q 'fake endpoint stopping' '$OUT_ROOT/$j/run/engine.log' && ! grep -q 'sending SIGKILL' '$OUT_ROOT/$j/run/engine.log'"
    check "job $j printed that mlperf-go was interrupted" grep -q "interrupted" "$OUT_ROOT/slurm-$j.out"
  done
  check "the batch shell forwarded TERM" has_line "$OUT_ROOT/$J2/benchmark.status" "signal=TERM"
  for e in "$E2" "$E3"; do
    check "evaluate job $e did not run (afterok never satisfied)" wait_state "$e" "PENDING DependencyNeverSatisfied" 15
    check "evaluate job $e wrote nothing" test ! -e "$OUT_ROOT/$e"
    scancel "$e"
  done
}

# ---- 4, 5 and 6. engine replicas on two nodes ----------------------------------
MODEL=test-model
# FAKE is each node's engine: the fake endpoint on the node's address
# ({host}: --replica-host node).
FAKE="$BIN fake-endpoint --listen {host}:{port} --model $MODEL --output-tokens 12 --ttft 20ms --max-concurrency 4"
# submit_replicas PORT CMD SUBMIT_ARGS... -- RUN_ARGS...: a two-node job,
# one replica (CMD) on each of n1 and n2; prints the job id.
submit_replicas() {
  local port=$1 cmd=$2; shift 2
  submit --nodes 2 --no-evaluate --engine "mlperf-go fake-endpoint" --replica-command "$cmd" \
    --replica-port "$port" --replica-host node --replica-stop-grace 10 "$@"
}
# The run arguments of a short performance run.
SHORT_RUN=(-b llama3_1-8b -s Offline -m performance -d "$DATA" --model "$MODEL" --progress-interval 0
  --min-duration 0 --min-query-count 40 --total-sample-count 40)
# served NODE_LOG: the generation requests a replica served, from the fake's
# own count in its "fake endpoint stopping" line.
served() {
  grep -h 'fake endpoint stopping' "$1" 2>/dev/null | grep -oE '"/v1/(chat/)?completions": ?[0-9]+' | awk -F: '{ n += $NF } END { print n + 0 }'
}
# replica_stopped LOG ADDR: a replica served on its node's address and
# stopped on SIGTERM.
replica_stopped() {
  grep -q "fake endpoint serving.*$2" "$1" && grep -q 'fake endpoint stopping' "$1"
}
replica_cases() {
  log "4. one fake engine replica on each of n1 and n2; mlperf-go on n1 spreads a performance run across them"
  P4=$(free_port)
  J4=$(submit_replicas "$P4" "$FAKE" --time 00:15:00 --replica-ready-timeout 60 -- "${SHORT_RUN[@]}")
  [[ -n $J4 ]] || fail_setup "submit.sh did not submit the two-node job"
  D4=$OUT_ROOT/$J4
  log "two-node job $J4"
  check "two-node job $J4 finished" wait_job_done "$J4" 90
  check "job $J4 ran on n1 and n2" test "$(job_field "$J4" NodeList)" = "n[1-2]"
  check "job $J4 COMPLETED 0:0" ended_as "$J4" "COMPLETED 0:0"
  check "benchmark.status outcome=OK" has_line "$D4/benchmark.status" "outcome=OK"
  check "benchmark.status replicas=stopped (by the script, on SIGTERM)" has_line "$D4/benchmark.status" "replicas=stopped"
  check "LoadGen says VALID" grep -q "Result is : VALID" "$D4/run/mlperf_log_summary.txt"
  check "the run record says VALID" grep -Eq '"outcome": *"VALID"' "$D4/run/mlperf_go_run.json"
  n1=$(served "$D4/replicas/n1.log")
  n2=$(served "$D4/replicas/n2.log")
  log "replica n1 served $n1 generation requests, n2 $n2 (40 samples, plus one probe each)"
  check "replica on n1 served requests" test "$n1" -gt 0
  check "replica on n2 served requests" test "$n2" -gt 0
  check "together they served every sample" test $((n1 + n2)) -ge 40
  check "n1's replica listened on n1's address and stopped on SIGTERM" replica_stopped "$D4/replicas/n1.log" "127.0.0.1:$P4"
  check "n2's replica listened on n2's address and stopped on SIGTERM" replica_stopped "$D4/replicas/n2.log" "127.0.0.2:$P4"
  check "the record names both endpoints" grep -q "\"http://127.0.0.2:$P4\"" "$D4/run/mlperf_go_run.json"
  check "the record names the whole system" grep -Fq "\"engine\": \"mlperf-go fake-endpoint, one replica on each of 2 nodes: n1 at 127.0.0.1:$P4, n2 at 127.0.0.2:$P4 (Slurm job $J4)\"" "$D4/run/mlperf_go_run.json"
  check "the record has each replica's command" grep -Fq "\"$BIN fake-endpoint --listen {host}:$P4 --model $MODEL" "$D4/run/mlperf_go_run.json"
  check "job.txt lists the replicas" has_line "$D4/job.txt" "replica=n2 http://127.0.0.2:$P4"

  # Ten-minute runs unless stopped.
  log "5 and 6. SIGTERM mid-run to a two-node job: to the batch shell, and to the job steps"
  P5=$(free_port)
  P6=$(free_port)
  long_replicas() {
    submit_replicas "$1" "$FAKE" --time 00:15:00 --replica-ready-timeout 60 -- -b llama3_1-8b -s Offline -m performance -d "$DATA" --model "$MODEL" \
      --progress-interval 2s --setting min_duration=600000 --target-qps 100 --total-sample-count 40
  }
  J5=$(long_replicas "$P5")
  J6=$(long_replicas "$P6")
  [[ -n $J5 && -n $J6 ]] || fail_setup "submit.sh did not submit the two-node jobs"
  log "batch-shell TERM: job $J5; step TERM: job $J6"
  for j in "$J5" "$J6"; do
    check "job $j's LoadGen test started" wait_file "$j" "$OUT_ROOT/$j/run/mlperf_log_detail.txt" 90
  done
  sleep 2
  check "jobs $J5 and $J6 still running before the signal" test "$(job_field "$J5" JobState) $(job_field "$J6" JobState)" = "RUNNING RUNNING"
  t0=$(date +%s)
  scancel --batch --signal=TERM "$J5"
  scancel --signal=TERM "$J6"
  for j in "$J5" "$J6"; do
    d=$OUT_ROOT/$j
    check "job $j ended after TERM" wait_job_done "$j" "$KILL_WAIT"
    took=$(($(epoch "$(job_field "$j" EndTime)") - t0))
    log "job $j ended ${took}s after the signal (KillWait ${KILL_WAIT}s)"
    check "job $j ended well inside KillWait (${took}s < $((KILL_WAIT / 2))s)" test "$took" -lt $((KILL_WAIT / 2))
    check "job $j exit status is mlperf-go's interrupted 130" test "$(job_field "$j" ExitCode)" = "130:0"
    check "job $j's output folder marked aborted" assert_marked_aborted "$d"
    check "job $j's both replicas stopped on SIGTERM" bash -c "grep -q 'fake endpoint stopping' '$d/replicas/n1.log' && grep -q 'fake endpoint stopping' '$d/replicas/n2.log'"
    check "job $j's replicas were not SIGKILLed" bash -c "! grep -q '^replicas=killed' '$d/benchmark.status'"
  done
  check "the batch shell forwarded TERM" has_line "$OUT_ROOT/$J5/benchmark.status" "signal=TERM"
  for p in "$P5" "$P6"; do
    check "nothing answers on n1's and n2's port $p any more" bash -c "! curl -s -o /dev/null --max-time 2 http://127.0.0.1:$p/health && ! curl -s -o /dev/null --max-time 2 http://127.0.0.2:$p/health"
  done

  log "7, 8 and 9. n2's replica fails: it exits at start (7), never answers (8, --replica-ready-timeout 3), or dies mid-run (9)"
  P7=$(free_port)
  P8=$(free_port)
  P9=$(free_port)
  J7=$(submit_replicas "$P7" "case {host} in 127.0.0.2) echo 'simulated: CUDA out of memory'; exit 3;; esac; $FAKE" \
    --time 00:15:00 --replica-ready-timeout 60 -- "${SHORT_RUN[@]}")
  J8=$(submit_replicas "$P8" "case {host} in 127.0.0.2) echo 'simulated: loading weights'; exec sleep 300;; esac; $FAKE" \
    --time 00:15:00 --replica-ready-timeout 3 -- "${SHORT_RUN[@]}")
  J9=$(submit_replicas "$P9" "case {host} in 127.0.0.2) $FAKE & p=\$!; sleep 8; echo 'simulated: engine crashed'; kill -9 \$p; wait \$p; exit;; esac; $FAKE" \
    --time 00:15:00 --replica-ready-timeout 60 -- -b llama3_1-8b -s Offline -m performance -d "$DATA" --model "$MODEL" \
    --progress-interval 2s --setting min_duration=600000 --target-qps 100 --total-sample-count 40)
  [[ -n $J7 && -n $J8 && -n $J9 ]] || fail_setup "submit.sh did not submit the two-node jobs"
  log "replica exits: job $J7; replica never ready: job $J8; replica dies mid-run: job $J9"
  for j in "$J7" "$J8"; do
    d=$OUT_ROOT/$j
    check "job $j finished" wait_job_done "$j" 60
    check "job $j FAILED 1:0" ended_as "$j" "FAILED 1:0"
    check "job $j's benchmark.status outcome=FAILED, replicas not ready" bash -c "grep -qx outcome=FAILED '$d/benchmark.status' && grep -qx 'replica_error=not ready' '$d/benchmark.status'"
    check "job $j never started the test" test ! -e "$d/run/mlperf_log_detail.txt"
  done
  check "job $J7 says a replica exited" grep -q "replicas not ready: the replica step ended (a replica exited):" "$OUT_ROOT/slurm-$J7.out"
  check "job $J7 names n2, what it answers, and its log's end" \
    grep -Pzq "\\n  n2 \\(http://127.0.0.2:$P7\\): no answer on /health\\n  last lines of \\S+/n2.log:\\n(    .*\\n)*    simulated: CUDA out of memory" "$OUT_ROOT/slurm-$J7.out"
  check "job $J8 names n2, what it answers, and its log's end" \
    grep -Pzq "replicas not ready: not ready after 3 s \\(raise --replica-ready-timeout if they are still loading\\):\\n  n2 \\(http://127.0.0.2:$P8\\): no answer on /health\\n  last lines of \\S+/n2.log:\\n(    .*\\n)*    simulated: loading weights" "$OUT_ROOT/slurm-$J8.out"
  check "job $J8's n1 replica came up and was stopped" eventually_grep 15 "fake endpoint stopping" "$OUT_ROOT/$J8/replicas/n1.log"
  check "job $J8's n2 replica was stopped too" eventually_grep 15 "replica on n2 stopped" "$OUT_ROOT/$J8/replicas/n2.log"
  d=$OUT_ROOT/$J9
  check "job $J9's LoadGen test started" wait_file "$J9" "$d/run/mlperf_log_detail.txt" 60
  check "job $J9 ended after its replica died" wait_job_done "$J9" 60
  check "job $J9 FAILED 1:0" ended_as "$J9" "FAILED 1:0"
  check "job $J9's benchmark.status outcome=FAILED, replica ended mid-run" bash -c "grep -qx outcome=FAILED '$d/benchmark.status' && grep -qx 'replica_error=ended mid-run' '$d/benchmark.status'"
  check "job $J9 shows n2's log's end" grep -q "^    simulated: engine crashed" "$OUT_ROOT/slurm-$J9.out"
  check "job $J9's run record is not VALID" bash -c "! grep -Eq '\"outcome\": *\"VALID\"' '$d/run/mlperf_go_run.json'"
}

# ---- 10. bench from both nodes, merged ------------------------------------------
bench_cases() {
  log "10. bench.sh: one bench process on each of n1 and n2 against two fakes of fixed latency, then merged"
  local p1 p2 f1 f2 jb d
  p1=$(free_port)
  p2=$(free_port)
  # The fakes run beside the job, one on each node's address, 20 ms to the
  # first token and 1 ms a token after.
  "$BIN" fake-endpoint --listen "127.0.0.1:$p1" --model "$MODEL" --ttft 20ms --tpot 1ms >"$WORK/fake1.log" 2>&1 &
  f1=$!
  "$BIN" fake-endpoint --listen "127.0.0.2:$p2" --model "$MODEL" --ttft 20ms --tpot 1ms >"$WORK/fake2.log" 2>&1 &
  f2=$!
  for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$p1/health" && curl -sf -o /dev/null "http://127.0.0.2:$p2/health" && break; sleep 0.1; done
  local args=(--target "fake=http://127.0.0.1:$p1" --target "fake=http://127.0.0.2:$p2" --model "$MODEL" --num-prompts 800 --input-len 32 --output-len 16 -c 16 --progress-interval 0)
  mkdir -p "$OUT_ROOT"
  jb=$(cd "$WORK" && sbatch --parsable --nodes=2 --ntasks-per-node=1 --time=00:15:00 --output="$OUT_ROOT/slurm-%j.out" \
    "$ROOT/scripts/slurm/bench.sh" --bin "$BIN" --out-root "$OUT_ROOT" --rendezvous-timeout 2m -- "${args[@]}")
  [[ -n $jb ]] || fail_setup "sbatch did not submit bench.sh"
  d=$OUT_ROOT/$jb
  log "bench job $jb"
  check "bench job $jb finished" wait_job_done "$jb" 240
  check "bench job $jb ran on n1 and n2" test "$(job_field "$jb" NodeList)" = "n[1-2]"
  check "bench job COMPLETED 0:0" ended_as "$jb" "COMPLETED 0:0"
  check "bench.status outcome=OK" has_line "$d/bench.status" "outcome=OK"
  check "each node wrote its results" bash -c "ls -d '$d'/hosts/0-n* '$d'/hosts/1-n* >/dev/null"
  check "the merged results.json" exists "$d/merged/results.json"
  check "the merged report.html" exists "$d/merged/report.html"
  # The same requests from one process, for the comparison.
  "$BIN" bench "${args[@]}" --out "$WORK/bench-single" >"$WORK/bench-single.txt" 2>&1 ||
    { log "the single bench process failed:"; tail -n 20 "$WORK/bench-single.txt"; }
  kill "$f1" "$f2" 2>/dev/null
  wait "$f1" "$f2" 2>/dev/null
  check "the merge equals one process's counts, its percentiles within jitter, its throughput the nodes' sum" \
    python3 - "$d/merged/results.json" "$WORK/bench-single/results.json" <<'PY'
import json, sys
m, s = (json.load(open(p)) for p in sys.argv[1:3])
mr, sr = m["runs"][0], s["runs"][0]
bad = []
for k in ("completed", "failed", "prompt_tokens", "output_tokens"):
    if mr[k] != sr[k]:
        bad.append(f"{k}: merged {mr[k]}, one process {sr[k]}")
if mr["completed"] != 800:
    bad.append(f"merged completed {mr['completed']}, want 800")
# The fakes' own jitter on this machine: a few ms at the percentiles below.
for d in ("ttft_ms", "tpot_ms", "e2el_ms"):
    for p in ("p50", "p90"):
        a, b = mr[d]["percentiles"][p], sr[d]["percentiles"][p]
        if abs(a - b) > max(5.0, 0.25 * b):
            bad.append(f"{d} {p}: merged {a:.2f} ms, one process {b:.2f} ms")
hosts = mr.get("hosts") or []
total = sum(h["request_throughput"] for h in hosts)
if len(hosts) != 2 or sorted(h["name"] for h in hosts) != ["n1", "n2"] or sum(h["completed"] for h in hosts) != 800:
    bad.append(f"hosts {[(h['name'], h['completed']) for h in hosts]}")
elif abs(mr["request_throughput"] - total) > 0.1 * total:
    bad.append(f"merged throughput {mr['request_throughput']:.1f} req/s, the nodes' sum {total:.1f}")
eps = mr.get("endpoints") or []
if len(eps) != 2 or sum(e["completed"] for e in eps) != 800:
    bad.append(f"endpoints {[(e['name'], e['completed']) for e in eps]}")
print(f"[slurm-test] merged {mr['completed']} requests at {mr['request_throughput']:.1f} req/s (nodes' sum {total:.1f}, one process {sr['request_throughput']:.1f}); "
      f"TTFT p50 {mr['ttft_ms']['percentiles']['p50']:.2f} vs {sr['ttft_ms']['percentiles']['p50']:.2f} ms, E2EL p90 {mr['e2el_ms']['percentiles']['p90']:.2f} vs {sr['e2el_ms']['percentiles']['p90']:.2f} ms")
for b in bad:
    print("[slurm-test]   " + b)
sys.exit(1 if bad else 0)
PY
}

[[ $CASES == *single* ]] && single_node_cases
[[ $CASES == *replicas* ]] && replica_cases
[[ $CASES == *bench* ]] && bench_cases

echo "slurm: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
