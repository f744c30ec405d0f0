package benchmark

import (
	"strings"
	"testing"
)

// TestLookup: each benchmark by its LoadGen name (or submission
// directory), with its default endpoint API. The API names themselves are
// parsed, and tested, in package protocol.
func TestLookup(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		api        string
		size       int
	}{
		{"qwen3-vl-235b-a22b", "qwen3-vl-235b-a22b", "openai-chat", 48289},
		{"llama3_1-8b", "llama3_1-8b", "openai-completions", 13368},
		{"llama3.1-8b", "llama3_1-8b", "openai-completions", 13368}, // the submission directory name
		{"gpt-oss-120b", "gpt-oss-120b", "sglang-generate", 6396},
	} {
		b, err := Lookup(tc.name)
		if err != nil || b.Name != tc.want || b.API.Name() != tc.api || b.DatasetSize != tc.size {
			t.Errorf("Lookup(%q) = %+v, %v", tc.name, b, err)
		}
	}
	if _, err := Lookup("resnet50"); err == nil || !strings.Contains(err.Error(), "llama3_1-8b") {
		t.Errorf("unknown benchmark: error %v should list the known ones", err)
	}
}
