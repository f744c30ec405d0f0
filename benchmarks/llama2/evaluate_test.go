package llama2

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/golden"
	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
)

// spmLegacy is tokenizer/testdata's sentencepiece byte-fallback tokenizer in
// Llama 2's shape, which the golden's reference run decoded with the slow
// LlamaTokenizer.
var spmLegacy = filepath.Join("..", "..", "tokenizer", "testdata", "spm-legacy")

// TestEvaluateEqualsReference: the whole evaluation, from LoadGen's accuracy
// log and the converted pickle to accuracy.txt, against what
// language/llama2-70b/evaluate-accuracy.py itself printed for the same log
// and dataset (testdata/gen_eval_golden.py): 2,100 answers, some cut
// mid-character, with <s>, repeated </s>, broken byte-fallback runs (where
// the slow sentencepiece decode differs from the fast one), an empty one and
// duplicated entries. Byte for byte.
func TestEvaluateEqualsReference(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dsPath := golden.Unzip(t, filepath.Join("testdata", "eval_orca.json.gz"), filepath.Join(dir, "orca.json"))
	logPath := golden.Unzip(t, filepath.Join("testdata", "eval_accuracy.json.gz"), filepath.Join(dir, "mlperf_log_accuracy.json"))
	ds, err := Open(dsPath)
	if err != nil {
		t.Fatal(err)
	}
	b, err := benchmark.Lookup(Name)
	if err != nil {
		t.Fatal(err)
	}
	verdicts := filepath.Join(dir, "verdicts.jsonl")
	ev, err := dataset{ds}.Evaluate(t.Context(), logPath, benchmark.EvalOptions{Benchmark: b, Tokenizer: spmLegacy, Verdicts: verdicts})
	if err != nil {
		t.Fatal(err)
	}
	checkVerdicts(t, verdicts, filepath.Join("testdata", "eval_expected.txt"))
	got, err := ev.AccuracyTxt, error(nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "eval_expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("accuracy.txt\n%q\nwant (evaluate-accuracy.py)\n%q", got, want)
	}
	// The log has duplicated entries: scored like the reference, but a run
	// that logs a sample twice fails its checks.
	if ev.Failure == nil || !strings.Contains(ev.Report, "duplicate") {
		t.Errorf("duplicates not reported (failure %v):\n%s", ev.Failure, ev.Report)
	}
	for _, want := range []string{"slow LlamaTokenizer", "clean_up_tokenization_spaces=false", "samples end with two or more EOS tokens (2)", "tokens_per_sample, the mean output length"} {
		if !strings.Contains(ev.Report, want) {
			t.Errorf("report lacks %q:\n%s", want, ev.Report)
		}
	}
}

// BenchmarkEvaluate scores the golden's 2,100-answer log end to end (log
// checks, slow-Llama decode, sentence splitting, ROUGE), per run.
func BenchmarkEvaluate(b *testing.B) {
	dir := b.TempDir()
	ds, err := Open(golden.Unzip(b, filepath.Join("testdata", "eval_orca.json.gz"), filepath.Join(dir, "orca.json")))
	if err != nil {
		b.Fatal(err)
	}
	logPath := golden.Unzip(b, filepath.Join("testdata", "eval_accuracy.json.gz"), filepath.Join(dir, "mlperf_log_accuracy.json"))
	bench, _ := benchmark.Lookup(Name)
	o := benchmark.EvalOptions{Benchmark: bench, Tokenizer: spmLegacy}
	b.ResetTimer()
	for b.Loop() {
		if _, err := (dataset{ds}).Evaluate(b.Context(), logPath, o); err != nil {
			b.Fatal(err)
		}
	}
}

// checkVerdicts: the per-sample lines (--verdicts) add up to what the
// reference printed: each ROUGE F-measure's numpy mean × 100 rounded to 4
// places, the summed gen_len and token counts, one line per answer.
func checkVerdicts(t *testing.T, path, printed string) {
	t.Helper()
	vs, err := benchmark.ReadVerdicts(path)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(printed)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{}
	for _, m := range regexp.MustCompile(`'(\w+)': ([0-9.]+)`).FindAllStringSubmatch(string(raw), -1) {
		want[m[1]], _ = strconv.ParseFloat(m[2], 64)
	}
	if len(vs) != int(want["gen_num"]) {
		t.Fatalf("%d verdict lines, the reference scored %v answers", len(vs), want["gen_num"])
	}
	for _, k := range []string{"rouge1", "rouge2", "rougeL", "rougeLsum"} {
		f := make([]float64, len(vs))
		for i, v := range vs {
			f[i] = v.Metrics[k]
		}
		if got := pyfloat.RoundNumpy(pyfloat.Mean(f)*100, 4); got != want[k] {
			t.Errorf("%s: the lines' mean is %v, the reference printed %v", k, got, want[k])
		}
	}
	var genLen, toks float64
	for _, v := range vs {
		genLen += v.Metrics["gen_len"]
		toks += v.Metrics["tokens"]
		if v.Extracted == nil {
			t.Fatalf("sample %d: no prediction text", v.Index)
		}
	}
	if genLen != want["gen_len"] || toks != want["gen_tok_len"] {
		t.Errorf("gen_len %v, tokens %v; the reference printed %v and %v", genLen, toks, want["gen_len"], want["gen_tok_len"])
	}
}
