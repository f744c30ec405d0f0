//go:build linux

package run

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

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

// cpusAllowed returns the Cpus_allowed_list of a /proc status text; where
// names it in failures.
func cpusAllowed(t *testing.T, where, status string) string {
	t.Helper()
	for line := range strings.SplitSeq(status, "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("%s: no Cpus_allowed_list", where)
	return ""
}

// threadCPUs returns the Cpus_allowed_list of every thread of this
// process, by /proc status path.
func threadCPUs(t *testing.T) map[string]string {
	t.Helper()
	tasks, err := filepath.Glob("/proc/self/task/*/status")
	if err != nil || len(tasks) == 0 {
		t.Fatalf("no /proc/self/task/*/status (%v)", err)
	}
	cpus := make(map[string]string, len(tasks))
	for _, task := range tasks {
		data, err := os.ReadFile(task)
		if err != nil {
			continue // the thread has exited
		}
		cpus[task] = cpusAllowed(t, task, string(data))
	}
	return cpus
}

// TestCPUPlacement: the benchmark's placement helpers pin a child and every
// thread of this process where they say, and restore this process.
func TestCPUPlacement(t *testing.T) {
	cpus, err := allowedCPUs()
	if err != nil || len(cpus) < 2 {
		t.Skipf("needs two CPUs (%d, %v)", len(cpus), err)
	}
	last := cpus[len(cpus)-1]
	cmd := exec.Command("cat", "/proc/self/status")
	var out strings.Builder
	cmd.Stdout = &out
	if err := startPinned(cmd, []int{last}); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if got := cpusAllowed(t, "the child", out.String()); got != strconv.Itoa(last) {
		t.Errorf("child ran on CPUs %q, want %d", got, last)
	}
	if got, _ := allowedCPUs(); !slices.Equal(got, cpus) {
		t.Errorf("the forking thread kept CPUs %v, want %v", got, cpus)
	}

	self, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	before := cpusAllowed(t, "/proc/self/status", string(self))
	restore, err := pinProcess(cpus[:1], cpus)
	if err != nil {
		t.Fatal(err)
	}
	for task, got := range threadCPUs(t) {
		if got != strconv.Itoa(cpus[0]) {
			t.Errorf("%s: CPUs %q while pinned, want %d", task, got, cpus[0])
		}
	}
	restore()
	for task, got := range threadCPUs(t) {
		if got != before {
			t.Errorf("%s: CPUs %q after restore, want %q", task, got, before)
		}
	}
}
