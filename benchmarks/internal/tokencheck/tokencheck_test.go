package tokencheck_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mlperf-go/mlperf-go/benchmarks/gptoss120b"
	. "github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokensynth"
	"github.com/mlperf-go/mlperf-go/benchmarks/llama31"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
)

// ent builds an entry whose data is toks as little-endian int32 and whose
// token_count matches.
func ent(seq uint64, idx int, toks ...int32) mllog.AccuracyEntry {
	data := make([]byte, 4*len(toks))
	for i, t := range toks {
		binary.LittleEndian.PutUint32(data[4*i:], uint32(t))
	}
	return mllog.AccuracyEntry{SeqID: seq, QSLIndex: idx, Data: data, TokenCount: int64(len(toks)), HasTokenCount: true}
}

// seq returns n ordinary token IDs.
func seq(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(10 + i)
	}
	return out
}

func TestCheckTable(t *testing.T) {
	// Four samples with 1..4 tokens: total 10, mean 2.5.
	clean := []mllog.AccuracyEntry{ent(0, 2, seq(3)...), ent(1, 0, seq(1)...), ent(2, 3, seq(4)...), ent(3, 1, seq(2)...)}
	cleanStats := Stats{Samples: 4, Total: 10, Min: 1, Max: 4, Mean: 2.5}
	info := DatasetInfo{Benchmark: "test", Samples: 4, Vocab: 100}

	noCount := append([]mllog.AccuracyEntry(nil), clean...)
	for i := range noCount {
		noCount[i].HasTokenCount, noCount[i].TokenCount = false, 0
	}
	badLen := append([]mllog.AccuracyEntry(nil), clean...)
	badLen[2] = mllog.AccuracyEntry{SeqID: 2, QSLIndex: 3, Data: []byte{1, 0, 0, 0, 2, 0, 0}, TokenCount: 2, HasTokenCount: true}
	mismatch := append([]mllog.AccuracyEntry(nil), clean...)
	mismatch[0].TokenCount = 5

	tests := []struct {
		name    string
		entries []mllog.AccuracyEntry
		want    Report
		ok      bool
	}{
		{"clean", clean, Report{Entries: 4, Present: 4, Output: cleanStats}, true},
		{"duplicate keeps first", append(clean[:4:4], ent(4, 1, seq(9)...), ent(5, 1, seq(9)...)),
			Report{Entries: 6, Present: 4, Duplicates: []int{1}, Output: cleanStats}, false},
		{"missing", []mllog.AccuracyEntry{ent(0, 0, seq(1)...), ent(1, 2, seq(3)...)},
			Report{Entries: 2, Present: 2, Missing: []int{1, 3}, Output: Stats{Samples: 2, Total: 4, Min: 1, Max: 3, Mean: 2}}, false},
		{"out of range", append(clean[:4:4], ent(4, 7, 1), ent(5, 7, 1), ent(6, 4, 1)),
			Report{Entries: 7, Present: 4, OutOfRange: []int{4, 7}, Output: cleanStats}, false},
		{"bad length", badLen, Report{Entries: 4, Present: 4,
			BadLength: []EntryRef{{Entry: 2, SeqID: 2, QSLIndex: 3, Detail: "7 bytes of data is not a whole number of int32 token IDs"}},
			Output:    Stats{Samples: 3, Total: 6, Min: 1, Max: 3, Mean: 2}}, false},
		{"token count mismatch", mismatch, Report{Entries: 4, Present: 4,
			CountMismatch: []EntryRef{{Entry: 0, SeqID: 0, QSLIndex: 2, Detail: "token_count 5, but data holds 3 tokens"}},
			Output:        cleanStats}, false},
		{"no token count", noCount, Report{Entries: 4, Present: 4, NoTokenCount: 4, Output: cleanStats}, true},
		{"token out of vocabulary", []mllog.AccuracyEntry{ent(0, 0, 5), ent(1, 1, 5, 100), ent(2, 2, -1, 7), ent(3, 3, 99)}, Report{Entries: 4, Present: 4,
			BadTokens: []EntryRef{
				{Entry: 1, SeqID: 1, QSLIndex: 1, Detail: "token 1 is 100, outside the vocabulary [0,100)"},
				{Entry: 2, SeqID: 2, QSLIndex: 2, Detail: "token 0 is -1, outside the vocabulary [0,100)"},
			},
			Output: Stats{Samples: 4, Total: 6, Min: 1, Max: 2, Mean: 1.5}}, false},
		{"empty output", []mllog.AccuracyEntry{ent(0, 0), ent(1, 1, 1), ent(2, 2, 1), ent(3, 3, 1)},
			Report{Entries: 4, Present: 4, Output: Stats{Samples: 4, Total: 3, Min: 0, Max: 1, Mean: 0.75, Empty: 1}}, true},
		{"empty log", nil, Report{Missing: []int{0, 1, 2, 3}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Check(tc.entries, info)
			tc.want.Benchmark, tc.want.Expected = "test", 4
			if diff := cmp.Diff(tc.want, got, cmpopts.IgnoreFields(Report{}, "Warnings", "Notes"), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("report (-want +got):\n%s", diff)
			}
			if got.OK() != tc.ok {
				t.Errorf("OK() = %v, want %v\n%s", got.OK(), tc.ok, got.Format())
			}
			f := got.Format()
			if !strings.Contains(f, "result: OK") == tc.ok {
				t.Errorf("Format verdict disagrees with OK()=%v:\n%s", tc.ok, f)
			}
		})
	}
}

// TestPartialLog: a log of the set's first samples and nothing else wrong
// (a run of --total-sample-count N) is partial, not failed: its report says
// how much it covers; a gap elsewhere, or a missing sample beside a
// duplicate, still fails.
func TestPartialLog(t *testing.T) {
	info := DatasetInfo{Benchmark: "test", Samples: 4, Vocab: 100}
	part := Check([]mllog.AccuracyEntry{ent(0, 0, 1), ent(1, 1, 2)}, info)
	if part.OK() || !part.Partial() || !strings.Contains(part.Format(), "result: PARTIAL — 2 of 4 samples") {
		t.Errorf("a log of samples 0 and 1 of 4: OK %v, Partial %v\n%s", part.OK(), part.Partial(), part.Format())
	}
	gap := Check([]mllog.AccuracyEntry{ent(0, 1, 1), ent(1, 2, 2)}, info)
	if gap.Partial() || !strings.Contains(gap.Format(), "result: FAILED") {
		t.Errorf("a log missing sample 0 (not the set's first samples): Partial %v\n%s", gap.Partial(), gap.Format())
	}
	dup := Check([]mllog.AccuracyEntry{ent(0, 0, 1), ent(1, 0, 2)}, info)
	if dup.Partial() || !strings.Contains(dup.Format(), "result: FAILED") {
		t.Errorf("missing samples beside a duplicate: Partial %v\n%s", dup.Partial(), dup.Format())
	}
	if (Report{Expected: 4, Missing: []int{0, 1, 2, 3}}).Partial() {
		t.Errorf("an empty log is partial")
	}
}

func TestFormatNamesProblems(t *testing.T) {
	entries := []mllog.AccuracyEntry{ent(0, 0, 1), ent(1, 0, 1), ent(2, 9, 1), {SeqID: 3, QSLIndex: 2, Data: []byte{1}}}
	f := Check(entries, DatasetInfo{Benchmark: "gpt-oss-120b", Samples: 5, Vocab: 10}).Format()
	for _, want := range []string{
		"gpt-oss-120b accuracy log: 4 entries, 2 of 5 samples present",
		"missing: 3 indices: 1, 3-4",
		"duplicated: 1 indices: 0",
		"out of range: 1 indices: 9",
		"entry 3 (seq_id 3, qsl_idx 2): 1 bytes of data",
		"1 of 4 entries have no token_count",
		"result: FAILED",
	} {
		if !strings.Contains(f, want) {
			t.Errorf("Format output lacks %q:\n%s", want, f)
		}
	}
}

func TestRanges(t *testing.T) {
	tests := []struct {
		idx   []int
		limit int
		want  string
	}{
		{nil, 5, ""},
		{[]int{3}, 5, "3"},
		{[]int{0, 1, 2, 5, 7, 8}, 5, "0-2, 5, 7-8"},
		{[]int{0, 2, 4, 6}, 2, "0, 2, … (2 more)"},
	}
	for _, tc := range tests {
		if got := Ranges(tc.idx, tc.limit); got != tc.want {
			t.Errorf("Ranges(%v, %d) = %q, want %q", tc.idx, tc.limit, got, tc.want)
		}
	}
}

// TestEndToEnd writes a dataset with synth, opens it with qsl, writes an
// accuracy log in LoadGen's layout and reads it back with acclog.
func TestEndToEnd(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "acc_eval_inputs.parquet")
	if err := tokensynth.GPTOSS(data, 30, 5); err != nil {
		t.Fatal(err)
	}
	d, err := gptoss120b.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	info := gptoss120b.AccuracyInfo("gpt-oss-120b", d)
	if info.Samples != 30 || info.Vocab != gptoss120b.VocabSize || len(info.Datasets) != 30 || info.Datasets[7] != d.Meta(7).Dataset {
		t.Fatalf("Info = %+v", info)
	}
	var entries []mllog.AccuracyEntry
	var total int64
	for i := 0; i < d.Len(); i++ {
		out := d.Tokens(i)[:1+i%len(d.Tokens(i))] // echo part of the prompt as "output"
		entries = append(entries, ent(uint64(i), d.Len()-1-i, out...))
		total += int64(len(out))
	}
	logPath := filepath.Join(dir, "mlperf_log_accuracy.json")
	f, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := mllog.WriteAccuracy(f, entries); err != nil {
		t.Fatal(err)
	}
	f.Close()
	read, err := mllog.ReadAccuracy(logPath)
	if err != nil {
		t.Fatal(err)
	}
	r := Check(read, info)
	if !r.OK() || r.Output.Total != total || r.Present != 30 {
		t.Errorf("report: OK %v, total %d (want %d), present %d\n%s", r.OK(), r.Output.Total, total, r.Present, r.Format())
	}

	// The llama side: Info covers the whole file.
	lp := filepath.Join(dir, "cnn_eval.json")
	if err := tokensynth.Llama(lp, 12, 5); err != nil {
		t.Fatal(err)
	}
	ld, err := llama31.Open(lp)
	if err != nil {
		t.Fatal(err)
	}
	li := llama31.AccuracyInfo("llama3_1-8b", ld)
	if li.Samples != 12 || li.Vocab != llama31.VocabSize || li.Datasets != nil {
		t.Errorf("llama AccuracyInfo = %+v", li)
	}
}

func FuzzCheck(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0}, uint16(0), uint8(3), true, int64(1), []byte{0, 1, 1, 5})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 9}, uint16(70), uint8(0), false, int64(-3), []byte{})
	f.Fuzz(func(t *testing.T, data []byte, idx uint16, samples uint8, hasCount bool, count int64, more []byte) {
		entries := []mllog.AccuracyEntry{{SeqID: 0, QSLIndex: int(idx), Data: data, TokenCount: count, HasTokenCount: hasCount}}
		for i, b := range more { // more entries: each byte an index
			entries = append(entries, ent(uint64(i+1), int(b), int32(b)))
		}
		for bench, extra := range map[string]func() Extra{"llama3_1-8b": llama31.NewChecks, "gpt-oss-120b": gptoss120b.NewChecks} {
			r := Check(entries, DatasetInfo{Benchmark: bench, Samples: int(samples), Vocab: 200, Extra: extra})
			if r.Present+len(r.Missing) != int(samples) {
				t.Fatalf("present %d + missing %d != %d samples", r.Present, len(r.Missing), samples)
			}
			// Stats cover each present index whose first entry is well formed.
			if bad := countBad(entries, r); r.Output.Samples != r.Present-bad {
				t.Fatalf("stats over %d samples, want %d present - %d malformed", r.Output.Samples, r.Present, bad)
			}
			_ = r.Format()
		}
	})
}

// countBad is how many present indices' first entries had malformed data.
func countBad(entries []mllog.AccuracyEntry, r Report) int {
	seen := map[int]bool{}
	n := 0
	for _, e := range entries {
		if e.QSLIndex >= r.Expected || seen[e.QSLIndex] {
			continue
		}
		seen[e.QSLIndex] = true
		if len(e.Data)%4 != 0 {
			n++
		}
	}
	return n
}
