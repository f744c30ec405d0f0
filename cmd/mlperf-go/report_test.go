package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReportCommandErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"report"}, "give at least one DIR"},
		{[]string{"report", filepath.Join(dir, "missing")}, "is not a directory"},
		{[]string{"report", dir}, "no run under"},
	} {
		_, err := runCLI(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one containing %q", c.args, err, c.want)
		}
	}
	// A run whose detail log is malformed: the error names the file and line.
	run := filepath.Join(dir, "run")
	os.MkdirAll(run, 0o755)
	os.WriteFile(filepath.Join(run, "mlperf_log_detail.txt"), []byte(":::MLLOG {\"key\": \"effective_scenario\", \"value\": \"Offline\"}\nnot a log line\n"), 0o644)
	_, err := runCLI(t, "report", run)
	if err == nil || !strings.Contains(err.Error(), "mlperf_log_detail.txt, line 2") {
		t.Errorf("malformed detail log: %v", err)
	}
}
