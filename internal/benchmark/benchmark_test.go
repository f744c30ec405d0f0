package benchmark_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	_ "github.com/mlperf-go/mlperf-go/benchmarks/all"
	. "github.com/mlperf-go/mlperf-go/internal/benchmark"
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

// TestVariants: a variant's LoadGen name finds its benchmark with the
// variant's facts in place; the rest is the benchmark's.
func TestVariants(t *testing.T) {
	for _, tc := range []struct {
		name, base, dir string
		size, acc       int
	}{
		{"llama3_1-8b-interactive", "llama3_1-8b", "llama3.1-8b", 13368, 13368},
		{"llama3_1-8b-edge", "llama3_1-8b", "llama3.1-8b-edge", 5000, 5000},
		{"gpt-oss-120b-interactive", "gpt-oss-120b", "gpt-oss-120b", 6396, 4395},
	} {
		b, err := Lookup(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		base, _ := Lookup(tc.base)
		if b.Name != tc.name || b.Base != tc.base || b.SubmissionDir != tc.dir || b.DatasetSize != tc.size || b.AccuracySize != tc.acc ||
			b.API != base.API || b.Model != base.Model || b.Open == nil {
			t.Errorf("Lookup(%q) = %+v", tc.name, b)
		}
	}
	names := Names()
	for _, want := range []string{"gpt-oss-120b", "gpt-oss-120b-interactive", "llama3_1-8b", "llama3_1-8b-edge", "llama3_1-8b-interactive", "qwen3-vl-235b-a22b"} {
		found := false
		for _, n := range names {
			found = found || n == want
		}
		if !found {
			t.Errorf("Names() = %v lacks %q", names, want)
		}
	}
}

// TestRegisterRefusesTakenNames: a second benchmark may not take a name,
// variant name or submission directory already registered.
func TestRegisterRefusesTakenNames(t *testing.T) {
	open := func([]string, []string) (Dataset, error) { return nil, nil }
	for _, b := range []Benchmark{
		{Name: "llama3_1-8b", SubmissionDir: "x", Open: open},
		{Name: "new", SubmissionDir: "llama3.1-8b", Open: open},
		{Name: "new", SubmissionDir: "new", Variants: []Variant{{Name: "gpt-oss-120b-interactive"}}, Open: open},
		{Name: "new", SubmissionDir: "new"}, // no dataset reader
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%+v) did not panic", b)
				}
			}()
			Register(b)
		}()
	}
}

// TestDefaultSampling: each benchmark's default generation config is the
// reference's, as sut states it.
func TestDefaultSampling(t *testing.T) {
	llama, _ := Lookup("llama3_1-8b")
	var c sut.CompletionParams
	if err := sut.DecodeGenerationConfig(llama.Sampling[sut.APICompletions], &c); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sut.DefaultCompletionParams(), c); diff != "" {
		t.Errorf("llama3_1-8b sampling (-reference +registered):\n%s", diff)
	}
	gptoss, _ := Lookup("gpt-oss-120b")
	var s sut.SGLangParams
	if err := sut.DecodeGenerationConfig(gptoss.Sampling[sut.APISGLang], &s); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sut.DefaultSGLangParams(), s); diff != "" {
		t.Errorf("gpt-oss-120b sampling (-reference +registered):\n%s", diff)
	}
	if q, _ := Lookup("qwen3-vl-235b-a22b"); len(q.Sampling) != 0 {
		t.Errorf("qwen3-vl sends no sampling parameter by default, registered %s", q.Sampling)
	}
}

// TestEveryBenchmarkIsComplete: what the CLI and the submission checks
// need is there for every registered benchmark.
func TestEveryBenchmarkIsComplete(t *testing.T) {
	for _, b := range All() {
		if b.Synth == nil || b.Model == "" || b.DatasetSize == 0 || b.AccuracySize == 0 || b.Description == "" || b.DatasetHelp == "" || b.InputDataTypes == "" {
			t.Errorf("%s lacks facts or behaviour: %+v", b.Name, b)
		}
		for _, round := range []string{"v6.0", "v6.1"} {
			r := b.Rounds[round]
			if r == nil {
				t.Errorf("%s has no %s rules", b.Name, round)
				continue
			}
			for _, test := range r.Compliance {
				if c, ok := b.Compliance[test]; !ok || len(c.AuditConfig) == 0 {
					t.Errorf("%s: round %s requires %s, which has no audit.config", b.Name, round, test)
				}
			}
		}
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
