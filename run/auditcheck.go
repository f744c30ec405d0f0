package run

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/mlperf-go/mlperf-go/loadgen"
)

// checkUniqueIssue refuses, before LoadGen starts, the combination that
// crashes it (SIGSEGV in IssueQueries, upstream's Python LoadGen 6.0.17
// alike): an audit.config turning on performance_issue_unique while the
// effective performance_sample_count_override is larger than the library.
// LoadGen then issues each of override samples once from a smaller set of
// loaded ones. gpt-oss-120b's TEST07 hits it: mlperf.conf's override 6396
// against the 990-sample compliance set. The fix is the override equal to
// the library size, which the error names.
func checkUniqueIssue(auditPath, model string, scen loadgen.Scenario, s loadgen.TestSettings, library int) error {
	if auditPath == "" {
		return nil
	}
	data, err := os.ReadFile(auditPath)
	if err != nil {
		return fmt.Errorf("reading audit config: %w", err)
	}
	vals := auditValues(data, model, scen.String())
	unique := vals["performance_issue_unique"] != "" && vals["performance_issue_unique"] != "0"
	override := s.PerformanceSampleCountOverride
	if v := vals["performance_sample_count_override"]; v != "" {
		if override, err = strconv.ParseUint(v, 10, 64); err != nil {
			return fmt.Errorf("%s: performance_sample_count_override = %q is not a count", auditPath, v)
		}
	}
	if !unique || override == 0 || override <= uint64(library) {
		return nil
	}
	return fmt.Errorf("%s sets performance_issue_unique = 1, but performance_sample_count_override is %d and the library holds %d samples: LoadGen crashes issuing more unique samples than are loaded. Set it to the library size for this run (--setting performance_sample_count_override=%d)",
		auditPath, override, library, library)
}

// auditValues reads the "model.scenario.key = value" lines of an
// audit.config that apply to model and scenario, the most specific winning
// as in LoadGen's lookup (model.scenario, model.*, *.scenario, *.*).
// Unknown keys (the TEST07 threshold read by run_verification.py) and
// comments are skipped: LoadGen itself reads the file; this only looks.
func auditValues(data []byte, model, scen string) map[string]string {
	rank := func(m, s string) int {
		switch {
		case m == model && s == scen:
			return 4
		case m == model && s == "*":
			return 3
		case m == "*" && s == scen:
			return 2
		case m == "*" && s == "*":
			return 1
		}
		return 0
	}
	vals, best := map[string]string{}, map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		parts := strings.Split(strings.TrimSpace(k), ".")
		if len(parts) < 3 {
			continue
		}
		// A model name may hold dots; the scenario and key are the last two.
		m, s, key := strings.Join(parts[:len(parts)-2], "."), parts[len(parts)-2], parts[len(parts)-1]
		if r := rank(m, s); r > 0 && r >= best[key] {
			best[key], vals[key] = r, strings.TrimSpace(v)
		}
	}
	return vals
}
