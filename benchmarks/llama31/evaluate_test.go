package llama31

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/golden"
)

// TestEvaluateEqualsReference: the whole evaluation, from LoadGen's
// accuracy log to accuracy.txt, against what language/llama3.1-8b/
// evaluation.py itself printed for the same log and dataset (testdata/
// gen_eval_golden.py): 2,100 answers of real-shaped summaries, some cut
// mid-character, with special tokens, repeated <|eot_id|>, an empty one and
// duplicated entries. Byte for byte, with the round's clean-up on and with
// it off (a tokenizer converted after transformers PR #44914).
func TestEvaluateEqualsReference(t *testing.T) {
	tokPath := os.Getenv("MLPERF_GO_LLAMA3_TOKENIZER")
	if tokPath == "" {
		t.Skip("needs Meta's Llama 3 tokenizer.model: scripts/fetch-test-tokenizers.sh DIR, then MLPERF_GO_LLAMA3_TOKENIZER=DIR/llama3/tokenizer.model (make test does this)")
	}
	t.Parallel()
	dir := t.TempDir()
	dsPath := golden.Unzip(t, filepath.Join("testdata", "eval_cnn.json.gz"), filepath.Join(dir, "cnn_eval.json"))
	logPath := golden.Unzip(t, filepath.Join("testdata", "eval_accuracy.json.gz"), filepath.Join(dir, "mlperf_log_accuracy.json"))
	ds, err := Open(dsPath)
	if err != nil {
		t.Fatal(err)
	}
	b, err := benchmark.Lookup(Name)
	if err != nil {
		t.Fatal(err)
	}
	off := false
	for _, tc := range []struct {
		golden  string
		cleanUp *bool
	}{{"eval_expected.txt", nil}, {"eval_expected_noclean.txt", &off}} {
		ev, err := dataset{ds}.Evaluate(t.Context(), logPath, benchmark.EvalOptions{Benchmark: b, Tokenizer: tokPath, Round: "v6.1", CleanUpSpaces: tc.cleanUp})
		if err != nil {
			t.Fatal(err)
		}
		got, err := ev.AccuracyTxt, error(nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("testdata", tc.golden))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: accuracy.txt\n%q\nwant (evaluation.py)\n%q", tc.golden, got, want)
		}
		// The log has duplicated entries: scored like the reference, but a
		// run that logs a sample twice fails its checks.
		if ev.Failure == nil || !strings.Contains(ev.Report, "duplicate") {
			t.Errorf("%s: duplicates not reported (failure %v):\n%s", tc.golden, ev.Failure, ev.Report)
		}
		if !strings.Contains(ev.Scorer, "clean_up_tokenization_spaces") {
			t.Errorf("the scorer is not described: %q", ev.Scorer)
		}
	}
}
