package llama2

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/golden"
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
	out := filepath.Join(dir, "accuracy.txt")
	ev, err := dataset{ds}.Evaluate(logPath, benchmark.EvalOptions{Benchmark: b, Out: out, Tokenizer: spmLegacy})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
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
	o := benchmark.EvalOptions{Benchmark: bench, Out: filepath.Join(dir, "accuracy.txt"), Tokenizer: spmLegacy}
	b.ResetTimer()
	for b.Loop() {
		if _, err := (dataset{ds}).Evaluate(logPath, o); err != nil {
			b.Fatal(err)
		}
	}
}
