package filing

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/submission/internal/logtest"
)

// recordedRun is a run folder as the run command leaves it: LoadGen's
// logs, its user.conf and its run record, with outcome.
func recordedRun(t *testing.T, kind, outcome string) string {
	t.Helper()
	r := newRun(t, "", kind, "Offline")
	uc, err := os.ReadFile(r.UserConf)
	if err != nil {
		t.Fatal(err)
	}
	logtest.MustWrite(t, filepath.Join(r.LogDir, record.UserConfFile), string(uc))
	if err := record.Write(r.LogDir, record.Run{Command: []string{"mlperf-go", "run"}, Benchmark: "llama3_1-8b", Scenario: "Offline",
		Kind: kind, Outcome: outcome}); err != nil {
		t.Fatal(err)
	}
	return r.LogDir
}

// TestFileRecorded: a run measured without (or before a failed) filing is
// filed from its folder alone, as the run would have filed it; an INVALID
// one only with allowUnofficial, and a folder with no run record is
// refused saying what to give.
func TestFileRecorded(t *testing.T) {
	results := t.TempDir()
	dest, err := FileRecorded(recordedRun(t, "performance", record.Valid), results, "sys1", false, false)
	if want := filepath.Join(results, "sys1/llama3.1-8b/Offline/performance/run_1"); err != nil || dest != want {
		t.Fatalf("FileRecorded: %q, %v; want %s", dest, err, want)
	}
	if _, err := os.Stat(filepath.Join(results, "sys1/llama3.1-8b/Offline/user.conf")); err != nil {
		t.Errorf("the scenario's user.conf was not filed: %v", err)
	}
	invalid := recordedRun(t, "accuracy", record.Invalid)
	if _, err := FileRecorded(invalid, results, "sys1", false, false); err == nil || !strings.Contains(err.Error(), "add --allow-unofficial-settings") {
		t.Errorf("an INVALID run: %v", err)
	}
	if _, err := FileRecorded(invalid, results, "sys1", false, true); err != nil {
		t.Errorf("an INVALID run with allowUnofficial: %v", err)
	}
	if _, err := FileRecorded(t.TempDir(), results, "sys1", false, false); err == nil || !strings.Contains(err.Error(), "give the folder of one run") {
		t.Errorf("a folder with no run: %v", err)
	}
}

// TestPrecheckRefusesUnwritable: a results tree that cannot be written is
// found before the test, naming the folder; here its path runs through a
// file (a read-only file system or a folder of another user's fail the
// same check, creating a file in the nearest folder that exists).
func TestPrecheckRefusesUnwritable(t *testing.T) {
	r := newRun(t, "", "performance", "Offline")
	file := filepath.Join(t.TempDir(), "a-file")
	logtest.MustWrite(t, file, "")
	r.ResultsDir = filepath.Join(file, "results")
	if err := Precheck(r, []byte("x")); err == nil || !strings.Contains(err.Error(), "cannot file into "+filepath.Join(r.ResultsDir, "sys1")) ||
		!strings.Contains(err.Error(), "choose a --results-dir this user can write to") {
		t.Errorf("a results tree under a file: %v", err)
	}
	if os.Geteuid() != 0 { // root writes into any folder
		ro := t.TempDir()
		os.Chmod(ro, 0o555)
		t.Cleanup(func() { os.Chmod(ro, 0o755) })
		r.ResultsDir = filepath.Join(ro, "results")
		if err := Precheck(r, []byte("x")); err == nil || !strings.Contains(err.Error(), "cannot file into") {
			t.Errorf("a read-only folder: %v", err)
		}
	}
	r.ResultsDir = t.TempDir()
	if err := Precheck(r, []byte("x")); err != nil {
		t.Errorf("a writable results tree: %v", err)
	}
	if entries, _ := os.ReadDir(r.ResultsDir); len(entries) != 0 {
		t.Errorf("the check left %v behind", entries)
	}
}
