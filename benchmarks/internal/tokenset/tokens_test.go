package tokenset_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"

	"github.com/mlperf-go/mlperf-go/benchmarks/gptoss120b"
	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokenset"
	"github.com/mlperf-go/mlperf-go/benchmarks/llama31"
	"github.com/mlperf-go/mlperf-go/qsl"
)

// sample is one expected sample, written out independently of the readers
// (copied from testdata/mkfixtures.py).
type sample struct {
	Tokens  []int32
	Ref     string
	Dataset string
}

func samplesOf(d *tokenset.Dataset) []sample {
	var out []sample
	for i := 0; i < d.Len(); i++ {
		out = append(out, sample{Tokens: d.Tokens(i), Ref: d.Reference(i), Dataset: d.Meta(i).Dataset})
	}
	return out
}

var llamaFixture = []sample{
	{Tokens: []int32{128000, 9370, 5730, 553, 0}, Ref: "First summary."},
	{Tokens: []int32{128000, 128255}, Ref: "Résumé – two."},
	{Tokens: []int32{1, 2, 3, 4, 5, 6, 7}, Ref: ""},
}

var gptossFixture = []sample{
	{Tokens: []int32{200006, 17360, 200008}, Ref: "42", Dataset: "aime25"},
	{Tokens: []int32{1, 201087}, Ref: "", Dataset: "gpqa_diamond"},
	{Tokens: []int32{5, 6, 7, 8}, Ref: "lcb-id-7", Dataset: "livecodebench_v6"},
}

// TestReferenceToolingFiles reads files pandas/pyarrow wrote in every layout
// the readers accept.
func TestReferenceToolingFiles(t *testing.T) {
	tests := []struct {
		file, format, column string
		open                 func(string) (*tokenset.Dataset, error)
		want                 []sample
	}{
		{"llama_cnn_eval.json", "json", "tok_input", llama31.Open, llamaFixture},
		{"llama_orient_records.json", "json", "tok_input", llama31.Open, llamaFixture},
		{"llama_orient_columns.json", "json", "tok_input", llama31.Open, llamaFixture},
		{"llama_orient_index.json", "json", "tok_input", llama31.Open, llamaFixture},
		{"llama_orient_split.json", "json", "tok_input", llama31.Open, llamaFixture},
		{"gptoss_tok_input_int64.parquet", "parquet", "tok_input", gptoss120b.Open, gptossFixture},
		{"gptoss_input_tokens_int32.parquet", "parquet", "input_tokens", gptoss120b.Open, gptossFixture},
		{"gptoss_orient_columns.json", "json", "tok_input", gptoss120b.Open, gptossFixture},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			d, err := tc.open(filepath.Join("testdata", "tokens", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, samplesOf(d)); diff != "" {
				t.Errorf("samples (-want +got):\n%s", diff)
			}
			if d.Format() != tc.format || d.TokenColumn() != tc.column {
				t.Errorf("format, column = %q, %q; want %q, %q", d.Format(), d.TokenColumn(), tc.format, tc.column)
			}
			total := 0
			for _, s := range tc.want {
				total += len(s.Tokens)
			}
			if d.TotalTokens() != total {
				t.Errorf("TotalTokens = %d, want %d", d.TotalTokens(), total)
			}
		})
	}
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// pyarrowRow mirrors the layout pyarrow writes for a DataFrame: optional
// strings and an optional list of optional integers.
type pyarrowRow struct {
	Dataset     *string  `parquet:"dataset,optional"`
	GroundTruth *string  `parquet:"ground_truth,optional"`
	TokInput    []*int64 `parquet:"tok_input,optional,list"`
}

func writeParquet[T any](t *testing.T, rows []T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "data.parquet")
	if err := parquet.WriteFile(p, rows); err != nil {
		t.Fatal(err)
	}
	return p
}

func ptr[T any](v T) *T { return &v }

func ints(v ...int64) []*int64 {
	out := make([]*int64, len(v))
	for i := range v {
		out[i] = &v[i]
	}
	return out
}

func TestTokenErrors(t *testing.T) {
	tests := []struct {
		name string
		open func(string) (*tokenset.Dataset, error)
		path func(t *testing.T) string
		want []string // substrings of the error
	}{
		{"json wrong column name", llama31.Open, func(t *testing.T) string {
			return writeFile(t, "d.json", `[{"input_ids": [1,2], "output": "x"}]`)
		}, []string{"d.json", "record 0", `"tok_input"`, `"input_ids"`}},
		{"json non-integer token", llama31.Open, func(t *testing.T) string {
			return writeFile(t, "d.json", `[{"tok_input": [1,2], "output": "a"}, {"tok_input": [3, 4.5], "output": "b"}]`)
		}, []string{"d.json", "record 1", "tok_input[1] is 4.5", "not an integer"}},
		{"json string token", llama31.Open, func(t *testing.T) string {
			return writeFile(t, "d.json", `[{"tok_input": ["7"], "output": "a"}]`)
		}, []string{"record 0", `tok_input[0] is "7"`}},
		{"json out of range", llama31.Open, func(t *testing.T) string {
			return writeFile(t, "d.json", `[{"tok_input": [1, 128256], "output": "a"}]`)
		}, []string{"record 0", "tok_input[1] = 128256", "Llama 3 vocabulary [0,128256)"}},
		{"json negative", gptoss120b.Open, func(t *testing.T) string {
			return writeFile(t, "d.json", `[{"input_tokens": [-1]}]`)
		}, []string{"record 0", "input_tokens[0] = -1"}},
		{"json huge", llama31.Open, func(t *testing.T) string {
			return writeFile(t, "d.json", `[{"tok_input": [99999999999999999999999]}]`)
		}, []string{"record 0", "outside the Llama 3 vocabulary"}},
		{"json empty prompt", llama31.Open, func(t *testing.T) string {
			return writeFile(t, "d.json", `[{"tok_input": [1]}, {"tok_input": [1]}, {"tok_input": [ ]}]`)
		}, []string{"record 2", "empty prompt"}},
		{"json null prompt", llama31.Open, func(t *testing.T) string {
			return writeFile(t, "d.json", `[{"tok_input": null}]`)
		}, []string{"record 0", "empty prompt", "null"}},
		{"json values orient", llama31.Open, func(t *testing.T) string {
			return writeFile(t, "d.json", `[[1, [1,2], "x"]]`)
		}, []string{"record 0", `orient="records"`}},
		{"json columns orient wrong name", gptoss120b.Open, func(t *testing.T) string {
			return writeFile(t, "d.json", `{"tokens": {"0": [1]}, "dataset": {"0": "aime25"}}`)
		}, []string{`"tok_input" or "input_tokens"`, `"tokens"`}},
		{"json columns orient bad token", gptoss120b.Open, func(t *testing.T) string {
			return writeFile(t, "d.json", `{"tok_input": {"0": [1], "1": [true]}}`)
		}, []string{`record 1 (index "1")`, "tok_input[0] is true"}},
		{"json split wrong name", llama31.Open, func(t *testing.T) string {
			return writeFile(t, "d.json", `{"columns": ["a"], "index": [0], "data": [[[1]]]}`)
		}, []string{`columns: "a"`}},
		{"json empty list", llama31.Open, func(t *testing.T) string {
			return writeFile(t, "d.json", `[]`)
		}, []string{"no samples"}},
		{"json truncated", llama31.Open, func(t *testing.T) string {
			return writeFile(t, "d.json", `[{"tok_input": [1, 2`)
		}, []string{"d.json", "record 0"}},
		{"json trailing garbage", llama31.Open, func(t *testing.T) string {
			return writeFile(t, "d.json", `[{"tok_input": [1]}] x`)
		}, []string{"after the JSON value"}},
		{"pickle llama", llama31.Open, func(t *testing.T) string {
			return writeFile(t, "cnn_eval.pkl", "\x80\x04\x95junk")
		}, []string{"cnn_eval.pkl", "Python pickle", "to_json(", "cnn_eval.json", "orient='records'"}},
		{"pickle gptoss", gptoss120b.Open, func(t *testing.T) string {
			return writeFile(t, "acc.pkl", "\x80\x04\x95junk")
		}, []string{"acc.pkl", "Python pickle", "to_parquet(", "acc.parquet"}},
		{"not a dataset", llama31.Open, func(t *testing.T) string {
			return writeFile(t, "d.csv", "tok_input,output\n")
		}, []string{"neither JSON nor parquet"}},
		{"empty file", llama31.Open, func(t *testing.T) string {
			return writeFile(t, "d.json", "")
		}, []string{"is empty"}},
		{"missing file", llama31.Open, func(t *testing.T) string {
			return filepath.Join(t.TempDir(), "nope.json")
		}, []string{"nope.json"}},
		{"parquet wrong column name", gptoss120b.Open, func(t *testing.T) string {
			type row struct {
				Prompt  []int64 `parquet:"prompt_ids,list"`
				Dataset string  `parquet:"dataset"`
			}
			return writeParquet(t, []row{{Prompt: []int64{1}, Dataset: "x"}})
		}, []string{"data.parquet", `"tok_input" or "input_tokens"`, `"prompt_ids", "dataset"`}},
		{"parquet float tokens", gptoss120b.Open, func(t *testing.T) string {
			type row struct {
				Tok []float64 `parquet:"tok_input,list"`
			}
			return writeParquet(t, []row{{Tok: []float64{1.5}}})
		}, []string{"data.parquet", `"tok_input" holds DOUBLE values`}},
		{"parquet not a list", gptoss120b.Open, func(t *testing.T) string {
			type row struct {
				Tok int64 `parquet:"tok_input"`
			}
			return writeParquet(t, []row{{Tok: 1}})
		}, []string{`"tok_input" must be a list`}},
		{"parquet out of range", gptoss120b.Open, func(t *testing.T) string {
			return writeParquet(t, []pyarrowRow{{TokInput: ints(1, 2)}, {TokInput: ints(3, 201088)}})
		}, []string{"data.parquet", "row 1", "tok_input[1] = 201088", "[0,201088)"}},
		{"parquet empty list", gptoss120b.Open, func(t *testing.T) string {
			return writeParquet(t, []pyarrowRow{{TokInput: ints(1)}, {TokInput: []*int64{}}, {TokInput: ints(2)}})
		}, []string{"row 1", "empty prompt"}},
		{"parquet null list", gptoss120b.Open, func(t *testing.T) string {
			return writeParquet(t, []pyarrowRow{{TokInput: nil}})
		}, []string{"row 0", "empty prompt"}},
		{"parquet null element", gptoss120b.Open, func(t *testing.T) string {
			return writeParquet(t, []pyarrowRow{{TokInput: []*int64{ptr[int64](1), nil}}})
		}, []string{"row 0", "tok_input[1] is null"}},
		{"parquet empty last row", gptoss120b.Open, func(t *testing.T) string {
			return writeParquet(t, []pyarrowRow{{TokInput: ints(1)}, {TokInput: []*int64{}}})
		}, []string{"row 1", "empty prompt"}},
		{"parquet list ground truth", gptoss120b.Open, func(t *testing.T) string {
			type row struct {
				Tok []int64  `parquet:"tok_input,list"`
				GT  []string `parquet:"ground_truth,list"`
			}
			return writeParquet(t, []row{{Tok: []int64{1}, GT: []string{"a"}}})
		}, []string{`"ground_truth" must be a plain`}},
		{"parquet truncated", gptoss120b.Open, func(t *testing.T) string {
			p := writeParquet(t, []pyarrowRow{{TokInput: ints(1)}})
			b, _ := os.ReadFile(p)
			os.WriteFile(p, b[:len(b)/2], 0o644)
			return p
		}, []string{"data.parquet", "parquet"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := tc.open(tc.path(t))
			if err == nil {
				t.Fatalf("got %d samples, want an error containing %q", d.Len(), tc.want)
			}
			t.Log(err)
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not contain %q", err, w)
				}
			}
		})
	}
}

// TestParquetPyarrowLayout reads rows in pyarrow's nullable layout, many row
// groups and pages, and checks nulls in text columns come back as "".
func TestParquetPyarrowLayout(t *testing.T) {
	var rows []pyarrowRow
	var want []sample
	for i := 0; i < 2500; i++ {
		n := 1 + i%37
		toks := make([]int64, n)
		wt := make([]int32, n)
		for j := range toks {
			toks[j] = int64((i*131 + j*7) % gptoss120b.VocabSize)
			wt[j] = int32(toks[j])
		}
		r := pyarrowRow{TokInput: ints(toks...)}
		s := sample{Tokens: wt}
		if i%3 != 0 {
			r.Dataset = ptr(fmt.Sprintf("ds%d", i%4))
			s.Dataset = *r.Dataset
		}
		if i%5 != 0 {
			r.GroundTruth = ptr(fmt.Sprintf("gt %d", i))
			s.Ref = *r.GroundTruth
		}
		rows = append(rows, r)
		want = append(want, s)
	}
	codecs := []struct {
		name  string
		codec parquet.WriterOption
	}{
		{"snappy", parquet.Compression(&parquet.Snappy)},
		{"lz4raw", parquet.Compression(&parquet.Lz4Raw)},
		{"zstd", parquet.Compression(&parquet.Zstd)},
		{"none", parquet.Compression(&parquet.Uncompressed)},
	}
	for _, c := range codecs {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "many.parquet")
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			w := parquet.NewGenericWriter[pyarrowRow](f, parquet.PageBufferSize(512), c.codec)
			for i := 0; i < len(rows); i += 700 { // several row groups
				if _, err := w.Write(rows[i:min(i+700, len(rows))]); err != nil {
					t.Fatal(err)
				}
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			f.Close()
			d, err := gptoss120b.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, samplesOf(d)); diff != "" {
				t.Errorf("samples (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHead(t *testing.T) {
	d, err := llama31.Open(filepath.Join("testdata", "tokens", "llama_cnn_eval.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ n, want int }{{0, 3}, {-1, 3}, {1, 1}, {2, 2}, {3, 3}, {13368, 3}} {
		h := d.Head(tc.n)
		if h.Len() != tc.want {
			t.Errorf("Head(%d).Len() = %d, want %d", tc.n, h.Len(), tc.want)
			continue
		}
		if diff := cmp.Diff(llamaFixture[:tc.want], samplesOf(h)); diff != "" {
			t.Errorf("Head(%d) (-want +got):\n%s", tc.n, diff)
		}
	}
	h := d.Head(1)
	if got, want := h.TotalTokens(), len(llamaFixture[0].Tokens); got != want {
		t.Errorf("Head(1).TotalTokens = %d, want %d", got, want)
	}
	// Appending to a returned slice must not overwrite the next sample.
	_ = append(d.Tokens(0), 99)
	if diff := cmp.Diff(llamaFixture[1].Tokens, d.Tokens(1)); diff != "" {
		t.Errorf("sample 1 changed by an append to sample 0 (-want +got):\n%s", diff)
	}
}

func TestBuilderWithLibrary(t *testing.T) {
	d, err := gptoss120b.Open(filepath.Join("testdata", "tokens", "gptoss_tok_input_int64.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	encode := func(i int, toks []int32) ([]byte, error) {
		var b bytes.Buffer
		binary.Write(&b, binary.LittleEndian, toks)
		return b.Bytes(), nil
	}
	lib, err := qsl.NewLibrary("gpt-oss-120b", d.Len(), d.Len(), d.Builder(encode))
	if err != nil {
		t.Fatal(err)
	}
	if err := lib.LoadSamplesToRam([]int{2, 0}); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 2} {
		want, _ := encode(i, gptossFixture[i].Tokens)
		if !bytes.Equal(lib.Body(i), want) {
			t.Errorf("body %d = %x, want %x", i, lib.Body(i), want)
		}
	}
	if lib.Body(1) != nil {
		t.Errorf("sample 1 was not loaded but has a body")
	}
	failing := d.Builder(func(i int, _ []int32) ([]byte, error) { return nil, fmt.Errorf("boom") })
	err = failing.Build([]int{1}, func(int, []byte) {})
	if err == nil || !strings.Contains(err.Error(), "sample 1: boom") {
		t.Errorf("error = %v, want it to name sample 1", err)
	}
	if err := d.Builder(encode).Build([]int{3}, func(int, []byte) {}); err == nil {
		t.Error("index 3 of 3 samples built without error")
	}
}

func FuzzTokenJSON(f *testing.F) {
	for _, name := range []string{"llama_cnn_eval.json", "llama_orient_columns.json", "llama_orient_index.json", "llama_orient_split.json", "gptoss_orient_columns.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", "tokens", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`[{"tok_input": [1, -2, 3e4, "x", null, [1]]}]`))
	f.Add([]byte(`{"columns": [], "data": [[]]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, spec := range []*tokenset.Spec{&llama31.Spec, &gptoss120b.Spec} {
			d, err := tokenset.ReadJSON(bytes.NewReader(b), "fuzz.json", spec)
			if err != nil {
				continue
			}
			checkInvariants(t, d, spec)
		}
	})
}

func FuzzTokenParquet(f *testing.F) {
	for _, name := range []string{"gptoss_tok_input_int64.parquet", "gptoss_input_tokens_int32.parquet"} {
		b, err := os.ReadFile(filepath.Join("testdata", "tokens", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	// LZ4_RAW is the codec parquet-go mishandles on corrupt input; seed it.
	var lz bytes.Buffer
	rows := []pyarrowRow{{Dataset: ptr("aime25"), GroundTruth: ptr("7"), TokInput: ints(1, 2, 3, 1, 2, 3, 1, 2, 3)}, {TokInput: ints(9)}}
	if err := parquet.Write(&lz, rows, parquet.Compression(&parquet.Lz4Raw)); err != nil {
		f.Fatal(err)
	}
	f.Add(lz.Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := tokenset.ReadParquet(bytes.NewReader(b), int64(len(b)), "fuzz.parquet", &gptoss120b.Spec)
		if err != nil {
			return
		}
		checkInvariants(t, d, &gptoss120b.Spec)
	})
}

// checkInvariants checks what every successfully read dataset guarantees.
func checkInvariants(t *testing.T, d *tokenset.Dataset, spec *tokenset.Spec) {
	t.Helper()
	if d.Len() == 0 {
		t.Fatal("read a dataset with no samples")
	}
	total := 0
	for i := 0; i < d.Len(); i++ {
		toks := d.Tokens(i)
		if len(toks) == 0 {
			t.Fatalf("sample %d has an empty prompt", i)
		}
		for _, tok := range toks {
			if tok < 0 || int(tok) >= spec.Vocab {
				t.Fatalf("sample %d has token %d outside [0,%d)", i, tok, spec.Vocab)
			}
		}
		total += len(toks)
		_ = d.Reference(i)
		_ = d.Meta(i)
	}
	if total != d.TotalTokens() {
		t.Fatalf("TotalTokens = %d, sum of lengths %d", d.TotalTokens(), total)
	}
}

// TestPromptsAcrossBlocks: prompts are stored in shared blocks; many of
// them, early ones longer than the small first blocks, read back exactly
// from JSON and parquet, with no spare capacity to overwrite a neighbour
// through.
func TestPromptsAcrossBlocks(t *testing.T) {
	t.Parallel()
	lengths := []int{1, 1000, 1025, 3, 5000, 7, 20000}
	for i := range 600 {
		lengths = append(lengths, 1+(i*37)%900)
	}
	var want []sample
	var js strings.Builder
	var rows []pyarrowRow
	js.WriteByte('[')
	for i, n := range lengths {
		toks := make([]int32, n)
		for k := range toks {
			toks[k] = int32((i*131 + k*7) % 128000)
		}
		ref := fmt.Sprintf("summary %d", i)
		want = append(want, sample{Tokens: toks, Ref: ref})
		if i > 0 {
			js.WriteByte(',')
		}
		fmt.Fprintf(&js, `{"tok_input":%s,"output":%q}`, strings.Join(strings.Fields(fmt.Sprint(toks)), ","), ref)
		wide := make([]int64, n)
		for k, v := range toks {
			wide[k] = int64(v)
		}
		rows = append(rows, pyarrowRow{GroundTruth: ptr(ref), TokInput: ints(wide...)})
	}
	js.WriteByte(']')
	fromJSON, err := tokenset.ReadJSON(strings.NewReader(js.String()), "blocks.json", &llama31.Spec)
	if err != nil {
		t.Fatal(err)
	}
	var pq bytes.Buffer
	if err := parquet.Write(&pq, rows); err != nil {
		t.Fatal(err)
	}
	fromParquet, err := tokenset.ReadParquet(bytes.NewReader(pq.Bytes()), int64(pq.Len()), "blocks.parquet", &gptoss120b.Spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []*tokenset.Dataset{fromJSON, fromParquet} {
		if d.Len() != len(want) {
			t.Fatalf("%s: %d samples, want %d", d.Path(), d.Len(), len(want))
		}
		for i, w := range want {
			toks := d.Tokens(i)
			if !slices.Equal(toks, w.Tokens) || d.Reference(i) != w.Ref {
				t.Fatalf("%s: sample %d = %d tokens %q, want %d tokens %q", d.Path(), i, len(toks), d.Reference(i), len(w.Tokens), w.Ref)
			}
			if cap(toks) != len(toks) {
				t.Fatalf("%s: sample %d has %d tokens of spare capacity", d.Path(), i, cap(toks)-len(toks))
			}
		}
		checkInvariants(t, d, &gptoss120b.Spec)
	}
}
