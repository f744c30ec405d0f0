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
