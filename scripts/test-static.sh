#!/usr/bin/env bash
# Proves that the static binary (make static) needs nothing but itself: it
# must have no ELF interpreter, and it runs a short demo in a root
# filesystem that holds only the binary, an empty /tmp, /proc and the data
# the demo writes there (a chroot). That is what the
# minimal container image (docker/Dockerfile) holds, so this stands in for
# running the images, which cannot be done on machines without Docker.
#
#   test-static.sh BUILD_DIR/bin/mlperf-go-static
#
# Needs root (chroot); exits 77, which ctest counts as skipped, without it.
set -euo pipefail

bin=${1:?usage: test-static.sh path/to/mlperf-go-static}
[[ -x $bin ]] || { echo "FAIL: $bin not found; build it with make static" >&2; exit 1; }

if readelf -lW "$bin" | grep -q 'INTERP'; then
  echo "FAIL: $bin has an ELF interpreter: it is dynamically linked" >&2
  readelf -dW "$bin" | grep NEEDED >&2 || true
  exit 1
fi
echo "ok: $bin is statically linked (no ELF interpreter)"

if [[ $(id -u) != 0 ]] || ! command -v chroot >/dev/null 2>&1; then
  echo "SKIP: running it in a bare chroot needs root and chroot(8)"
  exit 77
fi

root=$(mktemp -d)
fake=
cleanup() {
  if [[ -n $fake ]]; then kill "$fake" 2>/dev/null || true; wait "$fake" 2>/dev/null || true; fi
  if mountpoint -q "$root/proc"; then umount "$root/proc"; fi
  # Only after /proc is gone: rm must never walk into a mounted /proc.
  if ! mountpoint -q "$root/proc"; then rm -rf "$root"; fi
}
trap cleanup EXIT
install -m 0755 "$bin" "$root/mlperf-go"
install -d -m 1777 "$root/tmp"
# Every container runtime mounts /proc, and Go reads the listen backlog
# from /proc/sys/net/core/somaxconn; without it the fake endpoint would
# listen with a backlog of 128, which the harness's burst of Offline
# connections overflows. Nothing else is mounted.
install -d "$root/proc"
if ! mount -t proc -o ro,nosuid,nodev,noexec proc "$root/proc"; then
  echo "SKIP: cannot mount /proc into the chroot here"
  exit 77
fi

# Everything runs with an empty environment: no PATH, HOME, certificates
# or timezone data from the host.
chroot_bin=$(command -v chroot)
in_root() { env -i "$chroot_bin" "$root" /mlperf-go "$@"; }

if ! out=$(in_root version 2>&1); then
  if grep -q 'Operation not permitted' <<<"$out"; then
    echo "SKIP: chroot is not permitted here: $out"
    exit 77
  fi
  echo "FAIL: mlperf-go version in the chroot: $out" >&2
  exit 1
fi
printf '%s\n' "$out"
grep -q '^LoadGen [0-9]' <<<"$out" || { echo "FAIL: version does not name the linked LoadGen" >&2; exit 1; }

echo "== dataset synth (in the chroot)"
in_root dataset synth --benchmark qwen3-vl-235b-a22b --samples 100 --out /data >/dev/null

echo "== fake endpoint on 127.0.0.1:0 (in the chroot)"
# 16 slots at about 50 ms + 45 tokens x 1 ms serve ~170 samples/s, so 800
# samples (target 400/s over the 2 s minimum) outlast the minimum duration.
# exec: $! is then the fake itself (env and chroot exec in turn), so the
# cleanup's kill reaches it rather than a subshell that would leave it running.
(exec env -i "$chroot_bin" "$root" /mlperf-go fake-endpoint --listen 127.0.0.1:0 --dataset /data \
  --accuracy 0.9 --ttft 50ms --tpot 1ms --max-concurrency 16) >"$root/tmp/fake.url" 2>"$root/tmp/fake.log" &
fake=$!
for _ in $(seq 100); do
  [[ -s $root/tmp/fake.url ]] && break
  kill -0 "$fake" 2>/dev/null || { echo "FAIL: the fake endpoint exited before it served:" >&2; cat "$root/tmp/fake.log" >&2; exit 1; }
  sleep 0.1
done
url=$(head -n1 "$root/tmp/fake.url")
[[ -n $url ]] || { echo "FAIL: the fake endpoint did not start within 10 s:" >&2; cat "$root/tmp/fake.log" >&2; exit 1; }
echo "fake endpoint at $url"

echo "== Offline accuracy run + evaluation (in the chroot)"
in_root run --benchmark qwen3-vl-235b-a22b --scenario Offline --mode accuracy \
  --dataset /data --endpoint "$url" --output-dir /out/accuracy \
  --setting min_query_count=1 --evaluate --progress-interval 0
[[ -s $root/out/accuracy/mlperf_log_accuracy.json ]] || { echo "FAIL: no accuracy log" >&2; exit 1; }

echo "== Offline performance run (in the chroot)"
in_root run --benchmark qwen3-vl-235b-a22b --scenario Offline --mode performance \
  --dataset /data --endpoint "$url" --output-dir /out/performance \
  --setting min_duration=2000 --setting min_query_count=100 --target-qps 400 --progress-interval 0
summary=$root/out/performance/mlperf_log_summary.txt
grep -q '^Result is : VALID' "$summary" || { echo "FAIL: $summary does not say VALID:" >&2; cat "$summary" >&2; exit 1; }
grep -E '^(Result is|Samples per second)' "$summary"
echo "ok: the static binary ran synth, the fake endpoint and LoadGen Offline accuracy + performance in a bare chroot"
