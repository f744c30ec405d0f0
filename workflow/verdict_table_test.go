package workflow

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/record"
)

// TestVerdictTableFitsValues: the verdict table prints each value whole,
// as accuracy.txt holds it, and its columns stay aligned however long a
// value is.
func TestVerdictTableFitsValues(t *testing.T) {
	t.Parallel()
	v := &record.Accuracy{Round: "v6.1", Scenario: "Offline", Pass: true, Metrics: []record.AccuracyMetric{
		{Name: "F1_HIERARCHICAL", Value: "0.9094890510948905", Bound: "0.7799", Pass: true},
		{Name: "ROUGE1", Value: "38.9", Bound: "38.3", Upper: "40.1", Pass: true},
	}}
	var b bytes.Buffer
	printVerdict(&b, v)
	var rows []string
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "  ") {
			rows = append(rows, l)
		}
	}
	if len(rows) != 3 || !strings.Contains(rows[1], " 0.9094890510948905 ") {
		t.Fatalf("table:\n%s", b.String())
	}
	// The bound and verdict columns start where the header's do.
	for _, col := range []string{"bound", "verdict"} {
		at := strings.Index(rows[0], col)
		for _, r := range rows[1:] {
			if at >= len(r) || r[at-1] != ' ' || r[at] == ' ' {
				t.Errorf("column %q (at %d) is not aligned in:\n%s", col, at, b.String())
			}
		}
	}
}

// TestResultLinesInMilliseconds: a latency LoadGen's result line gives in
// nanoseconds reads in milliseconds, LoadGen's figure beside it; other
// lines are as LoadGen wrote them.
func TestResultLinesInMilliseconds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, name, value string }{
		{"90.0th percentile latency (ns)|1939383", "90.0th percentile latency", "1.939 ms (1939383 ns)"},
		{"Samples per second|98.9", "Samples per second", "98.9"},
		{"Result is|VALID", "Result is", "VALID"},
		{"odd (ns)|n/a", "odd (ns)", "n/a"},
	} {
		in := strings.SplitN(tc.in, "|", 2)
		if name, value := inMilliseconds([2]string{in[0], in[1]}); name != tc.name || value != tc.value {
			t.Errorf("%s: %q %q, want %q %q", tc.in, name, value, tc.name, tc.value)
		}
	}
}
