package eval

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/round"
)

// The rounds whose scorer Evaluate reproduces. The category F1 (the
// submission's "f1") is computed the same way in both but for where
// whitespace is stripped:
//   - v6.0, the LoadGen harness's evaluation.py (multimodal/qwen3-vl):
//     both paths are split on " > " as they are and each level stripped;
//     an invalid response's padding has as many levels as the ground truth
//     split as it is.
//   - v6.1, mlcommons/endpoints' shopify_category_f1 scorer
//     (evaluation/scoring.py, ShopifyCategoryF1Scorer): the parsed
//     category (parsed.category.strip()) and the ground truth
//     (str(g).strip()) are first stripped whole, then split and each level
//     stripped, and the padding takes the stripped ground truth's levels.
//     So a path that begins or ends with the separator's spaces, such as
//     "A > B > " or " > A", loses those spaces before the split and counts
//     one level fewer ("A > B >" splits into "A" and "B >").
//
// The v6.1 scorer computes only the category F1; the brand, is_secondhand
// and random-baseline rows are computed as v6.0's evaluator does in both
// rounds. Its response validation (endpoints' ProductMetadata: the same three
// fields, extra="forbid") is v6.0's.
const (
	// DefaultRound is the round whose scorer applies when Options.Round is
	// empty: v6.1, the round of the LoadGen release the build pins.
	DefaultRound = round.V61
)

// stripWhole reports whether the round named strips category paths whole
// before splitting them (v6.1), or errors on an unknown round.
func stripWhole(name string) (bool, error) {
	switch name {
	case "", round.V61:
		return true, nil
	case round.V60:
		return false, nil
	}
	return false, fmt.Errorf("q3vl: round %q has no known scorer; use %s or %s", name, round.V60, round.V61)
}

// DefaultWorkers is the reference's worker count, min(os.cpu_count(), 4)
// (evaluation.py _MAX_JOBS). It decides how the log is cut into chunks, each
// with its own random generator, so it changes which is_secondhand an
// invalid response is filled with and the random baseline.
func DefaultWorkers() int { return min(pyCPUCount(), 4) }

// pyCPUCount is Python's os.cpu_count() on this machine: the CPUs online,
// sysconf(_SC_NPROCESSORS_ONLN), which glibc reads from
// /sys/devices/system/cpu/online. That is not runtime.NumCPU(), which counts
// only the CPUs this process may run on (taskset, cpusets, Slurm). Python
// 3.13's PYTHON_CPU_COUNT, when set to a positive number, overrides it as in
// Python. runtime.NumCPU() is the fallback where the file cannot be read.
func pyCPUCount() int {
	if n, err := strconv.Atoi(os.Getenv("PYTHON_CPU_COUNT")); err == nil && n > 0 {
		return n
	}
	if b, err := os.ReadFile("/sys/devices/system/cpu/online"); err == nil {
		if n, ok := countCPUList(string(b)); ok {
			return n
		}
	}
	return runtime.NumCPU()
}

// countCPUList counts the CPUs of a kernel CPU list such as "0-3,5,7-8\n".
func countCPUList(s string) (int, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	n := 0
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return 0, false
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return 0, false
			}
		}
		n += b - a + 1
	}
	return n, true
}
