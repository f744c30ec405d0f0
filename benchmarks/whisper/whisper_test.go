package whisper

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaiaudio"
	_ "github.com/mlperf-go/mlperf-go/protocol/openaichat" // an API whisper is not sent over
	"github.com/mlperf-go/mlperf-go/score/wer"
)

// evalDir copies testdata/eval (a manifest whose fname values are absolute
// paths of another machine, and an accuracy log) into a temporary folder
// with empty audio files under dev-all-repack/, as a download lays it out.
func evalDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{ManifestFile, "mlperf_log_accuracy.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", "eval", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "dev-all-repack"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		name := filepath.Join(dir, "dev-all-repack", strings.Join([]string{itoa(100 + i), "-", itoa(2000 + i), "_", itoa(i), ".wav"}, ""))
		if err := os.WriteFile(name, wavFile(make([]int16, 160)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestEvaluateGolden: over the golden manifest and log, accuracy.txt is
// what the official accuracy_eval.py printed (testdata/gen_eval_golden.py),
// the over-30-s entry and the non-string transcripts (a number, null)
// dropped as it drops them, and the audio found beside the manifest.
func TestEvaluateGolden(t *testing.T) {
	t.Parallel()
	dir := evalDir(t)
	d, err := Open([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 37 || d.Dropped != 3 {
		t.Fatalf("%d samples, %d dropped; want 37 and 3", d.Len(), d.Dropped)
	}
	b, _ := benchmark.Lookup(Name)
	verdicts := filepath.Join(dir, "verdicts.jsonl")
	ev, err := d.Evaluate(t.Context(), filepath.Join(dir, "mlperf_log_accuracy.json"), benchmark.EvalOptions{Benchmark: b, Verdicts: verdicts})
	if err != nil || ev.Failure != nil {
		t.Fatalf("Evaluate: %v, %v", err, ev.Failure)
	}
	// One verdict line per log entry (duplicates too, as the reference
	// counts them), whose word errors and reference words add up to the
	// printed rate.
	vs, err := benchmark.ReadVerdicts(verdicts)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := mllog.ReadAccuracy(filepath.Join(dir, "mlperf_log_accuracy.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res wer.Result
	for i, v := range vs {
		if i < len(entries) && v.Index != entries[i].QSLIndex {
			t.Errorf("line %d: index %d, the log's entry %d has qsl_idx %d", i, v.Index, i, entries[i].QSLIndex)
		}
		res.Errors += int(v.Metrics["word_errors"])
		res.Words += int(v.Metrics["reference_words"])
	}
	if line, _ := res.Line(); len(vs) != len(entries) || !strings.Contains(string(mustRead(t, filepath.Join("testdata", "eval", "accuracy.txt"))), line) {
		t.Errorf("%d verdict lines for %d entries, adding up to %q", len(vs), len(entries), line)
	}
	got := ev.AccuracyTxt
	want, _ := os.ReadFile(filepath.Join("testdata", "eval", "accuracy.txt"))
	if !bytes.Equal(got, want) {
		t.Errorf("accuracy.txt:\n%s\nthe reference printed:\n%s", got, want)
	}
}

// TestEvaluateCoverage: a log that misses samples is scored and fails; one
// with data that is not int64 labels is an error.
func TestEvaluateCoverage(t *testing.T) {
	t.Parallel()
	dir := evalDir(t)
	d, err := Open([]string{filepath.Join(dir, ManifestFile)})
	if err != nil {
		t.Fatal(err)
	}
	res, covered, err := d.Score([]mllog.AccuracyEntry{{QSLIndex: 0, Data: openaiaudio.AppendLabels(nil, d.Sample(0).Transcript)}})
	if err != nil || covered != 1 || res.Errors != 0 || res.Samples != 1 {
		t.Fatalf("Score: %+v, %d covered, %v", res, covered, err)
	}
	if _, _, err := d.Score([]mllog.AccuracyEntry{{QSLIndex: 0, Data: []byte{1, 2, 3}}}); err == nil {
		t.Error("Score accepted 3 bytes of data")
	}
	if _, _, err := d.Score([]mllog.AccuracyEntry{{QSLIndex: 99}}); err == nil {
		t.Error("Score accepted a qsl_idx outside the dataset")
	}
}

// TestOpenErrors: what the reader refuses names the problem.
func TestOpenErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, manifest := range map[string]string{
		"not found":        "",
		"not a list":       `{"transcript": "x"}`,
		"missing audio":    `[{"transcript": "x", "original_duration": 1, "files": [{"fname": "nope.wav", "speed": 1}]}]`,
		"no duration":      `[{"transcript": "x", "files": [{"fname": "a.wav", "speed": 1}]}]`,
		"all dropped":      `[{"transcript": "x", "original_duration": 31, "files": [{"fname": "a.wav", "speed": 1}]}]`,
		"no transcript":    `[{"original_duration": 1, "files": [{"fname": "a.wav", "speed": 1}]}]`,
		"no speed-1 files": `[{"transcript": "x", "original_duration": 1, "files": [{"fname": "a.wav", "speed": 1.1}]}]`,
	} {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".json")
		if manifest != "" {
			os.WriteFile(p, []byte(manifest), 0o644)
		}
		if _, err := Open([]string{p}); err == nil {
			t.Errorf("%s: Open succeeded", name)
		}
	}
	if _, err := Open([]string{dir, dir}); err == nil {
		t.Error("Open took two paths")
	}
}

// TestSynthBodies: a synthetic set opens, and its request bodies are the
// protocol's multipart with each sample's wav and the reference's
// sampling, the same bytes for the same seed.
func TestSynthBodies(t *testing.T) {
	t.Parallel()
	dir, dir2 := t.TempDir(), t.TempDir()
	files, err := Synth(dir, 5, 9)
	if err != nil || len(files) != 1 {
		t.Fatalf("Synth: %v, %v", files, err)
	}
	Synth(dir2, 5, 9)
	wavs, _ := filepath.Glob(filepath.Join(dir, "dev-all-repack", "*.wav"))
	if len(wavs) != 5 {
		t.Fatalf("%d wav files, want 5", len(wavs))
	}
	for _, f := range append(files, wavs...) {
		a, _ := os.ReadFile(f)
		b, _ := os.ReadFile(filepath.Join(dir2, strings.TrimPrefix(f, dir)))
		if !bytes.Equal(a, b) {
			t.Fatalf("%s differs between two runs with one seed", f)
		}
	}
	d, err := Open([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	b, err := benchmark.Lookup(Name)
	if err != nil {
		t.Fatal(err)
	}
	builder, prefix, err := d.Bodies(benchmark.BodyOptions{Benchmark: b, API: b.Serving.API, Model: b.Serving.Model})
	if err != nil || prefix != nil {
		t.Fatalf("Bodies: %v, prefix %q", err, prefix)
	}
	err = builder.Build([]int{0, 4}, func(i int, body []byte) {
		req, err := openaiaudio.Protocol.(protocol.Serving).ParseRequest(body)
		if err != nil {
			t.Fatalf("sample %d: %v", i, err)
		}
		audio, _ := os.ReadFile(d.Sample(i).Audio)
		if a := req.Ask(); a.Messages[0].Text != openaiaudio.AudioKey(audio) || a.MaxTokens != 200 || a.Model != b.Serving.Model {
			t.Errorf("sample %d: Ask %+v", i, a)
		}
		for _, f := range []string{"name=\"language\"\r\n\r\nen\r\n", "name=\"temperature\"\r\n\r\n0\r\n", "name=\"top_p\"\r\n\r\n1\r\n"} {
			if !bytes.Contains(body, []byte(f)) {
				t.Errorf("sample %d: no %q", i, f)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.Bodies(benchmark.BodyOptions{Benchmark: b, API: mustLookup(t, "openai-chat")}); err == nil {
		t.Error("Bodies accepted the chat API")
	}
}

func mustLookup(t *testing.T, name string) protocol.Protocol {
	t.Helper()
	p, err := protocol.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFakeAnswers: each sample is keyed on its file's hash; the right
// answer maps back to the reference transcript, each wrong one does not.
func TestFakeAnswers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := Synth(dir, 4, 1); err != nil {
		t.Fatal(err)
	}
	d, err := Open([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range d.FakeAnswers() {
		audio, _ := os.ReadFile(d.Sample(i).Audio)
		right, _ := openaiaudio.LabelText(openaiaudio.AppendLabels(nil, a.Right))
		if a.Keys[0] != openaiaudio.AudioKey(audio) || right != d.Sample(i).Transcript {
			t.Errorf("sample %d: key %q, right answer reads %q, want %q", i, a.Keys[0], right, d.Sample(i).Transcript)
		}
		for _, w := range a.Wrongs {
			if got, _ := openaiaudio.LabelText(openaiaudio.AppendLabels(nil, w)); got == d.Sample(i).Transcript {
				t.Errorf("sample %d: wrong answer %q is right", i, w)
			}
		}
	}
}

// TestRegistered: the registry entry carries the checker's facts.
func TestRegistered(t *testing.T) {
	t.Parallel()
	b, err := benchmark.Lookup(Name)
	if err != nil {
		t.Fatal(err)
	}
	r := b.Submission.Rounds["v6.1"]
	if b.Serving.Output != benchmark.CharIndices || b.Serving.Output.LogDType() != "int64" || b.Data.Size != 1633 ||
		r.Accuracy[""][0] != (benchmark.Bound{Metric: "ACCURACY", Value: 96.953571}) || b.Submission.ComplianceTests()[0] != "TEST01" ||
		!bytes.Contains(b.Submission.Compliance["TEST01"].AuditConfig, []byte("*.*.accuracy_log_rng_seed = 720381539243781796")) {
		t.Errorf("registered %+v, rules %+v", b, r)
	}
	p, err := b.DefaultSampling(b.Serving.API)
	if err != nil || *p.(*openaiaudio.Params).MaxCompletionTokens != 200 || *p.(*openaiaudio.Params).Language != "en" {
		t.Errorf("default sampling %+v, %v", p, err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
