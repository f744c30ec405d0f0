package sglang

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jsonref"
	"github.com/mlperf-go/mlperf-go/protocol/internal/prototest"
)

func TestEncode(t *testing.T) {
	body, err := Encode([]int32{200006, 17360}, referenceParams(), false)
	if err != nil {
		t.Fatal(err)
	}
	// sglang_backend.py payload with generation_config.json values.
	want := map[string]any{
		"input_ids":       []any{200006.0, 17360.0},
		"sampling_params": map[string]any{"max_new_tokens": 32768.0, "temperature": 1.0, "top_k": -1.0, "top_p": 1.0},
	}
	if d := cmp.Diff(want, prototest.DecodeMap(t, body)); d != "" {
		t.Errorf("body (-want +got):\n%s", d)
	}
	body, err = Encode([]int{5}, Params{MaxNewTokens: ptr(10), Stop: []string{"<|end|>"}, IgnoreEOS: ptr(false)}, true)
	if err != nil {
		t.Fatal(err)
	}
	want = map[string]any{
		"input_ids":       []any{5.0},
		"sampling_params": map[string]any{"max_new_tokens": 10.0, "stop": []any{"<|end|>"}, "ignore_eos": false},
		"stream":          true,
	}
	if d := cmp.Diff(want, prototest.DecodeMap(t, body)); d != "" {
		t.Errorf("streaming body (-want +got):\n%s", d)
	}
}

func refSGLang(b []byte) (ids []byte, n int, have bool, c chunk, err error) {
	v, ok := jsonref.Decode(b)
	if !ok {
		return nil, 0, false, c, jsonref.Err
	}
	m, err := jsonref.Obj(v)
	if err != nil {
		return nil, 0, false, c, err
	}
	if o, has := m["output_ids"]; has && o != nil {
		have, c.hasIDs = true, true
		if ids, n, err = jsonref.IDs(o); err != nil {
			return nil, 0, false, c, err
		}
	}
	t, has := m["text"]
	s, err := jsonref.Str(t, has)
	if err != nil {
		return nil, 0, false, c, err
	}
	c.textRunes = utf8.RuneCountInString(s)
	if f, has := m["finished"]; has && f == true {
		c.finished = true
	}
	if mi, has := m["meta_info"]; has && mi != nil {
		mo, ok := mi.(map[string]any)
		if !ok {
			return nil, 0, false, c, jsonref.Err
		}
		if ct, has := mo["completion_tokens"]; has && ct != nil {
			if c.completionTokens, err = jsonref.Int(ct, 64); err != nil {
				return nil, 0, false, c, err
			}
		}
		if fr, has := mo["finish_reason"]; has && fr != nil && fr != "null" {
			c.finished = true
			if fo, ok := fr.(map[string]any); ok && fo["type"] == "abort" {
				c.aborted = true
			}
		}
	}
	return ids, n, have, c, nil
}

var sglangSeeds = []string{
	`{"text":"Hello","output_ids":[200005,35644,200008],"meta_info":{"id":"a","finish_reason":{"type":"length","length":3},"prompt_tokens":5,"completion_tokens":3,"cached_tokens":0,"e2e_latency":0.5}}`,
	`{"text":"\u00e9t\u00e9","output_ids":[1,2],"meta_info":{"finish_reason":null,"completion_tokens":2}}`,
	`{"output_ids":[1],"meta_info":{"finish_reason":"null","completion_tokens":null},"finished":true}`,
	`{"output_ids":null,"meta_info":null,"text":null}`,
	`{"error":{"message":"x"}}`,
	`{"output_ids":[1,"2"]}`,
	`{"output_ids":[1],"meta_info":{"finish_reason":{"type":"abort","message":"Aborted","status_code":null},"completion_tokens":1}}`,
	`{"output_ids":[1],"meta_info":{"finish_reason":{"type":"abort","type":"stop","message":3}}}`,
	`{"output_ids":[1],"meta_info":{"finish_reason":{"type":7,"message":"x"}}}`,
}

func FuzzParseSGLang(f *testing.F) {
	for _, s := range sglangSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		wids, wn, whave, wc, werr := refSGLang(b)
		c, err := parseChunk(nil, b)
		if jsonref.CheckErr(t, b, err, werr) {
			var got []byte
			for _, id := range c.ids {
				got = binary.LittleEndian.AppendUint32(got, uint32(id))
			}
			c.ids = nil
			if !bytes.Equal(got, wids) || c.completionTokens != wc.completionTokens || c.finished != wc.finished || c.textRunes != wc.textRunes ||
				c.hasIDs != wc.hasIDs || c.aborted != wc.aborted {
				t.Fatalf("chunk %q: got (%x, %+v), want (%x, %+v)", b, got, c, wids, wc)
			}
		}
		got, n, err := parseResponse(nil, b)
		if werr == nil && (!whave || wc.aborted) {
			werr = jsonref.Err
		}
		if jsonref.CheckErr(t, b, err, werr) && (!bytes.Equal(got, wids) || n != int64(wn)) {
			t.Fatalf("body %q: got (%x, %d), want (%x, %d)", b, got, n, wids, wn)
		}
	})
}

// sglangParse is parseChunk's result in comparable form.
type sglangParse struct {
	IDs       []int32
	CT        int64
	Finished  bool
	TextRunes int
	Err       bool
}

func parseWith(pf *idPrefix, b []byte) sglangParse {
	c, err := parseChunk(pf, b)
	return sglangParse{append([]int32{}, c.ids...), c.completionTokens, c.finished, c.textRunes, err != nil}
}

// TestSGLangPrefix: a chunk parsed after another (reusing its IDs when
// the arrays share a prefix) reads exactly as when parsed alone.
func TestSGLangPrefix(t *testing.T) {
	for _, tc := range []struct{ name, prev, next string }{
		{"cumulative", `{"output_ids":[1,2,3]}`, `{"output_ids":[1,2,3,4]}`},
		{"same", `{"output_ids":[1,2,3]}`, `{"output_ids":[1,2,3]}`},
		{"longer last element", `{"output_ids":[1,2,3]}`, `{"output_ids":[1,2,35]}`},
		{"negative", `{"output_ids":[1,-2]}`, `{"output_ids":[1,-2,-3]}`},
		{"spaces", `{"output_ids":[1, 2]}`, `{"output_ids":[1, 2 , 3 ]}`},
		{"fraction after prefix", `{"output_ids":[1,2]}`, `{"output_ids":[1,2.5]}`},
		{"bad after prefix", `{"output_ids":[1,2]}`, `{"output_ids":[1,2,,3]}`},
		{"garbage after prefix", `{"output_ids":[1,2]}`, `{"output_ids":[1,2 3]}`},
		{"exponent after prefix", `{"output_ids":[1,2]}`, `{"output_ids":[1,2e3]}`},
		{"out of range after prefix", `{"output_ids":[1,2]}`, `{"output_ids":[1,2,2147483648]}`},
		{"incremental", `{"output_ids":[1,2]}`, `{"output_ids":[3]}`},
		{"prefix cut", `{"output_ids":[1,2]}`, `{"output_ids":[1,2`},
		{"after null", `{"output_ids":null}`, `{"output_ids":[1]}`},
		{"after empty", `{"output_ids":[]}`, `{"output_ids":[]}`},
		{"after general path", `{"output_ids":[1,2.0]}`, `{"output_ids":[1,2.0,3]}`},
		{"duplicate keys", `{"output_ids":[7]}`, `{"output_ids":[7,8],"output_ids":[7,8,9]}`},
		{"previous failed", `{"output_ids":[1,"x"]}`, `{"output_ids":[1,2]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pf := &idPrefix{}
			parseWith(pf, []byte(tc.prev))
			got := parseWith(pf, []byte(tc.next))
			want := parseWith(nil, []byte(tc.next))
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("after %s (-alone +after):\n%s", tc.prev, d)
			}
		})
	}
}

// FuzzSGLangPrefix: a chunk whose array starts like the previous one's
// (the case the prefix reuse is for, and any corruption after it) reads
// as when parsed alone.
func FuzzSGLangPrefix(f *testing.F) {
	f.Add("1,2,3", ",4]}")
	f.Add("1,2,3", ".5]}")
	f.Add("10, 20", " ,30 ],\"meta_info\":{\"completion_tokens\":3}}")
	f.Add("1", "]}")
	f.Add("-0", ",-1]}")
	f.Fuzz(func(t *testing.T, ids, tail string) {
		prev := []byte(`{"output_ids":[` + ids + `]}`)
		next := []byte(`{"output_ids":[` + ids + tail)
		pf := &idPrefix{}
		parseWith(pf, prev)
		got := parseWith(pf, next)
		if want := parseWith(nil, next); !cmp.Equal(want, got) {
			t.Fatalf("%q after %q: got %+v, alone %+v", next, prev, got, want)
		}
	})
}

// TestParseErrors pins the messages users see.
func TestParseErrors(t *testing.T) {
	for body, want := range map[string]string{
		`{"output_ids":[1,2`:                    "malformed JSON at byte",
		`{"error":{"message":"out of memory"}}`: "out of memory",
		`{"text":"x"}`:                          "no output_ids",
	} {
		_, _, err := Protocol.DecodeResponse(nil, []byte(body))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to mention %q", body, err, want)
		}
	}
}

// TestStreamEvents: through the protocol.Stream interface, the first
// chunk with tokens reports its first ID only, a finish reason ends the
// response, and Reset starts over (its ID prefix too).
func TestStreamEvents(t *testing.T) {
	st := Protocol.NewStream()
	for range 2 {
		out, evs := prototest.Feed(t, st, []string{
			`{"text":"","output_ids":[],"meta_info":{"completion_tokens":0,"finish_reason":null}}`,
			`{"text":"ab","output_ids":[5,6],"meta_info":{"completion_tokens":2,"finish_reason":null}}`,
			`{"text":"abc","output_ids":[5,6,7],"meta_info":{"completion_tokens":3,"finish_reason":{"type":"length"}}}`,
		})
		want := []protocol.Event{{}, {First: true, FirstData: prototest.LE32(5), FirstTokens: 1}, {Done: true}}
		if d := cmp.Diff(want, evs, cmp.Comparer(bytes.Equal)); d != "" || !bytes.Equal(out, prototest.LE32(5, 6, 7)) || st.Tokens() != 3 {
			t.Errorf("out %x tokens %d; events (-want +got):\n%s", out, st.Tokens(), d)
		}
	}
}

// TestSGLangStreamAccounting checks the reference's token accounting
// rules chunk by chunk (sglang_backend.py generate_stream).
func TestSGLangStreamAccounting(t *testing.T) {
	type step struct {
		chunk     string
		wantIDs   []int
		wantFirst bool
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"cumulative", []step{
			{`{"output_ids":[5],"meta_info":{"completion_tokens":1}}`, []int{5}, true},
			{`{"output_ids":[5,6,7],"meta_info":{"completion_tokens":3}}`, []int{5, 6, 7}, false},
		}},
		{"incremental", []step{
			{`{"output_ids":[5,6],"meta_info":{"completion_tokens":2}}`, []int{5, 6}, true},
			{`{"output_ids":[7],"meta_info":{"completion_tokens":3}}`, []int{5, 6, 7}, false},
		}},
		{"retraction keeps the count", []step{
			{`{"output_ids":[5,6,7],"meta_info":{"completion_tokens":3}}`, []int{5, 6, 7}, true},
			{`{"output_ids":[5,6],"meta_info":{"completion_tokens":3}}`, []int{5, 6, 7}, false},
		}},
		{"fewer ids than new tokens: placeholders", []step{
			{`{"output_ids":[9],"meta_info":{"completion_tokens":3}}`, []int{0, 1, 2}, true},
		}},
		{"no completion_tokens: ids are a delta", []step{
			{`{"output_ids":[4,4]}`, []int{4, 4}, true},
			{`{"output_ids":[8],"meta_info":{"completion_tokens":null}}`, []int{4, 4, 8}, false},
		}},
		{"text only: len/4 zeros", []step{
			{`{"text":"","meta_info":{}}`, nil, false},
			{`{"text":"abcdefghi"}`, []int{0, 0}, true},
			{`{"text":"é"}`, []int{0, 0, 0}, false},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var st stream
			var acc []byte
			for k, s := range tc.steps {
				c, err := parseChunk(nil, []byte(s.chunk))
				if err != nil {
					t.Fatal(err)
				}
				var first bool
				acc, first = st.add(acc, c)
				if d := cmp.Diff(prototest.LE32(s.wantIDs...), acc); d != "" || st.n != len(s.wantIDs) || first != s.wantFirst {
					t.Errorf("step %d: n=%d first=%v (want %v); ids (-want +got):\n%s", k, st.n, first, s.wantFirst, d)
				}
			}
		})
	}
}

// sglangChunk1000 is one cumulative chunk 1,000 tokens into a stream.
func sglangChunk1000() []byte {
	ij, _ := json.Marshal(prototest.BenchIDs(1000))
	return []byte(fmt.Sprintf(`{"text":"%s","output_ids":%s,"meta_info":{"id":"5b1f","finish_reason":null,"prompt_tokens":800,"completion_tokens":1000,"cached_tokens":0}}`, strings.Repeat("ab", 1000), ij))
}

func BenchmarkParseSGLangChunk(b *testing.B) {
	body := sglangChunk1000()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	pf := &idPrefix{}
	for b.Loop() {
		pf.raw, pf.ids = pf.raw[:0], pf.ids[:0] // no prefix: parse all 1,000 IDs
		if _, err := parseChunk(pf, body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseSGLangChunkCumulative is the same chunk in its stream:
// the previous chunk carried the first 999 IDs.
func BenchmarkParseSGLangChunkCumulative(b *testing.B) {
	ids := prototest.BenchIDs(1000)
	prev, _ := json.Marshal(ids[:999])
	body := sglangChunk1000()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	pf := &idPrefix{}
	prevChunk := []byte(fmt.Sprintf(`{"output_ids":%s,"meta_info":{"completion_tokens":999}}`, prev))
	for b.Loop() {
		b.StopTimer()
		if _, err := parseChunk(pf, prevChunk); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		c, err := parseChunk(pf, body)
		if err != nil || len(c.ids) != 1000 {
			b.Fatal(err, len(c.ids))
		}
	}
}

func BenchmarkParseSGLangChunkEncodingJSON(b *testing.B) {
	body := sglangChunk1000()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var r struct {
			Text      string  `json:"text"`
			OutputIDs []int32 `json:"output_ids"`
			MetaInfo  struct {
				CompletionTokens int64           `json:"completion_tokens"`
				FinishReason     json.RawMessage `json:"finish_reason"`
			} `json:"meta_info"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			b.Fatal(err)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// referenceParams are the gpt-oss-120b reference's generation_config.json
// values, which that benchmark registers as its default sampling:
// max_new_tokens 32768, temperature 1.0, top_k -1 (disabled), top_p 1.0.
func referenceParams() Params {
	return Params{MaxNewTokens: ptr(32768), Temperature: ptr(1.0), TopK: ptr(-1), TopP: ptr(1.0)}
}
