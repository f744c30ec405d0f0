package benchmark_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	. "github.com/mlperf-go/mlperf-go/benchmark"
	_ "github.com/mlperf-go/mlperf-go/benchmarks/all"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/protocol/openaicompletions"
	"github.com/mlperf-go/mlperf-go/protocol/sglang"
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
		if err != nil || b.Name != tc.want || b.Serving.API.Name() != tc.api || b.Data.Size != tc.size {
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
		{"qwen3-vl-235b-a22b-interactive", "qwen3-vl-235b-a22b", "qwen3-vl-235b-a22b", 8000, 8000},
	} {
		b, err := Lookup(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		base, _ := Lookup(tc.base)
		if b.Name != tc.name || b.Base != tc.base || b.SubmissionDir != tc.dir || b.Data.Size != tc.size || b.Data.AccuracySize != tc.acc ||
			b.Serving.API != base.Serving.API || b.Serving.Model != base.Serving.Model || b.Data.Open == nil {
			t.Errorf("Lookup(%q) = %+v", tc.name, b)
		}
	}
	names := Names()
	for _, want := range []string{"gpt-oss-120b", "gpt-oss-120b-interactive", "llama3_1-8b", "llama3_1-8b-edge", "llama3_1-8b-interactive", "qwen3-vl-235b-a22b", "qwen3-vl-235b-a22b-interactive"} {
		found := false
		for _, n := range names {
			found = found || n == want
		}
		if !found {
			t.Errorf("Names() = %v lacks %q", names, want)
		}
	}
}

// TestInteractiveVariants: --scenario Interactive's variant per benchmark,
// the model name LoadGen runs it under (qwen3-vl's has no mlperf.conf entry
// of its own, so it runs as qwen3-vl-235b-a22b with the 1.5 s target
// latency on top and reads the 8k dataset's train split), and none for
// the edge variant, whose base's variant list it carries.
func TestInteractiveVariants(t *testing.T) {
	for _, tc := range []struct {
		name, want, lg string
		settings       []Setting
		splits         []string
	}{
		{"llama3_1-8b", "llama3_1-8b-interactive", "llama3_1-8b-interactive", nil, nil},
		{"llama3_1-8b-interactive", "llama3_1-8b-interactive", "llama3_1-8b-interactive", nil, nil},
		{"gpt-oss-120b", "gpt-oss-120b-interactive", "gpt-oss-120b-interactive", nil, nil},
		{"qwen3-vl-235b-a22b", "qwen3-vl-235b-a22b-interactive", "qwen3-vl-235b-a22b", []Setting{{Key: "target_latency", Value: "1500"}}, []string{"train"}},
	} {
		b, _ := Lookup(tc.name)
		iv, err := b.InteractiveVariant()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var kv []Setting
		for _, s := range iv.LoadGen.Settings {
			if s.Why == "" {
				t.Errorf("%s: setting %s says not why", tc.name, s.Key)
			}
			kv = append(kv, Setting{Key: s.Key, Value: s.Value})
		}
		if iv.Name != tc.want || iv.LoadGenModel() != tc.lg || !iv.IsInteractive() || !cmp.Equal(kv, tc.settings) || !cmp.Equal(iv.Data.Splits, tc.splits) {
			t.Errorf("%s: Interactive variant %s (LoadGen %s, settings %v, splits %v)", tc.name, iv.Name, iv.LoadGenModel(), kv, iv.Data.Splits)
		}
	}
	base, _ := Lookup("qwen3-vl-235b-a22b")
	if base.LoadGenModel() != "qwen3-vl-235b-a22b" || base.LoadGen.Settings != nil || base.Data.Splits != nil || base.IsInteractive() {
		t.Errorf("the base benchmark took its variant's facts: %+v", base)
	}
	edge, _ := Lookup("llama3_1-8b-edge")
	if _, err := edge.InteractiveVariant(); err == nil || !strings.Contains(err.Error(), "llama3_1-8b-edge has no Interactive scenario") {
		t.Errorf("edge Interactive: error %v", err)
	}
}

// TestRegisterRefusesTakenNames: a second benchmark may not take a name,
// variant name or submission directory already registered.
func TestRegisterRefusesTakenNames(t *testing.T) {
	open := func([]string, []string) (Dataset, error) { return nil, nil }
	for _, b := range []Benchmark{
		{Identity: Identity{Name: "llama3_1-8b", SubmissionDir: "x"}, Data: Data{Open: open}},
		{Identity: Identity{Name: "new", SubmissionDir: "llama3.1-8b"}, Data: Data{Open: open}},
		{Identity: Identity{Name: "new", SubmissionDir: "new"}, Variants: []Variant{{Name: "gpt-oss-120b-interactive"}}, Data: Data{Open: open}},
		{Identity: Identity{Name: "new", SubmissionDir: "new"}},                                                                                 // no dataset reader
		{Identity: Identity{Name: "new", SubmissionDir: "new"}, Data: Data{Open: open}, Variants: []Variant{{Name: "new-edge", Data: &Data{}}}}, // a variant's data without a reader
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
// reference's (language/llama3.1-8b/SUT_VLLM.py gen_kwargs,
// language/gpt-oss-120b/generation_config.json), decoded into its
// protocol's parameters; a protocol a benchmark has no defaults for, and
// qwen3-vl's chat, send the protocol's DefaultParams: nothing.
func TestDefaultSampling(t *testing.T) {
	ptr := func(v float64) *float64 { return &v }
	iptr := func(v int) *int { return &v }
	seed := int64(42)
	for _, tc := range []struct {
		bench string
		api   protocol.Protocol
		want  protocol.Params
	}{
		{"llama3_1-8b", openaicompletions.Protocol, &openaicompletions.Params{
			Temperature: ptr(0), TopP: ptr(1), TopK: iptr(1), Seed: &seed, MaxTokens: iptr(128), MinTokens: iptr(1)}},
		{"gpt-oss-120b", sglang.Protocol, &sglang.Params{MaxNewTokens: iptr(32768), Temperature: ptr(1), TopK: iptr(-1), TopP: ptr(1)}},
		{"llama3_1-8b", sglang.Protocol, &sglang.Params{}},
		{"gpt-oss-120b", openaicompletions.Protocol, &openaicompletions.Params{}},
		{"qwen3-vl-235b-a22b", openaichat.Protocol, &openaichat.Params{}},
	} {
		b, _ := Lookup(tc.bench)
		got, err := b.DefaultSampling(tc.api)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s over %s sampling (-reference +registered):\n%s", tc.bench, tc.api.Name(), diff)
		}
	}
	if q, _ := Lookup("qwen3-vl-235b-a22b"); len(q.Serving.Sampling) != 0 {
		t.Errorf("qwen3-vl sends no sampling parameter by default, registered %s", q.Serving.Sampling)
	}
	bad := Benchmark{Identity: Identity{Name: "bad"}, Serving: Serving{Sampling: map[protocol.Protocol]json.RawMessage{sglang.Protocol: json.RawMessage(`{"max_tokens": 1}`)}}}
	if _, err := bad.DefaultSampling(sglang.Protocol); err == nil || !strings.Contains(err.Error(), "max_tokens") {
		t.Errorf("a key SGLang does not take: error %v", err)
	}
}

// TestEveryBenchmarkIsComplete: what the CLI and the submission checks
// need is there for every registered benchmark. A benchmark may belong to
// some rounds only (v6.0's llama2-70b-99), but to one at least.
func TestEveryBenchmarkIsComplete(t *testing.T) {
	for _, b := range All() {
		if b.Data.Synth == nil || b.Serving.Model == "" || b.Data.Size == 0 || b.Data.AccuracySize == 0 || b.Description == "" || b.Data.Help == "" || b.Data.Scoring == "" || b.Data.InputDataTypes == "" {
			t.Errorf("%s lacks facts or behaviour: %+v", b.Name, b)
		}
		if len(b.Submission.Rounds) == 0 {
			t.Errorf("%s belongs to no round", b.Name)
		}
		for round, r := range b.Submission.Rounds {
			if round != "v6.0" && round != "v6.1" || r == nil {
				t.Errorf("%s has rules for %q (%v): rounds are v6.0 and v6.1", b.Name, round, r)
				continue
			}
		}
		for test, c := range b.Submission.Compliance {
			if len(c.AuditConfig) == 0 {
				t.Errorf("%s requires %s, which has no audit.config", b.Name, test)
			}
		}
	}
}
