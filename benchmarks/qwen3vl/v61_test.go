package qwen3vl

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/benchmarks/qwen3vl/synth"
	"github.com/mlperf-go/mlperf-go/qsl"
)

// v61Vector is one entry of testdata/q3vl_request_bodies_v6.1.json (a
// copy of /work/shared/testdata/q3vl/request_bodies_v6.1.json): a sample and
// the whole request bodies mlcommons/endpoints' own code (the Shopify
// formatter and OpenAIMsgspecAdapter) made from it, without and with
// streaming.
type v61Vector struct {
	referenceVector
	RequestBody       string `json:"request_body"`
	RequestBodyStream string `json:"request_body_stream"`
}

const v61Model = "Qwen/Qwen3-VL-235B-A22B-Instruct"

func v61Vectors(t testing.TB) []v61Vector {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "q3vl_request_bodies_v6.1.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vs []v61Vector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) == 0 {
		t.Fatal("no vectors")
	}
	return vs
}

// TestV61BodiesMatchEndpoints loads the vectors' samples from a parquet
// shard through a Library, as a run does, and checks that every body is
// byte for byte the one endpoints encoded, streaming and not, and that each
// begins with the shared prefix the library keeps once.
func TestV61BodiesMatchEndpoints(t *testing.T) {
	vs := v61Vectors(t)
	plain := make([]referenceVector, len(vs))
	for i, v := range vs {
		plain[i] = v.referenceVector
	}
	for _, dict := range []bool{false, true} {
		d := vectorDataset(t, plain, synth.ShardOptions{DictionaryImages: dict, RowGroupSize: 2})
		for _, stream := range []bool{false, true} {
			q := RequestV61{Model: v61Model, Params: DefaultParamsV61(), Stream: stream}
			lib, err := qsl.NewLibrary("q3vl", d.Len(), 0, d.BuilderV61(q))
			if err != nil {
				t.Fatal(err)
			}
			prefix := q.Prefix()
			if err := lib.SharePrefix(prefix); err != nil {
				t.Fatal(err)
			}
			if err := lib.LoadSamplesToRam([]int{2, 0, 1}); err != nil {
				t.Fatal(err)
			}
			for i, v := range vs {
				want := v.RequestBody
				if stream {
					want = v.RequestBodyStream
				}
				if got := string(lib.Body(i)); got != want {
					t.Errorf("dict=%v stream=%v vector %d: body differs from endpoints'\n%s", dict, stream, i, firstDiff(got, want))
				}
				pre, rest := lib.Parts(i)
				if !bytes.Equal(pre, prefix) || len(rest) == 0 {
					t.Errorf("vector %d: stored as %d-byte prefix + %d bytes, want the %d-byte shared prefix", i, len(pre), len(rest), len(prefix))
				}
			}
		}
		// The texts on their own, for the fake endpoint and tools.
		for i, v := range vs {
			var body struct {
				Messages []struct {
					Content json.RawMessage `json:"content"`
				} `json:"messages"`
			}
			if err := json.Unmarshal([]byte(v.RequestBody), &body); err != nil || len(body.Messages) != 2 {
				t.Fatalf("vector %d: %v", i, err)
			}
			var sys string
			var parts []struct {
				Text string `json:"text"`
			}
			if err := json.Unmarshal(body.Messages[0].Content, &sys); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(body.Messages[1].Content, &parts); err != nil || len(parts) != 2 {
				t.Fatalf("vector %d user content: %v", i, err)
			}
			if SystemPromptV61() != sys {
				t.Errorf("SystemPromptV61 differs:\n%s", firstDiff(SystemPromptV61(), sys))
			}
			if got := d.UserTextV61(i); got != parts[0].Text {
				t.Errorf("vector %d: UserTextV61 differs:\n%s", i, firstDiff(got, parts[0].Text))
			}
		}
	}
}

// firstDiff shows where two long strings part.
func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(i-60, 0)
	return "first difference at byte " + strconv.Itoa(i) + ":\n got …" + clipAt(got[lo:], 140) + "\nwant …" + clipAt(want[lo:], 140)
}

func clipAt(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// TestV61Differences pins what changed from v6.0 in the system prompt.
func TestV61Differences(t *testing.T) {
	v60, v61 := SystemPrompt(), SystemPromptV61()
	for _, typo := range []string{"specifc\n", "followng JSON"} {
		if !strings.Contains(v60, typo) || strings.Contains(v61, typo) {
			t.Errorf("typo %q: in v6.0 %v, in v6.1 %v; want only in v6.0", typo, strings.Contains(v60, typo), strings.Contains(v61, typo))
		}
	}
	if strings.Contains(v61, "The brand of the product") || !strings.Contains(v60, "The brand of the product") {
		t.Error("the v6.1 schema must have no field descriptions, v6.0's must")
	}
}

// TestV61Nulls: null text is "<NA>" (pandas.NA, as endpoints reads its
// parquet), a null list "null" and a null element null.
func TestV61Nulls(t *testing.T) {
	rows := rowsNamed(t, "t0", "t1", "t2")
	rows[0].Null = []string{synth.ColTitle, synth.ColDescription, synth.ColCategories}
	rows[1].Categories = nil // empty list
	rows[2].Categories = []string{"it's", "x"}
	dir := t.TempDir()
	writeShard(t, dir, "train-00000-of-00001.parquet", rows)
	d, err := Open([]string{dir}, Options{Splits: []string{"train"}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	want := []string{
		formatUserText("<NA>", "<NA>", "null"),
		formatUserText("t1", "", "[]"),
		formatUserText("t2", "", `["it's", "x"]`),
	}
	for i, w := range want {
		if got := d.UserTextV61(i); got != w {
			t.Errorf("UserTextV61(%d) = %q, want %q", i, got, w)
		}
	}
	if got := string(appendPyJSONList(nil, []string{"a'", "", "a'"}, []int32{1})); got != `["a'", null, "a'"]` {
		t.Errorf("null element: %s", got)
	}
}

// TestPyJSONDumps compares with Python 3.11's json.dumps of the same lists.
func TestPyJSONDumps(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{[]string{"it's", "x"}, `["it's", "x"]`},
		{nil, `[]`},
		{
			[]string{"Kids' \"Dress-Up\"", "Path\\With > Odd\nNewline", "tab\there", "\b\f\r\x00\x1f\x7f", "é中🎒\u2028", "<&>/"},
			`["Kids' \"Dress-Up\"", "Path\\With > Odd\nNewline", "tab\there", "\b\f\r\u0000\u001f\u007f", "\u00e9\u4e2d\ud83c\udf92\u2028", "<&>/"]`,
		},
		{[]string{"x\xffy"}, `["x\udcffy"]`}, // surrogateescape
	} {
		if got := string(appendPyJSONList(nil, tc.in, nil)); got != tc.want {
			t.Errorf("json.dumps(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestV61Params: the fields after the messages in ChatCompletionRequest's
// order, numbers as msgspec writes them. The want strings are msgspec
// 0.20.0's encoding of a struct with endpoints' field order.
func TestV61Params(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	n7, k, seed := 7, -1, int64(42)
	for _, tc := range []struct {
		q    RequestV61
		want string
	}{
		{RequestV61{Stream: true, Params: ParamsV61{
			Temperature: f(0), MaxCompletionTokens: &n7, Seed: &seed, TopP: f(1), TopK: &k,
			RepetitionPenalty: f(1.05), PresencePenalty: f(1e-6), FrequencyPenalty: f(-0.5),
		}}, `,"temperature":0.0,"max_completion_tokens":7,"stream":true,"seed":42,"top_p":1.0,"top_k":-1,"repetition_penalty":1.05,"presence_penalty":1e-6,"frequency_penalty":-0.5}`},
		{RequestV61{Params: ParamsV61{TopP: f(0.00001), FrequencyPenalty: f(1e16)}}, `,"top_p":0.00001,"frequency_penalty":1e16}`},
		{RequestV61{}, `}`},
	} {
		got, err := tc.q.appendParams(nil)
		if err != nil || string(got) != tc.want {
			t.Errorf("%+v: %s, %v; want %s", tc.q.Params, got, err, tc.want)
		}
	}
	if _, err := (RequestV61{Params: ParamsV61{Temperature: f(math.NaN())}}).appendParams(nil); err == nil {
		t.Error("NaN temperature accepted")
	}
}

func TestV61BadUserText(t *testing.T) {
	if _, err := (RequestV61{}).AppendBody(nil, "not the template", "PNG", nil); err == nil {
		t.Error("a user text outside the template was accepted")
	}
}

// FuzzV61Body: for any title, description and categories (valid
// UTF-8, as the reader guarantees), the body is valid JSON whose user text
// decodes to UserTextV61's, whose category list decodes back to the
// categories, and which begins with the shared prefix.
func FuzzV61Body(f *testing.F) {
	f.Add("Polo", "100% cotton\n", "A > B", "Kids' \"x\"", []byte{1, 2, 3})
	f.Add("", "<script>'a\\\\b'</script>\t", "é🎒\u2028", "\x00\x1f\x7f\b\f", []byte{})
	f.Fuzz(func(t *testing.T, title, desc, cat1, cat2 string, img []byte) {
		if !utf8.ValidString(title) || !utf8.ValidString(desc) || !utf8.ValidString(cat1) || !utf8.ValidString(cat2) {
			t.Skip()
		}
		cats := []string{cat1, cat2}
		text := formatUserText(title, desc, string(appendPyJSONList(nil, cats, nil)))
		q := RequestV61{Model: "m\"", Params: DefaultParamsV61(), Stream: true}
		body, err := q.AppendBody(nil, text, "PNG", img)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(body, q.Prefix()) {
			t.Fatal("body does not begin with the prefix")
		}
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
			MaxCompletionTokens int  `json:"max_completion_tokens"`
			Stream              bool `json:"stream"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatalf("invalid JSON: %v\n%s", err, body)
		}
		var parts []struct {
			Text     string `json:"text"`
			ImageURL struct {
				URL string `json:"url"`
			} `json:"image_url"`
		}
		if err := json.Unmarshal(req.Messages[1].Content, &parts); err != nil || len(parts) != 2 {
			t.Fatalf("user content: %v", err)
		}
		if parts[0].Text != text || req.Model != "m\"" || req.MaxCompletionTokens != 150 || !req.Stream {
			t.Fatalf("decoded text %q model %q max %d stream %v", parts[0].Text, req.Model, req.MaxCompletionTokens, req.Stream)
		}
		if want := "data:image/PNG;base64," + base64.StdEncoding.EncodeToString(img); parts[0].Text == "" || parts[1].ImageURL.URL != want {
			t.Fatalf("image URL %.60q", parts[1].ImageURL.URL)
		}
		_, after, _ := strings.Cut(text, "```json\n")
		list, _, _ := strings.Cut(after, "\n```\n")
		var back []string
		if err := json.Unmarshal([]byte(list), &back); err != nil || len(back) != 2 || back[0] != cat1 || back[1] != cat2 {
			t.Fatalf("categories %q decode to %q, %v", list, back, err)
		}
	})
}
