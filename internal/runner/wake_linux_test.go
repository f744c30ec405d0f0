//go:build linux

package runner

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// BenchmarkMachineWake measures what this machine charges, in CPU time,
// for waking a sleeping thread: two OS threads pass a turn back and forth
// through futexes, both on one CPU, then on two. The harness figures
// above depend on it: each time the harness's core goes idle waiting for
// the endpoint, the response that ends the wait costs one cross-CPU wake.
// On bare metal a wake costs a microsecond or two either way. On a virtual
// machine whose idle CPUs halt (no guest halt-polling), waking one means an
// inter-processor interrupt through the hypervisor and a return from halt,
// both charged to the threads involved. Where these figures are high, a
// harness figure depends on how often the harness's core goes idle: a
// slower endpoint means more idle spells, so more CPU per sample.
func BenchmarkMachineWake(b *testing.B) {
	cpus, err := allowedCPUs()
	if err != nil {
		b.Skip(err)
	}
	type pair struct {
		name string
		cpus [2]int
	}
	runs := []pair{{"cpus=same", [2]int{cpus[0], cpus[0]}}}
	if len(cpus) >= 2 {
		runs = append(runs, pair{"cpus=two", [2]int{cpus[0], cpus[len(cpus)-1]}})
	}
	for _, r := range runs {
		b.Run(r.name, func(b *testing.B) {
			const rounds = 2000 // per iteration: each is two wakes
			var cpu time.Duration
			for b.Loop() {
				cpu += pingPong(b, r.cpus, rounds)
			}
			wakes := float64(2 * rounds * b.N)
			b.ReportMetric(float64(cpu.Nanoseconds())/1e3/wakes, "cpu-µs/wake")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/wakes, "wall-µs/wake")
		})
	}
}

// pingPong runs rounds round trips between two threads pinned to cpus
// and returns the CPU time both threads used.
func pingPong(b *testing.B, cpus [2]int, rounds int) time.Duration {
	var turn [2]atomic.Uint32 // turn[i]: how many turns thread i was given
	var cpu [2]time.Duration
	var wg sync.WaitGroup
	for side := range 2 {
		wg.Go(func() {
			// Locked and never unlocked: the thread keeps its pinning
			// and exits with the goroutine.
			runtime.LockOSThread()
			var set unix.CPUSet
			set.Set(cpus[side])
			if err := unix.SchedSetaffinity(0, &set); err != nil {
				b.Error(err)
				return
			}
			start := threadCPU()
			me, other := &turn[side], &turn[1-side]
			for i := range uint32(rounds) {
				// Side 0 moves first; side 1 waits for each of its turns.
				for v := me.Load(); v < i+uint32(side); v = me.Load() {
					futex(me, futexWaitPrivate, v)
				}
				other.Add(1)
				futex(other, futexWakePrivate, 1)
			}
			cpu[side] = threadCPU() - start
		})
	}
	wg.Wait()
	return cpu[0] + cpu[1]
}

// FUTEX_WAIT and FUTEX_WAKE with FUTEX_PRIVATE_FLAG (linux/futex.h).
const (
	futexWaitPrivate = 0 | 128
	futexWakePrivate = 1 | 128
)

func futex(addr *atomic.Uint32, op int, val uint32) {
	unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(addr)), uintptr(op), uintptr(val), 0, 0, 0)
}

// threadCPU is the calling thread's CPU time, user and system.
func threadCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
