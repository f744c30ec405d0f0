package tokenset_test

import (
	"bytes"
	"compress/gzip"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokenset"
)

// altSpec reads a file the way deepseek-r1's eval_accuracy.py reads its
// pickle: the reference from "gt_output" else "ground_truth", the dataset
// name from "dataset" else derived from "metric".
var altSpec = tokenset.Spec{
	Benchmark:        "alt",
	TokenColumns:     []string{"tok_input", "input_tokens"},
	ReferenceColumns: []string{"gt_output", "ground_truth"},
	MetaColumns: []tokenset.MetaColumn{
		{Name: "dataset"},
		{Name: "metric", Derive: func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "_em", ""), "_", "") }},
	},
	Vocab:      1000,
	VocabName:  "test",
	TokensHelp: "tokenize text_input first",
	PickleFix:  `python3 -c "import pandas as pd; pd.read_pickle(%[1]s).to_json(%[2]s, orient='records')"`,
	PickleExt:  ".json",
}

func openAlt(p string) (*tokenset.Dataset, error) { return tokenset.Open(p, &altSpec) }

// TestColumnAlternatives: the first reference and meta column a file has
// wins for the whole file, in every layout; a derived meta column goes
// through its Derive; numbers and nulls read as str() would give them.
func TestColumnAlternatives(t *testing.T) {
	t.Parallel()
	both := []sample{
		{Tokens: []int32{1, 2}, Ref: "gt-a", Dataset: "math500"},
		{Tokens: []int32{3}, Ref: "", Dataset: "gpqa"},
	}
	derived := []sample{
		{Tokens: []int32{1, 2}, Ref: "204", Dataset: "aime1983"},
		{Tokens: []int32{3}, Ref: "B", Dataset: "mmlupro"},
	}
	for _, tc := range []struct {
		name, content string
		want          []sample
	}{
		// gt_output wins over ground_truth even where it is null, as
		// pandas picks the column, not the value.
		{"records.json", `[{"tok_input": [1, 2], "gt_output": "gt-a", "ground_truth": "x", "dataset": "math500", "metric": "m_em"},
			{"tok_input": [3], "gt_output": null, "ground_truth": "y", "dataset": "gpqa", "metric": "n_em"}]`, both},
		{"columns.json", `{"tok_input": {"0": [1, 2], "1": [3]}, "ground_truth": {"0": "x", "1": "y"}, "gt_output": {"0": "gt-a", "1": null},
			"metric": {"0": "a", "1": "b"}, "dataset": {"0": "math500", "1": "gpqa"}}`, both},
		{"split.json", `{"columns": ["ground_truth", "tok_input", "metric"], "index": [0, 1], "data": [[204, [1, 2], "aime_1983_em"], ["B", [3], "mmlu_pro_em"]]}`, derived},
		{"records_derived.json", `[{"input_tokens": [1, 2], "ground_truth": 204, "metric": "aime_1983_em"}, {"input_tokens": [3], "ground_truth": "B", "metric": "mmlu_pro_em"}]`, derived},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, err := openAlt(writeFile(t, tc.name, tc.content))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, samplesOf(d)); diff != "" {
				t.Errorf("samples (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("parquet", func(t *testing.T) {
		t.Parallel()
		type row struct {
			GroundTruth *string  `parquet:"ground_truth,optional"`
			Metric      *string  `parquet:"metric,optional"`
			TokInput    []*int64 `parquet:"tok_input,optional,list"`
		}
		d, err := openAlt(writeParquet(t, []row{
			{ptr("204"), ptr("aime_1983_em"), ints(1, 2)},
			{ptr("B"), ptr("mmlu_pro_em"), ints(3)},
		}))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(derived, samplesOf(d)); diff != "" {
			t.Errorf("samples (-want +got):\n%s", diff)
		}
	})
}

// TestTokensHelpAndGzip: a file with no token column ends its error with
// the spec's help in every layout; a gzip-compressed pickle gets the pandas
// conversion (which decompresses by the .gz name), other gzip files the
// gunzip advice.
func TestTokensHelpAndGzip(t *testing.T) {
	t.Parallel()
	for _, content := range []string{
		`[{"text_input": "hi", "ground_truth": "A"}]`,
		`{"text_input": {"0": "hi"}, "ground_truth": {"0": "A"}}`,
		`{"columns": ["text_input"], "index": [0], "data": [["hi"]]}`,
	} {
		_, err := openAlt(writeFile(t, "x.json", content))
		if err == nil || !strings.Contains(err.Error(), "tokenize text_input first") || !strings.Contains(err.Error(), `"text_input"`) {
			t.Errorf("%s: error %v, want the columns found and the help", content, err)
		}
	}
	type textRow struct {
		Text *string `parquet:"text_input,optional"`
	}
	if _, err := openAlt(writeParquet(t, []textRow{{ptr("hi")}})); err == nil || !strings.Contains(err.Error(), "tokenize text_input first") {
		t.Errorf("parquet without tokens: %v", err)
	}

	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte{0x80, 0x04, 0x95})
	zw.Close()
	dir := t.TempDir()
	pkl := filepath.Join(dir, "open_orca.sampled_24576.pkl.gz")
	other := filepath.Join(dir, "data.json.gz")
	for _, p := range []string{pkl, other} {
		if err := os.WriteFile(p, gz.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := openAlt(pkl)
	want := `pd.read_pickle('` + pkl + `').to_json('` + filepath.Join(dir, "open_orca.sampled_24576.json") + `'`
	if err == nil || !strings.Contains(err.Error(), "gzip-compressed Python pickle") || !strings.Contains(err.Error(), want) {
		t.Errorf(".pkl.gz: error %v\nwant the conversion %s", err, want)
	}
	if _, err := openAlt(other); err == nil || !strings.Contains(err.Error(), "gunzip -k "+other) {
		t.Errorf(".json.gz: error %v, want the gunzip advice", err)
	}
}

// FuzzTokenJSONAlternatives reads arbitrary JSON with the alternative
// reference and derived meta columns: never a crash, and what is read
// keeps the dataset's invariants.
func FuzzTokenJSONAlternatives(f *testing.F) {
	f.Add([]byte(`[{"tok_input": [1, 2], "gt_output": null, "ground_truth": 5, "metric": "aime_1983_em"}]`))
	f.Add([]byte(`{"input_tokens": {"0": [3]}, "ground_truth": {"0": "A"}, "metric": {"0": "gpqa_em"}, "dataset": {"1": "x"}}`))
	f.Add([]byte(`{"columns": ["metric", "tok_input", "gt_output"], "index": [0], "data": [["mmlu_pro_em", [4], "J"]]}`))
	f.Add([]byte(`[{"metric": "a_em"}, {"tok_input": [9], "dataset": "math500"}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := tokenset.ReadJSON(bytes.NewReader(b), "fuzz.json", &altSpec)
		if err != nil {
			return
		}
		checkInvariants(t, d, &altSpec)
	})
}

// TestReferenceTypes: a reference value reads as Python's str() of it and
// keeps its Python type, as pandas' to_json writes the pickle's values
// (a float with its fraction, 42.0) and as a parquet column holds them.
func TestReferenceTypes(t *testing.T) {
	t.Parallel()
	type want struct {
		ref string
		typ tokenset.RefType
	}
	wants := []want{{"42.0", tokenset.RefFloat}, {"42", tokenset.RefInt}, {"42.0", tokenset.RefStr}, {"  ", tokenset.RefStr},
		{"", tokenset.RefNone}, {"True", tokenset.RefBool}, {"1e+20", tokenset.RefFloat}, {"-7", tokenset.RefInt}}
	d, err := openAlt(writeFile(t, "types.json", `[{"tok_input": [1], "ground_truth": 42.0}, {"tok_input": [1], "ground_truth": 42},
		{"tok_input": [1], "ground_truth": "42.0"}, {"tok_input": [1], "ground_truth": "  "}, {"tok_input": [1], "ground_truth": null},
		{"tok_input": [1], "ground_truth": true}, {"tok_input": [1], "ground_truth": 1.0e20}, {"tok_input": [1], "ground_truth": -7}]`))
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range wants {
		if got := (want{d.Reference(i), d.ReferenceType(i)}); got != w {
			t.Errorf("row %d: %+v, want %+v", i, got, w)
		}
	}
	type row struct {
		GroundTruth *float64 `parquet:"ground_truth,optional"`
		TokInput    []*int64 `parquet:"tok_input,optional,list"`
	}
	nan, f := math.NaN(), 42.0
	d, err = openAlt(writeParquet(t, []row{{&f, ints(1)}, {&nan, ints(2)}, {nil, ints(3)}}))
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range []want{{"42.0", tokenset.RefFloat}, {"", tokenset.RefNone}, {"", tokenset.RefNone}} {
		if got := (want{d.Reference(i), d.ReferenceType(i)}); got != w {
			t.Errorf("parquet row %d: %+v, want %+v", i, got, w)
		}
	}
}
