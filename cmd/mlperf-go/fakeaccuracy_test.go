package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/benchmarks/deepseekr1"
	"github.com/mlperf-go/mlperf-go/benchmarks/gptoss120b"
	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/fake/answers"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
)

// fakeAccuracyRun synthesizes n samples of benchmark name, serves them
// from the fake with their reference answers at accuracy (the answers set
// as fake-endpoint sets them, token IDs encoded with the test tokenizer),
// runs an Offline accuracy run through LoadGen and returns evaluate's
// output (with its error) and exit code.
func fakeAccuracyRun(t *testing.T, name string, n int, accuracy float64) (string, int) {
	return fakeAccuracyRunTok(t, name, "bytelevel", n, accuracy)
}

// fakeSynthSeed is the seed of the tests' synthetic datasets, so a test
// can write what goes with one (LiveCodeBench problems) before the run.
const fakeSynthSeed = 3

// fakeAccuracyRunTok is fakeAccuracyRun with the test tokenizer of
// tokenizer/testdata/TOK (llama2-70b's evaluator decodes as the slow
// SentencePiece tokenizer does, so it needs one of those), or the one at
// the absolute path TOK.
func fakeAccuracyRunTok(t *testing.T, name, tokName string, n int, accuracy float64, evalArgs ...string) (string, int) {
	t.Helper()
	b := mustLookup(t, name)
	dir := t.TempDir()
	files, err := b.Data.Synth(dir, n, fakeSynthSeed)
	if err != nil {
		t.Fatal(err)
	}
	tok := tokName
	if !filepath.IsAbs(tok) {
		tok = filepath.Join("..", "..", "tokenizer", "testdata", tokName)
	}
	cfg := fake.Config{Model: b.Serving.Model, Accuracy: accuracy, Seed: 1}
	if _, err := answers.Set(&cfg, name, tok, files, nil); err != nil {
		t.Fatal(err)
	}
	if len(cfg.TokenAnswers)+len(cfg.Answers) < n/2 {
		t.Fatalf("the fake was told %d answers for %d samples", len(cfg.TokenAnswers)+len(cfg.Answers), n)
	}
	url := startFake(t, cfg)
	data := filepath.Dir(files[0])
	if len(files) == 1 {
		data = files[0]
	}
	out, err := runCLI(t, "run", "-b", name, "-s", "Offline", "-m", "accuracy", "-d", data, "-e", url,
		"-o", filepath.Join(dir, "acc"), "--progress-interval", "0")
	if err != nil {
		t.Fatalf("accuracy run: %v\n%s", err, out)
	}
	out, err = runCLI(t, append([]string{"evaluate", "-b", name, "-l", filepath.Join(dir, "acc", "mlperf_log_accuracy.json"),
		"-d", data, "--tokenizer", tok}, evalArgs...)...)
	if err != nil {
		out += "\nerror: " + err.Error()
	}
	return out, exitCode(err)
}

// metric reads a metric's value from evaluate's verdict table.
func metric(t *testing.T, out, name string) (float64, string) {
	t.Helper()
	m := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(name) + ` +([0-9.]+) +.* (PASS|FAIL|NOT JUDGED)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no %s row in:\n%s", name, out)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v, m[2]
}

// TestFakeTokenAnswersScore: the fake answers llama3.1-8b with the
// dataset's reference summaries, so an accuracy run against it at
// --accuracy 1 passes every ROUGE bound, and at 0.5 scores about half.
// GEN_LEN, the answers' total length, is bounded for the whole 13,368
// samples, so a 40-sample run leaves it unjudged and says it is not a full
// accuracy run (TestRehearsal passes it over the whole set).
func TestFakeTokenAnswersScore(t *testing.T) {
	loadgentest.Require(t)
	full, code := fakeAccuracyRun(t, "llama3_1-8b", 40, 1)
	for _, m := range []string{"ROUGE1", "ROUGE2", "ROUGEL", "ROUGELSUM"} {
		if _, verdict := metric(t, full, m); verdict != "PASS" {
			t.Errorf("%s at --accuracy 1: %s\n%s", m, verdict, full)
		}
	}
	if _, verdict := metric(t, full, "GEN_LEN"); verdict != "NOT JUDGED" || code != 0 || !strings.Contains(full, "not a full accuracy run: judged on 40 of 13368 samples") {
		t.Errorf("GEN_LEN of 40 samples: %s (exit %d), want NOT JUDGED, exit 0 and the log called partial: the bound is the whole set's\n%s", verdict, code, full)
	}
	half, _ := fakeAccuracyRun(t, "llama3_1-8b", 40, 0.5)
	r1, _ := metric(t, full, "ROUGE1")
	h1, _ := metric(t, half, "ROUGE1")
	if h1 < 0.3*r1 || h1 > 0.7*r1 {
		t.Errorf("ROUGE1 at --accuracy 0.5 is %v, at 1 %v: want about half", h1, r1)
	}
}

// TestFakeAnswersAreTheReferences: told the references, the fake answers
// with each as it is, ending where it ends, so an accuracy run at
// --accuracy 1 scores what a model answering with them would: every ROUGE
// 100, and gen_len the references' own length (not answers run on to the
// length the checker wants). Llama 3's tokenizer, which fits the synthetic
// summaries in the reference's 128 tokens as Llama 3.1's summaries fit, is
// MLPERF_GO_LLAMA3_TOKENIZER (ctest sets it).
func TestFakeAnswersAreTheReferences(t *testing.T) {
	loadgentest.Require(t)
	tok := os.Getenv("MLPERF_GO_LLAMA3_TOKENIZER")
	if tok == "" {
		t.Skip("MLPERF_GO_LLAMA3_TOKENIZER is not set: run scripts/fetch-test-tokenizers.sh DIR and set it to DIR/llama3/tokenizer.model")
	}
	tok, err := filepath.Abs(tok)
	if err != nil {
		t.Fatal(err)
	}
	const n = 40
	out, code := fakeAccuracyRunTok(t, "llama3_1-8b", tok, n, 1)
	for _, m := range []string{"ROUGE1", "ROUGE2", "ROUGEL", "ROUGELSUM"} {
		if v, _ := metric(t, out, m); v < 99.99 {
			t.Errorf("%s at --accuracy 1 is %v, want 100: the answers are the references\n%s", m, v, out)
		}
	}
	// The same synthetic set fakeAccuracyRunTok wrote: its summaries'
	// length in characters, as evaluation.py's gen_len counts them.
	files, err := mustLookup(t, "llama3_1-8b").Data.Synth(t.TempDir(), n, fakeSynthSeed)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var recs []struct{ Output string }
	if err := json.Unmarshal(raw, &recs); err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, r := range recs {
		want += utf8.RuneCountInString(strings.TrimSpace(r.Output))
	}
	if v, _ := metric(t, out, "GEN_LEN"); int(v) != want || code != 0 {
		t.Errorf("GEN_LEN %v (exit %d), want %d, the references' length: the answers end where they end\n%s", v, code, want, out)
	}
}

// TestFakeAnswersScore: the benchmarks whose answers pass every bound,
// in few samples, against the fake at --accuracy 1 through LoadGen, and
// score less at 0.5: llama2-70b's reference answers (brought to the
// tokens_per_sample the checker wants, wrong ones too) about half the ROUGE, qwen3.6-27b's
// ground-truth calls about half the mAP, and whisper's transcripts a word
// error rate of a few percent (its wrong transcripts carry one word error
// each).
func TestFakeAnswersScore(t *testing.T) {
	loadgentest.Require(t)
	for _, tc := range []struct {
		bench, tok, metric string
		lo, hi             float64 // the half-accuracy run's metric over the full one's
		length             string  // a bounded output length, which half the answers right keep
	}{
		{"llama2-70b", "spm-legacy", "ROUGE1", 0.3, 0.7, "TOKENS_PER_SAMPLE"},
		{"whisper", "bytelevel", "ACCURACY", 0.85, 0.99, ""},
		{"qwen3.6-27b", "bytelevel", "mAP", 0.3, 0.8, ""},
		{"deepseek-r1", "bytelevel", "exact_match", 0.3, 0.7, "TOKENS_PER_SAMPLE"},
		{"gpt-oss-120b", "bytelevel", "exact_match", 0.3, 0.7, ""},
	} {
		t.Run(tc.bench, func(t *testing.T) {
			var evalArgs []string
			if tc.bench == "deepseek-r1" || tc.bench == "gpt-oss-120b" {
				evalArgs = []string{"--livecodebench", lcbProblems(t, tc.bench, 40)}
			}
			full, code := fakeAccuracyRunTok(t, tc.bench, tc.tok, 40, 1, evalArgs...)
			if code != 0 || !strings.Contains(full, "=== Accuracy: PASS ===") {
				t.Fatalf("--accuracy 1: exit %d\n%s", code, full)
			}
			half, _ := fakeAccuracyRunTok(t, tc.bench, tc.tok, 40, 0.5, evalArgs...)
			f, _ := metric(t, full, tc.metric)
			h, _ := metric(t, half, tc.metric)
			if h < tc.lo*f || h > tc.hi*f {
				t.Errorf("%s at --accuracy 0.5 is %v, at 1 %v: want %v–%v of it", tc.metric, h, f, tc.lo, tc.hi)
			}
			if tc.length != "" {
				if v, verdict := metric(t, half, tc.length); verdict != "PASS" {
					t.Errorf("%s at --accuracy 0.5 is %v, %s: wrong answers must be as long as right ones", tc.length, v, verdict)
				}
			}
		})
	}
}

// lcbProblems writes LiveCodeBench problems for the LiveCodeBench samples
// of benchmark's synthetic n samples, each tested as the fake's right
// answer passes (read n, print n+1), and returns the file.
func lcbProblems(t *testing.T, benchmark string, n int) string {
	t.Helper()
	dir := t.TempDir()
	files, err := mustLookup(t, benchmark).Data.Synth(dir, n, fakeSynthSeed)
	if err != nil {
		t.Fatal(err)
	}
	var lcb strings.Builder
	add := func(n int, sub, truth func(i int) string) {
		for i := range n {
			if strings.Contains(sub(i), "livecodebench") {
				fmt.Fprintf(&lcb, `{"question_id": %q, "public_test_cases": "[{\"input\": \"41\\n\", \"output\": \"42\\n\", \"testtype\": \"stdin\"}]", "private_test_cases": "[]", "metadata": "{}"}`+"\n", truth(i))
			}
		}
	}
	switch benchmark {
	case "deepseek-r1":
		d, err := deepseekr1.Open(files[0])
		if err != nil {
			t.Fatal(err)
		}
		add(d.Len(), func(i int) string { return d.Meta(i).Dataset }, d.Reference)
	case "gpt-oss-120b":
		d, err := gptoss120b.Open(files[0])
		if err != nil {
			t.Fatal(err)
		}
		add(d.Len(), func(i int) string { return d.Meta(i).Dataset }, d.Reference)
	default:
		t.Fatalf("no LiveCodeBench samples in %s", benchmark)
	}
	path := filepath.Join(dir, "test.jsonl")
	if err := os.WriteFile(path, []byte(lcb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
