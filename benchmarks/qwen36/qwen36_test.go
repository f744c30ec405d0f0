package qwen36

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/golden"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/submission"
	"github.com/mlperf-go/mlperf-go/submission/filing"
	"github.com/mlperf-go/mlperf-go/submission/pack"
)

// TestRecordBodies builds the requests of the samples whose raw BFCL
// records the golden file keeps and compares them byte for byte with the
// bodies endpoints' adapter encoded (every 25th sample, and float
// parameters), without the wheel.
func TestRecordBodies(t *testing.T) {
	t.Parallel()
	want := map[string]string{}
	golden.JSONL(t, "testdata/bodies.jsonl.gz", func(_ int, r bodyRow) {
		if r.BodyStream != "" {
			want[r.SampleID] = r.BodyStream
		}
	})
	b, _ := benchmark.Lookup(Name)
	params, err := b.DefaultSampling(openaichat.ToolsProtocol)
	if err != nil {
		t.Fatal(err)
	}
	q := openaichat.ToolsRequest{Model: "Qwen3.6-27B-Q4_K_M", Params: *params.(*openaichat.ToolParams), Stream: true}
	type rec struct {
		SampleID string `json:"sample_id"`
		Subset   string
		Question string
		Answer   *string
	}
	n := 0
	golden.JSONL(t, "testdata/records.jsonl.gz", func(_ int, r rec) {
		n++
		dir := t.TempDir()
		write := func(rel, line string) {
			p := filepath.Join(dir, filepath.FromSlash(rel))
			_ = os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(line+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		write(fileOf(r.Subset), r.Question)
		if r.Answer != nil {
			write(answersOf(r.Subset), *r.Answer)
		}
		var mismatch []string
		recs, err := readSubset(dirSource{dir}, r.Subset, &mismatch)
		if err != nil || len(recs) != 1 {
			t.Fatalf("%s: %v", r.SampleID, err)
		}
		row, ok, err := buildRow(recs[0])
		if err != nil || !ok {
			t.Fatalf("%s: %v", r.SampleID, err)
		}
		body, err := q.Append(nil, row.Messages, row.Tools, ToolChoice)
		if err != nil {
			t.Fatal(err)
		}
		if string(body) != want[r.SampleID] {
			t.Errorf("%s: body\n%s\nendpoints\n%s", r.SampleID, body, want[r.SampleID])
		}
	})
	if n < 40 {
		t.Errorf("only %d records", n)
	}
}

// TestSynthSampling: a synthetic set has the requested size, in the
// official proportions, and the reference's sampling reads it back.
func TestSynthSampling(t *testing.T) {
	t.Parallel()
	for _, n := range []int{12, 100, 995} {
		dir := t.TempDir()
		if _, err := Synth(dir, n, 1); err != nil {
			t.Fatal(err)
		}
		d, err := Open([]string{dir})
		if err != nil {
			t.Fatal(err)
		}
		if d.Len() != n {
			t.Errorf("synth %d: %d samples:\n%s", n, d.Len(), d.Describe())
		}
		if n == Samples {
			for _, c := range d.counts {
				if c.taken != officialTaken[c.subset] {
					t.Errorf("a full-size synthetic set takes %d of %s, the official %d", c.taken, c.subset, officialTaken[c.subset])
				}
			}
		}
		// Sorted by subset, as groupby orders them.
		for i := 1; i < d.Len(); i++ {
			if d.Row(i).Subset < d.Row(i-1).Subset {
				t.Fatalf("sample %d (%s) after %s", i, d.Row(i).Subset, d.Row(i-1).Subset)
			}
		}
	}
	a, b := t.TempDir(), t.TempDir()
	if _, err := Synth(a, 50, 3); err != nil {
		t.Fatal(err)
	}
	if _, err := Synth(b, 50, 3); err != nil {
		t.Fatal(err)
	}
	x, _ := os.ReadFile(filepath.Join(a, fileOf("simple_java")))
	y, _ := os.ReadFile(filepath.Join(b, fileOf("simple_java")))
	if string(x) != string(y) || len(x) == 0 {
		t.Error("the same seed wrote different files")
	}
}

// writeLog writes a LoadGen accuracy log whose entry i holds texts[i]
// (nil entries are left out).
func writeLog(t *testing.T, texts []*string) string {
	t.Helper()
	var entries []string
	for i, s := range texts {
		if s != nil {
			entries = append(entries, fmt.Sprintf(`{ "seq_id" : %d, "qsl_idx" : %d, "data" : "%s", "token_count" : 1 }`, i, i, strings.ToUpper(hex.EncodeToString([]byte(*s)))))
		}
	}
	p := filepath.Join(t.TempDir(), "mlperf_log_accuracy.json")
	if err := os.WriteFile(p, []byte("[\n"+strings.Join(entries, ",\n")+"\n]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestEvaluate: answers logged as LoadGen logs them are scored, written
// to accuracy.txt as the reference's entry plus the checker's line, and
// judged: by the reference's gate (Evaluation.Failure) and by the v6.1
// checker's rule (submission.JudgeAccuracy on accuracy.txt).
func TestEvaluate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := Synth(dir, 60, 11); err != nil {
		t.Fatal(err)
	}
	d, err := Open([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := benchmark.Lookup(Name)
	bodies := referenceBodies(t, d, true)
	answers := map[string]benchmark.FakeAnswer{}
	for _, a := range d.FakeAnswers() {
		answers[a.Keys[0]] = a
	}
	for _, tc := range []struct {
		name  string
		wrong int // every wrong-th sample answered wrong (0: none)
		pass  bool
	}{{"all right", 0, true}, {"every third wrong", 3, false}} {
		texts := make([]*string, d.Len())
		for i := range texts {
			a := answers[lastUser(d.Row(i))]
			ans := a.Right
			if tc.wrong > 0 && i%tc.wrong == 0 && len(a.Wrongs) > 0 {
				ans = a.Wrongs[0]
			}
			s := roundTrip(t, bodies(i), ans, true)
			texts[i] = &s
		}
		logPath := writeLog(t, texts)
		verdicts := filepath.Join(t.TempDir(), "verdicts.jsonl")
		ev, err := d.Evaluate(t.Context(), logPath, benchmark.EvalOptions{Benchmark: b, Verdicts: verdicts})
		if err != nil {
			t.Fatal(err)
		}
		if (ev.Failure == nil) != tc.pass {
			t.Errorf("%s: failure %v\n%s", tc.name, ev.Failure, ev.Report)
		}
		// One verdict per sample: the wrong answers exactly the wrong ones,
		// each with the calls extracted from it.
		vs, err := benchmark.ReadVerdicts(verdicts)
		if err != nil || len(vs) != d.Len() {
			t.Fatalf("%s: %d verdicts for %d samples (%v)", tc.name, len(vs), d.Len(), err)
		}
		for i, v := range vs {
			wantRight := tc.wrong == 0 || i%tc.wrong != 0 || len(answers[lastUser(d.Row(i))].Wrongs) == 0
			if v.Index != i || v.Correct == nil || *v.Correct != wantRight || v.Extracted == nil || v.Subset != d.Row(i).Sample().Subset || v.Why == "" {
				t.Errorf("%s: sample %d: verdict %+v, want correct %v", tc.name, i, v, wantRight)
			}
		}
		content := ev.AccuracyTxt
		if !strings.HasPrefix(string(content), "{\n  \"dataset_name\": \"bfcl_v4::function_calling\"") || !strings.Contains(string(content), "\n"+CheckerLinePrefix) {
			t.Errorf("%s: accuracy.txt\n%s", tc.name, content)
		}
		v, err := submission.JudgeAccuracy(Name, "v6.1", benchmark.ScenarioSingleStream, content)
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Metrics) != 1 || v.Metrics[0].Name != "mAP" || v.Pass != tc.pass {
			t.Errorf("%s: checker verdict %+v", tc.name, v)
		}
		var entry struct {
			Score     float64
			Breakdown struct {
				OverallAccuracy float64 `json:"overall_accuracy"`
			} `json:"breakdown"`
		}
		if err := json.Unmarshal(content[:strings.LastIndex(string(content), "\n"+CheckerLinePrefix)], &entry); err != nil {
			t.Fatalf("%s: the entry is not JSON: %v", tc.name, err)
		}
		if got := v.Metrics[0].Value; got != fmt.Sprint(entry.Breakdown.OverallAccuracy) && !(got == "100.0" && entry.Breakdown.OverallAccuracy == 100) {
			t.Errorf("%s: the checker reads %s, the entry's overall is %v", tc.name, got, entry.Breakdown.OverallAccuracy)
		}
	}
	// A missing answer counts wrong; an index outside the set is an error.
	texts := make([]*string, d.Len())
	s := "I cannot help."
	texts[0] = &s
	ev, err := d.Evaluate(t.Context(), writeLog(t, texts), benchmark.EvalOptions{Benchmark: b})
	if err != nil || ev.Failure == nil || !strings.Contains(ev.Report, fmt.Sprintf("answered 1 of %d samples (%d missing", d.Len(), d.Len()-1)) {
		t.Errorf("one answer: %v %v\n%s", err, ev.Failure, ev.Report)
	}
	bad := filepath.Join(t.TempDir(), "log.json")
	_ = os.WriteFile(bad, []byte(`[{"seq_id":0,"qsl_idx":100000,"data":"41"}]`), 0o644)
	if _, err := d.Evaluate(t.Context(), bad, benchmark.EvalOptions{Benchmark: b}); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("foreign log: %v", err)
	}
}

// TestRegistered: the registry has the benchmark with the checker's v6.1
// rules, the reference's sampling and API, streaming, and the reason it
// cannot be filed, which filing gives.
func TestRegistered(t *testing.T) {
	t.Parallel()
	b, err := benchmark.Lookup(Name)
	if err != nil {
		t.Fatal(err)
	}
	if b.Serving.API != openaichat.ToolsProtocol || !b.Serving.StreamRequests || b.Submission.NotFileable == "" || b.Data.Size != 995 {
		t.Errorf("registration %+v", b)
	}
	p, err := b.DefaultSampling(openaichat.ToolsProtocol)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(p)
	if string(got) != `{"temperature":0,"max_completion_tokens":1024,"seed":42}` {
		t.Errorf("sampling %s", got)
	}
	r, err := submission.LookupRound("v6.1")
	if err != nil {
		t.Fatal(err)
	}
	rules := r.Benchmarks[Name]
	if rules == nil || rules.Required["edge"][0] != "SingleStream" || rules.Accuracy[""][0].Value != 85.3677 {
		t.Errorf("v6.1 rules %+v", rules)
	}
	if _, err := submission.LookupRound("v6.0"); err != nil {
		t.Fatal(err)
	}
	_, err = filing.FileRun(filing.RunRecord{ResultsDir: t.TempDir(), System: "s", Benchmark: Name, Scenario: "SingleStream",
		Kind: record.KindAccuracy, LogDir: t.TempDir(), UserConf: "x"})
	if err == nil || !strings.Contains(err.Error(), "mlcommons/endpoints") {
		t.Errorf("filing: %v", err)
	}
	results := t.TempDir()
	if err := os.MkdirAll(filepath.Join(results, "sys1", Name, "SingleStream", "accuracy"), 0o755); err != nil {
		t.Fatal(err)
	}
	err = pack.Package(pack.PackageOptions{Division: "closed", Submitter: "org", ResultsDir: results, SystemsDir: t.TempDir(),
		Out: t.TempDir(), SourceNote: "x"})
	if err == nil || !strings.Contains(err.Error(), "cannot be submitted: "+NotFileableReason) {
		t.Errorf("packaging: %v", err)
	}
	if _, _, err := (&Dataset{}).Bodies(benchmark.BodyOptions{Benchmark: b, API: openaichat.Protocol}); err == nil {
		t.Error("plain chat API accepted")
	}
	var _ protocol.Params = p
}
