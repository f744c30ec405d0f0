package benchmark

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestVerdictsRoundTrip: WriteVerdicts writes one JSON line per sample, a
// missing extraction as null and text unescaped, and ReadVerdicts reads the
// same back; an empty path writes nothing.
func TestVerdictsRoundTrip(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "v.jsonl")
	vs := []SampleVerdict{
		{Index: 3, Subset: "gpqa", Extracted: Extracted("A", true), Correct: Verdict(true), Why: "Correct"},
		{Index: 0, Subset: "aime", Extracted: Extracted("", false), Correct: Verdict(false), Why: "No answer extracted from model output"},
		{Index: 1, Extracted: Extracted("a > b <c>", true), Metrics: map[string]float64{"rouge1": 0.5}},
	}
	if err := WriteVerdicts(path, vs); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], `"extracted":null`) || !strings.Contains(lines[2], `a > b <c>`) {
		t.Errorf("file:\n%s", raw)
	}
	got, err := ReadVerdicts(path)
	if err != nil || !reflect.DeepEqual(got, vs) {
		t.Errorf("read back %+v (%v), wrote %+v", got, err, vs)
	}
	if err := WriteVerdicts("", vs); err != nil {
		t.Errorf("empty path: %v", err)
	}
	if err := WriteVerdicts(filepath.Join(t.TempDir(), "no", "such", "dir.jsonl"), vs); err == nil || !strings.Contains(err.Error(), "per-sample verdicts") {
		t.Errorf("unwritable path: %v", err)
	}
}
