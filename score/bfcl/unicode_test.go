package bfcl

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// TestUnicodeCallsGolden: text-form calls with \N{NAME} escapes and
// non-ASCII keyword names extract as mlcommons/endpoints'
// FunctionCallExtractor extracts them under CPython 3.12
// (testdata/unicode_calls.json, from gen_unicode_calls.py): names resolved,
// an unknown name making the arguments {"_raw": ...}, keywords
// NFKC-normalized.
func TestUnicodeCallsGolden(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/unicode_calls.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Cases []struct {
			Output  string
			Extract json.RawMessage
		}
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	for _, c := range g.Cases {
		ext, err := Extract(c.Output)
		want, wantErr := pyResult(c.Extract)
		if wantErr != "" {
			if errType(err) != wantErr {
				t.Errorf("%q: Python raises %s, the port %v / %q", c.Output, wantErr, err, ext.JSON)
			}
			continue
		}
		if err != nil || ext.JSON != want.(string) {
			t.Errorf("%q: extract %q (%v), Python %q", c.Output, ext.JSON, err, want)
		}
	}
}

// TestDepthNote: an answer nested as deeply as CPython's json.loads may
// refuse, depending on how many C calls lie between it and the reference
// scorer (pyval's testdata/json_depth.json), is scored with a note saying
// so; a shallower one without.
func TestDepthNote(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("pyval/testdata/json_depth.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		FirstFailing []int `json:"first_failing_by_c_calls"`
	}
	if err := json.Unmarshal(raw, &g); err != nil || len(g.FirstFailing) == 0 {
		t.Fatalf("json_depth.json: %v", err)
	}
	s := Sample{Subset: "irrelevance"} // json.loads reads the whole answer
	nested := func(d int) string { return strings.Repeat("[", d) + strings.Repeat("]", d) }
	for d := g.FirstFailing[len(g.FirstFailing)-1] - 3; d <= pyval.MaxDepth; d++ {
		_, note, err := ScoreSample(s, nested(d))
		if err != nil {
			t.Fatalf("depth %d: %v", d, err)
		}
		// CPython refuses this depth through some number of C calls.
		refusable := d >= g.FirstFailing[len(g.FirstFailing)-1]
		if refusable != (note != "") {
			t.Errorf("depth %d: note %q; CPython refuses it through %d C calls: %v", d, note, len(g.FirstFailing)-1, refusable)
		}
	}
	if _, _, err := ScoreSample(s, nested(g.FirstFailing[0])); errType(err) != "RecursionError" {
		t.Errorf("depth %d: %v; json.loads called directly raises RecursionError", g.FirstFailing[0], err)
	}
}
