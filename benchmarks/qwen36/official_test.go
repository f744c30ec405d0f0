package qwen36

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"sort"
	"strconv"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/golden"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/score/bfcl"
)

// wheelPath is the bfcl-eval 2026.3.23 wheel when the environment names
// it (MLPERF_GO_BFCL_WHEEL; `pip download --no-deps bfcl-eval==2026.3.23`).
func wheelPath(t *testing.T) string {
	t.Helper()
	p := os.Getenv("MLPERF_GO_BFCL_WHEEL")
	if p == "" {
		t.Skip("MLPERF_GO_BFCL_WHEEL is not set: the official data comes from the bfcl-eval " + bfclVersion + " wheel (pip download --no-deps bfcl-eval==" + bfclVersion + ")")
	}
	return p
}

// bodyRow is one line of testdata/bodies.jsonl.gz.
type bodyRow struct {
	Index        int
	SampleID     string `json:"sample_id"`
	Subset       string
	SHA256Stream string `json:"sha256_stream"`
	SHA256       string
	BodyStream   string `json:"body_stream"`
}

// referenceBodies builds request bodies as the reference's example config
// does: served model "Qwen3.6-27B-Q4_K_M", the benchmark's sampling.
func referenceBodies(t *testing.T, d *Dataset, stream bool) func(int) []byte {
	t.Helper()
	b, err := benchmark.Lookup(Name)
	if err != nil {
		t.Fatal(err)
	}
	builder, prefix, err := d.Bodies(benchmark.BodyOptions{Benchmark: b, API: openaichat.ToolsProtocol, Model: "Qwen3.6-27B-Q4_K_M", Stream: stream})
	if err != nil || prefix != nil {
		t.Fatal(err, prefix)
	}
	return func(i int) []byte {
		var body []byte
		if err := builder.Build([]int{i}, func(_ int, b []byte) { body = append([]byte(nil), b...) }); err != nil {
			t.Fatal(err)
		}
		return body
	}
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// TestOfficialDataset reads the wheel and checks, against what endpoints
// itself built from it: the 995 samples in its order, and every request
// body byte for byte (by sha256), streamed and not.
func TestOfficialDataset(t *testing.T) {
	d, err := Open([]string{wheelPath(t)})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Official() || d.Len() != Samples {
		t.Fatalf("%d samples, official %v:\n%s", d.Len(), d.Official(), d.Describe())
	}
	stream, plain := referenceBodies(t, d, true), referenceBodies(t, d, false)
	n := 0
	golden.JSONL(t, "testdata/bodies.jsonl.gz", func(_ int, r bodyRow) {
		n++
		row := d.Row(r.Index)
		if row.SampleID != r.SampleID || row.Subset != r.Subset {
			t.Fatalf("sample %d is %s (%s), endpoints %s (%s)", r.Index, row.SampleID, row.Subset, r.SampleID, r.Subset)
		}
		if got := stream(r.Index); sha(got) != r.SHA256Stream {
			t.Errorf("%s: streamed body differs from endpoints' (%.300s)", r.SampleID, got)
		}
		if got := plain(r.Index); sha(got) != r.SHA256 {
			t.Errorf("%s: body differs from endpoints' (%.300s)", r.SampleID, got)
		}
	})
	if n != Samples {
		t.Errorf("%d golden bodies", n)
	}
}

// TestOfficialScoring scores three answers to each of the 995 samples and
// a whole run as the reference scored them (score/bfcl's --full vectors).
func TestOfficialScoring(t *testing.T) {
	d, err := Open([]string{wheelPath(t)})
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Index   *int
		Outputs []string
		Scores  []json.RawMessage
		Printed string
		Chosen  map[string]string
	}
	samples := d.Samples()
	checked := 0
	golden.JSONL(t, "testdata/full.jsonl.gz", func(_ int, r row) {
		if r.Index == nil {
			var outs []bfcl.Output
			for k, v := range r.Chosen {
				i, _ := strconv.Atoi(k)
				outs = append(outs, bfcl.Output{Index: i, Text: v})
			}
			sort.Slice(outs, func(a, b int) bool { return outs[a].Index < outs[b].Index })
			res, err := bfcl.Score(samples, outs)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Entry(); !startsWithEntry(got, r.Printed) {
				t.Errorf("whole run printed\n%s\nreference\n%s", got, r.Printed)
			}
			return
		}
		for k, out := range r.Outputs {
			var want float64
			if json.Unmarshal(r.Scores[k], &want) != nil {
				if _, _, err := bfcl.ScoreSample(samples[*r.Index], out); err == nil {
					t.Errorf("sample %d answer %d: the reference raises %s, the port scores it", *r.Index, k, r.Scores[k])
				}
				continue
			}
			got, _, err := bfcl.ScoreSample(samples[*r.Index], out)
			if err != nil || got != want {
				t.Errorf("sample %d answer %d %.200q: %v (%v), reference %v", *r.Index, k, out, got, err, want)
			}
			checked++
		}
	})
	if checked < 2000 {
		t.Errorf("only %d answers checked", checked)
	}
}

// startsWithEntry compares Entry (which adds response_counts) with the
// reference's entry without them.
func startsWithEntry(got, want string) bool {
	return len(got) > len(want) && got[:len(want)-2] == want[:len(want)-2]
}

// BenchmarkScoreFullSize scores the 995 answers of the golden whole run,
// as `evaluate` does (the reference's score() takes about 0.46 s of one
// core for the same answers; score/bfcl/testdata/gen_golden.py --full
// prints its time).
func BenchmarkScoreFullSize(b *testing.B) {
	p := os.Getenv("MLPERF_GO_BFCL_WHEEL")
	if p == "" {
		b.Skip("MLPERF_GO_BFCL_WHEEL is not set")
	}
	d, err := Open([]string{p})
	if err != nil {
		b.Fatal(err)
	}
	var outs []bfcl.Output
	golden.JSONL(b, "testdata/full.jsonl.gz", func(_ int, r struct{ Chosen map[string]string }) {
		for k, v := range r.Chosen {
			i, _ := strconv.Atoi(k)
			outs = append(outs, bfcl.Output{Index: i, Text: v})
		}
	})
	samples := d.Samples()
	b.ResetTimer()
	for b.Loop() {
		if _, err := bfcl.Score(samples, outs); err != nil {
			b.Fatal(err)
		}
	}
}
