package submission

import (
	"bytes"
	"fmt"
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

// hashLine matches accuracy.txt's hash line as both the truncation tool and
// the checker do: re.match(r"^hash=([\w\d]+)$", line) on a line that still
// carries its "\n" (Python's "$" also matches just before a final newline).
var hashLine = regexp.MustCompile(`^hash=([\w\d]+)\n?$`)

// ParseHashLine returns the hash of an accuracy.txt line "hash=<hex>", the
// line packaging appends after truncating the accuracy log, matched as the
// truncation tool and the checker match it (the line may keep its "\n").
func ParseHashLine(line string) (hash string, ok bool) {
	m := hashLine.FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// JudgeAccuracyTxt replays the checker's accuracy_result_check on the
// content of a scenario's accuracy.txt against these rules for the
// scenario directory: problems says each metric below its bound, above an
// upper limit, unparseable or missing (empty when the accuracy is met), and
// hash is the first hash= line's value ("" when there is none).
func (b *BenchmarkRules) JudgeAccuracyTxt(content []byte, scenario string) (problems []string, hash string) {
	res := evalAccuracyTxt(content, b.accuracyMetrics(scenario), b.upper)
	for _, p := range res.problems {
		problems = append(problems, p.text)
	}
	return problems, res.hash
}

// accuracyResult is what the checker's AccuracyCheck.accuracy_result_check
// concludes from accuracy.txt.
type accuracyResult struct {
	values   map[string]string // metric name → last value seen
	problems []accProblem
	hash     string
}

// accProblem is one finding on accuracy.txt: the metric it is about, the
// checker's words, and whether it is that no line matched the metric.
type accProblem struct {
	metric, text string
	unmatched    bool
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
				res.problems = append(res.problems, accProblem{metric: mt.name, text: fmt.Sprintf("%s value %q is not a number (the checker crashes on it)", mt.name, v)})
			case f >= mt.bound:
				seen[i] = true
			default:
				res.problems = append(res.problems, accProblem{metric: mt.name, text: fmt.Sprintf("%s = %s is below the required %s", mt.name, v, printBound(mt.bound))})
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
				res.problems = append(res.problems, accProblem{metric: mt.name, text: fmt.Sprintf("%s value %q is not a number (the checker crashes on it)", mt.name, v)})
			case f > mt.bound:
				res.problems = append(res.problems, accProblem{metric: mt.name, text: fmt.Sprintf("%s = %s is above the upper limit %s", mt.name, v, printBound(mt.bound))})
			}
		}
		if allSeen() && res.hash != "" {
			break
		}
	}
	for i, mt := range metrics {
		if !seen[i] {
			if _, found := res.values[mt.name]; !found {
				res.problems = append(res.problems, accProblem{metric: mt.name, unmatched: true,
					text: fmt.Sprintf("no line matches the checker's %s pattern %s", mt.name, mt.pattern)})
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
// that); a "hash=" line is refused because packaging appends it. round
// names the round whose checker reads the file ("" is DefaultRound; v6.0's
// llama2-70b-99 is in no other).
func IngestEvaluatorOutput(benchName, round string, output []byte) ([]byte, error) {
	bench, err := CanonicalBenchmark(benchName)
	if err != nil {
		return nil, err
	}
	if round == "" {
		round = DefaultRound
	}
	r, err := LookupRound(round)
	if err != nil {
		return nil, err
	}
	rules, ok := r.Benchmarks[bench]
	if !ok {
		return nil, fmt.Errorf("submission: %s is not a benchmark of round %s", bench, round)
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
