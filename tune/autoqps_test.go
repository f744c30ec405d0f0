package tune

import (
	"testing"

	"github.com/mlperf-go/mlperf-go/results"
)

// TestIsQuickRun: a run is quick by its record's field or, for records
// written before the field, by --quick on its command line.
func TestIsQuickRun(t *testing.T) {
	for _, tc := range []struct {
		quick bool
		cmd   []string
		want  bool
	}{
		{true, nil, true},
		{false, []string{"mlperf-go", "run", "--quick"}, true},
		{false, []string{"mlperf-go", "run", "-quick"}, true},
		{false, []string{"mlperf-go", "run", "--quick=true"}, true},
		{false, []string{"mlperf-go", "run", "--quick=false"}, false},
		{false, []string{"mlperf-go", "run", "-o", "quick"}, false},
		{false, []string{"mlperf-go", "run"}, false},
	} {
		r := &results.Results{Run: results.Run{Quick: tc.quick, Command: tc.cmd}}
		if got := IsQuickRun(r); got != tc.want {
			t.Errorf("IsQuickRun(quick=%v, %q) = %v, want %v", tc.quick, tc.cmd, got, tc.want)
		}
	}
}
