// Package q3vlvectors loads, for tests, the Qwen3-VL request vectors made
// by the reference's own code: benchmarks/qwen3vl/testdata's copy of
// shared/testdata/q3vl/request_messages.json (see the README beside the
// shared one). The copy in the repository is read, so the tests that use it
// run in every checkout rather than skipping where shared/ is elsewhere.
package q3vlvectors

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/openai/openai-go"
)

// Record is one vector: a sample of the dataset (its fields and image),
// the messages the reference (task.py formulate_loaded_sample, run with its
// own templates and pydantic) built from it, and the response_format it
// sends with guided decoding.
type Record struct {
	Sample struct {
		Title        string   `json:"product_title"`
		Description  string   `json:"product_description"`
		Categories   []string `json:"potential_product_categories"`
		Category     string   `json:"ground_truth_category"`
		Brand        string   `json:"ground_truth_brand"`
		IsSecondhand bool     `json:"ground_truth_is_secondhand"`
	} `json:"sample"`
	ImageBase64    string          `json:"image_base64"`
	ImageFormat    string          `json:"image_format"`
	Messages       json.RawMessage `json:"messages"`
	ResponseFormat json.RawMessage `json:"response_format_when_guided"`
}

// Load reads every vector; a missing or malformed file fails the test.
func Load(t testing.TB) []Record {
	t.Helper()
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("q3vlvectors: cannot locate the repository")
	}
	path := filepath.Join(filepath.Dir(here), "..", "..", "benchmarks", "qwen3vl", "testdata", "q3vl_request_messages.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []Record
	if err := json.Unmarshal(raw, &recs); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(recs) == 0 {
		t.Fatalf("%s holds no vectors", path)
	}
	return recs
}

// Messages decodes a vector's messages into the openai-go types the
// encoders take.
func Messages(t testing.TB, raw json.RawMessage) []openai.ChatCompletionMessageParamUnion {
	t.Helper()
	var m []openai.ChatCompletionMessageParamUnion
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
