package pack

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/record"
)

// TestReadmeRecordsRoundAndRequests: the scenario README states the round a
// run followed and, where the round decides them, whose requests it sent.
func TestReadmeRecordsRoundAndRequests(t *testing.T) {
	src := t.TempDir()
	dir := filepath.Join(src, "performance", "run_1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	info := record.Run{Command: []string{"mlperf-go", "run", "--round", "v6.0"}, Round: "v6.0", Requests: "round v6.0 reference: the LoadGen harness"}
	if err := record.Write(dir, info); err != nil {
		t.Fatal(err)
	}
	back, err := record.Read(dir)
	if err != nil || back.Round != "v6.0" || back.Requests != info.Requests {
		t.Fatalf("run info read back as %+v, %v", back, err)
	}
	b, err := scenarioReadme(src, "sys1", "qwen3-vl-235b-a22b", "Offline", "v6.0")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- Round: v6.0\n", "- Requests: round v6.0 reference: the LoadGen harness\n"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("README lacks %q:\n%s", want, b)
		}
	}
}
