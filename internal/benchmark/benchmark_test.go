package benchmark

import (
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/sut"
)

func TestLookup(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		api        sut.API
		size       int
	}{
		{"qwen3-vl-235b-a22b", "qwen3-vl-235b-a22b", sut.APIChat, 48289},
		{"llama3_1-8b", "llama3_1-8b", sut.APICompletions, 13368},
		{"llama3.1-8b", "llama3_1-8b", sut.APICompletions, 13368}, // the submission directory name
		{"gpt-oss-120b", "gpt-oss-120b", sut.APISGLang, 6396},
	} {
		b, err := Lookup(tc.name)
		if err != nil || b.Name != tc.want || b.API != tc.api || b.DatasetSize != tc.size {
			t.Errorf("Lookup(%q) = %+v, %v", tc.name, b, err)
		}
	}
	if _, err := Lookup("resnet50"); err == nil || !strings.Contains(err.Error(), "llama3_1-8b") {
		t.Errorf("unknown benchmark: error %v should list the known ones", err)
	}
}

func TestParseAPI(t *testing.T) {
	for in, want := range map[string]sut.API{
		"openai-chat": sut.APIChat, "chat": sut.APIChat,
		"openai-completions": sut.APICompletions, "completions": sut.APICompletions,
		"sglang-generate": sut.APISGLang, "sglang": sut.APISGLang,
	} {
		if got, err := ParseAPI(in); err != nil || got != want {
			t.Errorf("ParseAPI(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseAPI("grpc"); err == nil || !strings.Contains(err.Error(), "sglang-generate") {
		t.Errorf("ParseAPI(grpc): error %v should list the APIs", err)
	}
}
