package summarization

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/internal/golden"
	"github.com/mlperf-go/mlperf-go/score/punkt"
)

type corpusRow struct {
	Prediction, Target string
	Tokens             int64
}

func readCorpus(t testing.TB) []corpusRow {
	var rows []corpusRow
	golden.JSONL(t, "../testdata/corpus.jsonl.gz", func(_ int, r corpusRow) { rows = append(rows, r) })
	return rows
}

// TestEvaluateGolden compares the printed output of both evaluators, on the
// whole golden corpus and on sub-corpora, with the scripts' code run by
// gen_golden.py (nltk 3.9.4, rouge_score 0.1.2, numpy 1.26.4).
func TestEvaluateGolden(t *testing.T) {
	t.Parallel()
	rows := readCorpus(t)
	var subs []struct {
		Name            string
		Start, End      int
		Llama31, Llama2 string
	}
	data, err := os.ReadFile("testdata/results.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &subs); err != nil {
		t.Fatal(err)
	}
	for _, sub := range subs {
		var preds, targets []string
		var toks int64
		for _, r := range rows[sub.Start:sub.End] {
			preds = append(preds, r.Prediction)
			targets = append(targets, r.Target)
			toks += r.Tokens
		}
		res, err := Evaluate(t.Context(), preds, targets, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Llama31Output(); got != sub.Llama31 {
			t.Errorf("%s: llama3.1-8b output\n%q\nwant\n%q", sub.Name, got, sub.Llama31)
		}
		if got := res.Llama2Output(toks); got != sub.Llama2 {
			t.Errorf("%s: llama2-70b output\n%q\nwant\n%q", sub.Name, got, sub.Llama2)
		}
	}
	if len(subs) < 5 {
		t.Errorf("only %d golden sub-corpora", len(subs))
	}
}

func TestEvaluateErrors(t *testing.T) {
	t.Parallel()
	if _, err := Evaluate(t.Context(), []string{"a"}, nil, Options{}); err == nil || !strings.Contains(err.Error(), "1 predictions but 0 targets") {
		t.Errorf("length mismatch: %v", err)
	}
	if _, err := Evaluate(t.Context(), nil, nil, Options{}); err == nil {
		t.Error("no predictions: want an error, as the reference script fails")
	}
}

// TestWorkersDoNotChangeResult checks that scoring in parallel gives the
// same bits as one worker.
func TestWorkersDoNotChangeResult(t *testing.T) {
	t.Parallel()
	rows := readCorpus(t)[:300]
	var preds, targets []string
	for _, r := range rows {
		preds, targets = append(preds, r.Prediction), append(targets, r.Target)
	}
	one, _ := Evaluate(t.Context(), preds, targets, Options{Workers: 1})
	many, _ := Evaluate(t.Context(), preds, targets, Options{Workers: 7})
	if one.Llama31Output() != many.Llama31Output() {
		t.Errorf("1 worker %q, 7 workers %q", one.Llama31Output(), many.Llama31Output())
	}
}

func TestPostprocess(t *testing.T) {
	t.Parallel()
	got := Options{}.Postprocess("  Mr. Smith left. He said \u201cno.\u201d Then...\n")
	if want := "Mr. Smith left.\nHe said \u201cno.\u201d Then..."; got != want {
		t.Errorf("Postprocess = %q, want %q", got, want)
	}
	got = Options{Splitter: punkt.New(nil, punkt.NLTK3102)}.Postprocess("He said \u201cno.\u201d Then left.")
	if want := "He said \u201cno.\u201d\nThen left."; got != want {
		t.Errorf("Postprocess (nltk 3.10.2+) = %q, want %q", got, want)
	}
}

// benchCorpus makes n pairs of about words words each: a target of
// news-like sentences and a prediction that keeps most of its words.
func benchCorpus(n, words int) (preds, targets []string) {
	r := rand.New(rand.NewPCG(1, 2))
	vocab := strings.Fields(`the a of to in and said was for on that with by is at from his her it
		as were has have been government police officials company report president minister
		U.S. Mr. Dr. Mrs. people year years new would could told percent million market
		investigation agreement election hospital school policy budget flight vaccine storm
		announced rejected approved investigated reported denied confirmed criticized celebrated
		generally happily relational conditional hopefulness operator replacement adjustments`)
	ends := []string{".", ".", ".", "?", "!", "...", ".\""}
	text := func() string {
		var b strings.Builder
		for i := 0; i < words; i++ {
			w := vocab[r.IntN(len(vocab))]
			if i%14 == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			b.WriteString(w)
			if i%14 == 13 {
				b.WriteString(ends[r.IntN(len(ends))])
			}
			b.WriteByte(' ')
		}
		return b.String()
	}
	for range n {
		t := text()
		f := strings.Fields(t)
		for j := range f {
			if r.IntN(4) == 0 {
				f[j] = vocab[r.IntN(len(vocab))]
			}
		}
		targets, preds = append(targets, t), append(preds, strings.Join(f, " "))
	}
	return preds, targets
}

// TestDumpBenchCorpus writes the benchmark corpus as JSON lines to
// $SCORE_BENCH_DUMP for score/testdata/time_python.py; skipped otherwise.
func TestDumpBenchCorpus(t *testing.T) {
	path := os.Getenv("SCORE_BENCH_DUMP")
	if path == "" {
		t.Skip("set SCORE_BENCH_DUMP=file to write the benchmark corpus for time_python.py")
	}
	preds, targets := benchCorpus(13368, 400)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for i := range preds {
		if err := enc.Encode(map[string]string{"prediction": preds[i], "target": targets[i]}); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkLlamaEval is the whole llama3.1-8b evaluation (post-processing,
// four ROUGE metrics, aggregation) of 13,368 pairs of 400-word texts.
func BenchmarkLlamaEval(b *testing.B) {
	preds, targets := benchCorpus(13368, 400)
	for b.Loop() {
		res, err := Evaluate(b.Context(), preds, targets, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(res.Rouge1, "rouge1")
	}
}

// BenchmarkEval1000 is BenchmarkLlamaEval on 1,000 pairs, for profiling.
func BenchmarkEval1000(b *testing.B) {
	preds, targets := benchCorpus(1000, 400)
	for b.Loop() {
		if _, err := Evaluate(b.Context(), preds, targets, Options{Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEvaluateCancelled: a cancelled context stops the scoring with its
// error instead of a result (Ctrl-C during a full set's minutes of ROUGE).
func TestEvaluateCancelled(t *testing.T) {
	t.Parallel()
	preds, targets := benchCorpus(200, 50)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if res, err := Evaluate(ctx, preds, targets, Options{}); !errors.Is(err, context.Canceled) || res != nil {
		t.Errorf("Evaluate under a cancelled context: %v, %v; want context.Canceled and no result", res, err)
	}
	if _, err := Evaluate(t.Context(), preds, targets, Options{}); err != nil {
		t.Errorf("the same pairs under a live context: %v", err)
	}
}
