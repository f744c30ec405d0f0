package bench

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/fake"
)

// TestRequestsFileNamesAreSafe: the requests JSONL of a target named after
// its host (127.0.0.1:PORT, as --endpoint names it) at a load point of
// fixed intervals ("every 1ms") is saved under a name of letters, digits,
// '.', '_' and '-' alone (a colon is refused by Windows and SMB shares),
// two targets whose names differ only in such characters ("a:b", "a_b")
// keep files of their own, and bench merge reads the files back and writes
// its own as safely.
func TestRequestsFileNamesAreSafe(t *testing.T) {
	t.Parallel()
	addr := startFake(t, fake.Config{}, nil)
	u, err := url.Parse(addr)
	if err != nil {
		t.Fatal(err)
	}
	w, err := Synthetic(SyntheticOptions{Requests: 3, InputLen: 4, OutputLen: 2})
	if err != nil {
		t.Fatal(err)
	}
	res, recs, err := Run(context.Background(), w, Options{Targets: []Target{{Name: u.Host, URLs: []string{addr}}, {Name: "a:b", URLs: []string{addr}}, {Name: "a_b", URLs: []string{addr}}},
		Stream: true, Loads: []Load{{Interval: time.Millisecond}}})
	if err != nil {
		t.Fatal(err)
	}
	safe := regexp.MustCompile(`^requests-[A-Za-z0-9._-]+\.jsonl$`)
	check := func(what string, res *Results) {
		seen := map[string]bool{}
		for _, run := range res.Runs {
			if !safe.MatchString(run.RequestsFile) {
				t.Errorf("%s: %s at %s saved as %q, which holds a character some file systems refuse", what, run.Target, run.Label, run.RequestsFile)
			}
			if seen[run.RequestsFile] {
				t.Errorf("%s: two runs saved into %q", what, run.RequestsFile)
			}
			seen[run.RequestsFile] = true
		}
	}
	saved := saveAndRead(t, res, recs)
	check("bench", saved.Res)
	for j, r := range saved.Records {
		if len(r) != 3 {
			t.Errorf("%s read back %d records, want 3", saved.Res.Runs[j].RequestsFile, len(r))
		}
	}
	merged, mrecs, err := Merge([]*Saved{saved})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := WriteFiles(dir, merged, mrecs); err != nil {
		t.Fatal(err)
	}
	check("bench merge", merged)
	if files, _ := filepath.Glob(filepath.Join(dir, "requests-*.jsonl")); len(files) != 3 {
		t.Errorf("bench merge wrote %q, want one requests file per target", files)
	}
	if _, err := os.Stat(filepath.Join(dir, "results.json")); err != nil {
		t.Error(err)
	}
}
