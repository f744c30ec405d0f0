package submission

import (
	"fmt"
	"strconv"

	"github.com/mlperf-go/mlperf-go/record"
)

// JudgeAccuracy reads accuracy.txt content as the round's submission checker
// reads it for benchmark bench (any of its names) in a scenario directory
// ("Offline", "Interactive", …) and returns the verdict per metric: the
// value the checker's pattern reads, the bound it must meet, an upper limit
// where the checker has one, and PASS or FAIL. It is the one verdict on
// accuracy: `evaluate`, `run --evaluate`, `--mode both`, the report and
// `submission check` all judge through the same rules.
func JudgeAccuracy(bench, round, scenario string, content []byte) (*record.Accuracy, error) {
	rules, round, err := accuracyRules(bench, round)
	if err != nil {
		return nil, err
	}
	return judge(rules, round, scenario, content, ""), nil
}

// JudgePartialAccuracy is JudgeAccuracy for the accuracy.txt of a log that
// holds logged distinct samples: when that is fewer than the round's
// accuracy run covers (--total-sample-count, --quick, a small synthetic
// set), the verdict says so (Partial) and leaves unjudged the metrics that
// are totals over the whole set, which such a log cannot reach; the means
// (ROUGE, F1, exact match) are judged on the samples it has.
func JudgePartialAccuracy(bench, round, scenario string, content []byte, logged int64) (*record.Accuracy, error) {
	rules, round, err := accuracyRules(bench, round)
	if err != nil {
		return nil, err
	}
	partial := ""
	if want := rules.AccuracySamples(scenario); want > 0 && logged < want {
		partial = fmt.Sprintf("%d of %d samples", logged, want)
	}
	return judge(rules, round, scenario, content, partial), nil
}

// accuracyRules are the round's rules for bench ("" round: DefaultRound)
// and the round's name.
func accuracyRules(bench, round string) (*BenchmarkRules, string, error) {
	name, err := CanonicalBenchmark(bench)
	if err != nil {
		return nil, "", err
	}
	if round == "" {
		round = DefaultRound
	}
	r, err := LookupRound(round)
	if err != nil {
		return nil, "", err
	}
	rules, ok := r.Benchmarks[name]
	if !ok {
		return nil, "", fmt.Errorf("submission: %s is not a benchmark of round %s", name, round)
	}
	return rules, round, nil
}

// judge is JudgeAccuracy's verdict under rules; partial, when set, is how
// much of the set the log covers (JudgePartialAccuracy).
func judge(rules *BenchmarkRules, round, scenario string, content []byte, partial string) *record.Accuracy {
	lower := rules.accuracyMetrics(scenario)
	res := evalAccuracyTxt(content, lower, rules.upper)
	v := &record.Accuracy{Round: round, Scenario: scenario, Pass: true, Partial: partial}
	for _, mt := range lower {
		m := record.AccuracyMetric{Name: mt.name, Value: res.values[mt.name], Bound: printBound(mt.bound)}
		f, err := strconv.ParseFloat(m.Value, 64)
		m.Pass = err == nil && f >= mt.bound
		for _, up := range rules.upper {
			if up.name == mt.name {
				m.Upper = printBound(up.bound)
				m.Pass = m.Pass && f <= up.bound
			}
		}
		m.NotJudged = partial != "" && totalMetrics[mt.name]
		if m.NotJudged {
			m.Pass = false
		} else {
			v.Pass = v.Pass && m.Pass
		}
		v.Metrics = append(v.Metrics, m)
	}
	for _, p := range res.problems {
		if partial != "" && totalMetrics[p.metric] {
			continue // a bound a partial log cannot reach
		}
		if !p.unmatched || !v.Pass {
			v.Problems = append(v.Problems, p.text)
		}
	}
	if len(lower) == 0 {
		v.Pass = false
		v.Problems = append(v.Problems, fmt.Sprintf("the %s rules of %s name no accuracy metric", round, rules.Name))
	}
	return v
}

// printBound prints an accuracy bound as the checker's target reads, a
// decimal constant times a fraction (38.7792 * 0.99 is 38.391408), without
// the binary noise Python's repr shows (38.391408000000006): ten
// significant digits keep every digit of such a product.
func printBound(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }
