package tokensynth_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/benchmarks/gptoss120b"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokenset"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokensynth"
	"github.com/mlperf-go/mlperf-go/benchmarks/llama31"
)

type llmSample struct {
	Tokens  []int32
	Ref     string
	Dataset string
}

func readBack(t *testing.T, d *tokenset.Dataset) []llmSample {
	t.Helper()
	out := make([]llmSample, d.Len())
	for i := range out {
		out[i] = llmSample{Tokens: d.Tokens(i), Ref: d.Reference(i), Dataset: d.Meta(i).Dataset}
	}
	return out
}

func to32(v []int64) []int32 {
	out := make([]int32, len(v))
	for i, x := range v {
		out[i] = int32(x)
	}
	return out
}

func TestLlamaRoundTrip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "cnn_eval.json")
	if err := tokensynth.Llama(p, 40, 7); err != nil {
		t.Fatal(err)
	}
	d, err := llama31.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	var want []llmSample
	for _, r := range tokensynth.LlamaRecords(40, 7) {
		want = append(want, llmSample{Tokens: to32(r.TokInput), Ref: r.Output})
	}
	if diff := cmp.Diff(want, readBack(t, d)); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
}

func TestGPTOSSRoundTrip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "acc_eval_inputs.parquet")
	if err := tokensynth.GPTOSS(p, 40, 7); err != nil {
		t.Fatal(err)
	}
	d, err := gptoss120b.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if d.TokenColumn() != "tok_input" || d.Format() != "parquet" {
		t.Errorf("column, format = %q, %q; want tok_input, parquet", d.TokenColumn(), d.Format())
	}
	var want []llmSample
	for _, r := range tokensynth.GPTOSSRows(40, 7) {
		want = append(want, llmSample{Tokens: to32(r.TokInput), Ref: r.GroundTruth, Dataset: r.Dataset})
	}
	if diff := cmp.Diff(want, readBack(t, d)); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
}

// TestLlamaJSONMatchesPython re-encodes the records of a file Python's
// json.dump(indent=4, ensure_ascii=False) wrote and expects the same bytes.
func TestLlamaJSONMatchesPython(t *testing.T) {
	py, err := os.ReadFile(filepath.Join("..", "tokenset", "testdata", "tokens", "llama_cnn_eval.json"))
	if err != nil {
		t.Fatal(err)
	}
	var recs []tokensynth.LlamaRecord
	if err := json.Unmarshal(py, &recs); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := tokensynth.WriteLlamaJSON(&got, recs); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(py), got.String()); diff != "" {
		t.Errorf("Go encoding differs from Python's json.dump (-python +go):\n%s", diff)
	}
}

func TestLLMDeterministic(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, seed int64, w func(string, int, int64) error) []byte {
		p := filepath.Join(dir, name)
		if err := w(p, 12, seed); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, w := range []struct {
		name string
		fn   func(string, int, int64) error
	}{{"llama", tokensynth.Llama}, {"gptoss", tokensynth.GPTOSS}} {
		a, b, c := write(w.name+"a", 3, w.fn), write(w.name+"b", 3, w.fn), write(w.name+"c", 4, w.fn)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: same seed wrote different files", w.name)
		}
		if bytes.Equal(a, c) {
			t.Errorf("%s: seeds 3 and 4 wrote the same file", w.name)
		}
	}
	// A sample does not depend on how many are written.
	if diff := cmp.Diff(tokensynth.LlamaRecords(3, 9), tokensynth.LlamaRecords(8, 9)[:3]); diff != "" {
		t.Errorf("llama prefix changed with n (-3 +8):\n%s", diff)
	}
	if diff := cmp.Diff(tokensynth.GPTOSSRows(3, 9), tokensynth.GPTOSSRows(8, 9)[:3]); diff != "" {
		t.Errorf("gpt-oss prefix changed with n (-3 +8):\n%s", diff)
	}
}

func TestLLMPlausible(t *testing.T) {
	const n = 300
	check := func(name string, toks [][]int64, vocab int64) {
		lengths := map[int]bool{}
		lo, hi := 1<<30, 0
		for i, ts := range toks {
			lengths[len(ts)] = true
			lo, hi = min(lo, len(ts)), max(hi, len(ts))
			for j, x := range ts {
				if x < 0 || x >= vocab {
					t.Fatalf("%s sample %d token %d = %d outside [0,%d)", name, i, j, x, vocab)
				}
			}
		}
		if len(lengths) < n/4 || hi < 4*lo {
			t.Errorf("%s: %d distinct prompt lengths in [%d,%d]; want varied lengths", name, len(lengths), lo, hi)
		}
	}
	var lt [][]int64
	for i, r := range tokensynth.LlamaRecords(n, 1) {
		if r.TokInput[0] != tokensynth.LlamaBOS {
			t.Errorf("llama sample %d starts with %d, want <|begin_of_text|>", i, r.TokInput[0])
		}
		if r.Output == "" || r.Input == "" || !strings.Contains(r.Instruction["llama"], "{input}") {
			t.Errorf("llama sample %d has empty text fields: %+v", i, r)
		}
		lt = append(lt, r.TokInput)
	}
	check("llama", lt, tokensynth.LlamaVocab)

	var gt [][]int64
	sets := map[string]int{}
	for _, r := range tokensynth.GPTOSSRows(n, 1) {
		gt = append(gt, r.TokInput)
		sets[r.Dataset]++
		if r.GroundTruth == "" {
			t.Errorf("gpt-oss row has no ground truth: %+v", r.Dataset)
		}
	}
	check("gpt-oss", gt, tokensynth.GPTOSSVocab)
	for _, s := range []string{"aime25", "gpqa_diamond", "livecodebench_v6"} {
		if sets[s] == 0 {
			t.Errorf("no %s rows in %d: %v", s, n, sets)
		}
	}
}

func TestLLMErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"llama n=0", tokensynth.Llama(filepath.Join(dir, "a.json"), 0, 1), "must be positive"},
		{"gptoss n<0", tokensynth.GPTOSS(filepath.Join(dir, "a.parquet"), -1, 1), "must be positive"},
		{"llama bad dir", tokensynth.Llama(filepath.Join(dir, "nope", "a.json"), 1, 1), "nope"},
		{"gptoss bad dir", tokensynth.GPTOSS(filepath.Join(dir, "nope", "a.parquet"), 1, 1), "nope"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, tc.err, tc.want)
		}
	}
}

// TestLlamaSummarizing: LlamaSummarizing writes Llama's records with
// summaries of plain words, each within 5% of the length asked for (a word
// and its full stop over at most), so the set's summaries average it; the
// prompts are Llama's.
func TestLlamaSummarizing(t *testing.T) {
	t.Parallel()
	const n, chars = 400, 611
	dir := t.TempDir()
	long, short := filepath.Join(dir, "long.json"), filepath.Join(dir, "short.json")
	if err := tokensynth.LlamaSummarizing(chars)(long, n, 5); err != nil {
		t.Fatal(err)
	}
	if err := tokensynth.Llama(short, n, 5); err != nil {
		t.Fatal(err)
	}
	var l, s []tokensynth.LlamaRecord
	for path, recs := range map[string]*[]tokensynth.LlamaRecord{long: &l, short: &s} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, recs); err != nil {
			t.Fatal(err)
		}
	}
	total := 0
	for i := range l {
		c := utf8.RuneCountInString(l[i].Output)
		total += c
		if c < chars*95/100 || c > chars*105/100+16 || !strings.HasSuffix(l[i].Output, ".") {
			t.Errorf("sample %d: a summary of %d characters, want about %d, ending in a full stop: %q", i, c, chars, l[i].Output)
		}
		if strings.ContainsFunc(l[i].Output, func(r rune) bool { return r > 127 }) {
			t.Errorf("sample %d: the summary is not plain words: %q", i, l[i].Output)
		}
		if !cmp.Equal(l[i].TokInput, s[i].TokInput) || l[i].Input != s[i].Input {
			t.Errorf("sample %d: the prompt differs from Llama's", i)
		}
	}
	if mean := float64(total) / n; mean < chars*0.98 || mean > chars*1.02 {
		t.Errorf("summaries average %.1f characters, want about %d", mean, chars)
	}
}
