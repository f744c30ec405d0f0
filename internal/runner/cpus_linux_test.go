//go:build linux

package runner

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"
)

// allowedCPUs returns the CPUs this thread may run on, in order.
func allowedCPUs() ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, fmt.Errorf("sched_getaffinity: %w", err)
	}
	var cpus []int
	for c := range len(set) * 64 {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}

func cpuSet(cpus []int) *unix.CPUSet {
	var set unix.CPUSet
	for _, c := range cpus {
		set.Set(c)
	}
	return &set
}

// pinProcess restricts every thread of this process to cpus (threads
// created later inherit it from their creator) and returns a function that
// gives every thread all of to again.
func pinProcess(cpus, to []int) (restore func(), err error) {
	set := func(cpus []int) error {
		// Twice: a thread started while the first pass ran may have
		// inherited the old set from a thread not yet visited.
		for range 2 {
			tids, err := os.ReadDir("/proc/self/task")
			if err != nil {
				return err
			}
			for _, t := range tids {
				tid, err := strconv.Atoi(t.Name())
				if err != nil {
					continue
				}
				if err := unix.SchedSetaffinity(tid, cpuSet(cpus)); err != nil && err != unix.ESRCH {
					return fmt.Errorf("sched_setaffinity(%d): %w", tid, err)
				}
			}
		}
		return nil
	}
	if err := set(cpus); err != nil {
		_ = set(to)
		return nil, err
	}
	return func() { _ = set(to) }, nil
}

// startPinned starts cmd restricted to cpus: the child inherits the CPU
// set of the thread that forks it, so this thread holds that set for the
// duration of Start.
func startPinned(cmd *exec.Cmd, cpus []int) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var old unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return err
	}
	if err := unix.SchedSetaffinity(0, cpuSet(cpus)); err != nil {
		return err
	}
	defer unix.SchedSetaffinity(0, &old)
	return cmd.Start()
}
