package submission

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/mlperf-go/mlperf-go/benchmark"
)

// reCache compiles the checker's patterns once, anchored at the start as
// Python's re.match anchors them.
var reCache sync.Map

func matchStart(pattern, line string) (string, bool) {
	v, ok := reCache.Load(pattern)
	if !ok {
		v, _ = reCache.LoadOrStore(pattern, regexp.MustCompile(`^(?:`+pattern+`)`))
	}
	m := v.(*regexp.Regexp).FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// splitLinesKeepEnds splits like Python's readlines(): each line keeps its
// "\n" ("\r\n" arrives as "\n", as in Python's universal-newline text mode).
func splitLinesKeepEnds(content []byte) []string {
	s := strings.ReplaceAll(string(content), "\r\n", "\n")
	var lines []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// accuracyResult is what the checker's AccuracyCheck.accuracy_result_check
// concludes from accuracy.txt.
type accuracyResult struct {
	values   map[string]string // metric name → last value seen
	problems []string
	hash     string
}

// evalAccuracyTxt replays accuracy_result_check
// (tools/submission/submission_checker/checks/accuracy_check.py) on
// accuracy.txt's lines: every line matching a metric's pattern must meet its
// lower bound, every metric must be seen meeting it, no upper limit may be
// exceeded, and a ^hash=… line must be present; like the checker it stops
// reading once every metric and the hash were seen.
func evalAccuracyTxt(content []byte, metrics, upper []accMetric) accuracyResult {
	res := accuracyResult{values: map[string]string{}}
	seen := make([]bool, len(metrics))
	allSeen := func() bool {
		for _, s := range seen {
			if !s {
				return false
			}
		}
		return true
	}
	for _, line := range splitLinesKeepEnds(content) {
		if m := hashLine.FindStringSubmatch(line); m != nil && res.hash == "" {
			res.hash = m[1]
		}
		for i, mt := range metrics {
			v, ok := matchStart(mt.pattern, line)
			if !ok {
				continue
			}
			res.values[mt.name] = v
			f, err := strconv.ParseFloat(v, 64)
			switch {
			case err != nil:
				res.problems = append(res.problems, fmt.Sprintf("%s value %q is not a number (the checker crashes on it)", mt.name, v))
			case f >= mt.bound:
				seen[i] = true
			default:
				res.problems = append(res.problems, fmt.Sprintf("%s = %s is below the required %s", mt.name, v, pyRepr(mt.bound)))
			}
		}
		for _, mt := range upper {
			v, ok := matchStart(mt.pattern, line)
			if !ok {
				continue
			}
			f, err := strconv.ParseFloat(v, 64)
			switch {
			case err != nil:
				res.problems = append(res.problems, fmt.Sprintf("%s value %q is not a number (the checker crashes on it)", mt.name, v))
			case f > mt.bound:
				res.problems = append(res.problems, fmt.Sprintf("%s = %s is above the upper limit %s", mt.name, v, pyRepr(mt.bound)))
			}
		}
		if allSeen() && res.hash != "" {
			break
		}
	}
	for i, mt := range metrics {
		if !seen[i] {
			if _, found := res.values[mt.name]; !found {
				res.problems = append(res.problems, fmt.Sprintf("no line matches the checker's %s pattern %s", mt.name, mt.pattern))
			}
		}
	}
	return res
}

// numpyScalar matches NumPy 2's repr of a scalar, e.g. "np.int64(8167644)".
var numpyScalar = regexp.MustCompile(`np\.(?:int|uint|float)(?:8|16|32|64)\(([-+0-9.eE]+)\)`)

// IngestEvaluatorOutput turns the printed output of a benchmark's official
// accuracy evaluator into accuracy.txt content, after checking that it holds
// every line the submission checker reads for that benchmark:
//
//	llama3.1-8b  language/llama3.1-8b/evaluation.py prints a Python dict
//	             {'rouge1': '38.9', 'rouge2': …, 'rougeL': …, 'rougeLsum': …, 'gen_len': N, 'gen_num': N}
//	gpt-oss-120b language/gpt-oss-120b/eval_mlperf_accuracy.py prints
//	             'exact_match': 83.500
//	qwen3-vl     the evaluator prints {"f1": 0.79…} (JSON, double quotes)
//
// The content is the output as printed, with one repair: NumPy 2 prints the
// llama evaluator's gen_len as "np.int64(8167644)", which the checker's
// pattern ('gen_len':\s([\d.]+)) cannot read, so such NumPy scalar wrappers
// are replaced by the bare number. Thresholds are not judged here (Check does
// that); a "hash=" line is refused because packaging appends it.
func IngestEvaluatorOutput(benchName string, output []byte) ([]byte, error) {
	bench, err := CanonicalBenchmark(benchName)
	if err != nil {
		return nil, err
	}
	rules, ok := mustRound(DefaultRound).Benchmarks[bench]
	if !ok {
		return nil, fmt.Errorf("submission: %s is not a benchmark of round %s", bench, DefaultRound)
	}
	content := numpyScalar.ReplaceAll(output, []byte("$1"))
	if len(bytes.TrimSpace(content)) == 0 {
		return nil, fmt.Errorf("submission: the %s evaluator output is empty: pass what the official evaluator printed", bench)
	}
	for _, line := range splitLinesKeepEnds(content) {
		if hashLine.MatchString(line) {
			return nil, fmt.Errorf("submission: the evaluator output already has a hash= line; pass the evaluator's own output (packaging appends the hash)")
		}
	}
	// Every scenario's metric set: qwen3-vl's bounds differ per scenario, its
	// patterns do not.
	metrics := rules.accuracyMetrics(benchmark.ScenarioOffline)
	var missing []string
	for _, mt := range metrics {
		found := false
		for _, line := range splitLinesKeepEnds(content) {
			if v, ok := matchStart(mt.pattern, line); ok {
				if _, err := strconv.ParseFloat(v, 64); err != nil {
					return nil, fmt.Errorf("submission: %s value %q in the evaluator output is not a number", mt.name, v)
				}
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, fmt.Sprintf("%s (pattern %s)", mt.name, mt.pattern))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("submission: the %s evaluator output lacks lines the submission checker reads: %s; pass the complete output of the official evaluator", bench, strings.Join(missing, ", "))
	}
	if content[len(content)-1] != '\n' {
		content = append(content, '\n')
	}
	return content, nil
}

// pyRepr formats a float64 as Python's repr/str does ("60.0", "1150.38",
// "1e+16"), so text the reference scripts write can be reproduced exactly.
func pyRepr(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	if x == 0 {
		if math.Signbit(x) {
			return "-0.0"
		}
		return "0.0"
	}
	if a := math.Abs(x); a < 1e-4 || a >= 1e16 {
		return strconv.FormatFloat(x, 'e', -1, 64)
	}
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
