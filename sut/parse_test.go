package sut

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// The fuzz targets check that the hand-written parsers never panic,
// reject every body encoding/json rejects, and on valid JSON agree with an
// independent interpretation built on encoding/json (a generic decode into
// any, navigated by the rules each parser documents).

var errRef = errors.New("reference: error expected")

// refDecode decodes with encoding/json, keeping numbers exact.
func refDecode(b []byte) (any, bool) {
	if !json.Valid(b) {
		return nil, false
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

func refInt(v any, bits int) (int64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, errRef
	}
	i, err := strconv.ParseInt(string(n), 10, bits)
	if err != nil {
		return 0, errRef
	}
	return i, nil
}

func refIDs(v any) ([]byte, int, error) {
	if v == nil {
		return nil, 0, nil
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, 0, errRef
	}
	var out []byte
	for _, x := range arr {
		i, err := refInt(x, 32)
		if err != nil {
			return nil, 0, err
		}
		out = binary.LittleEndian.AppendUint32(out, uint32(int32(i)))
	}
	return out, len(arr), nil
}

func refObj(v any) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errRef
	}
	if e, has := m["error"]; has && e != nil {
		return nil, errRef
	}
	return m, nil
}

// refFirst returns choices[0] as an object; ok=false when there is none.
func refFirst(m map[string]any, nullOK bool) (map[string]any, bool, error) {
	c, has := m["choices"]
	if !has || (c == nil && nullOK) {
		return nil, false, nil
	}
	arr, isArr := c.([]any)
	if !isArr {
		return nil, false, errRef
	}
	if len(arr) == 0 {
		return nil, false, nil
	}
	o, isObj := arr[0].(map[string]any)
	if !isObj {
		return nil, false, errRef
	}
	return o, true, nil
}

func refStr(v any, has bool) (string, error) {
	if !has || v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", errRef
	}
	return s, nil
}

// refUsage returns usage.completion_tokens.
func refUsage(m map[string]any) (int64, bool, error) {
	u, has := m["usage"]
	if !has || u == nil {
		return 0, false, nil
	}
	uo, ok := u.(map[string]any)
	if !ok {
		return 0, false, errRef
	}
	ct, has := uo["completion_tokens"]
	if !has || ct == nil {
		return 0, false, nil
	}
	i, err := refInt(ct, 64)
	return i, err == nil, err
}

func refChat(b []byte, chunk bool) (content string, tokens int64, hasUsage bool, err error) {
	v, ok := refDecode(b)
	if !ok {
		return "", 0, false, errRef
	}
	m, err := refObj(v)
	if err != nil {
		return "", 0, false, err
	}
	key := "message"
	if chunk {
		key = "delta"
	}
	c0, have, err := refFirst(m, chunk)
	if err != nil {
		return "", 0, false, err
	}
	if have {
		msg, has := c0[key]
		if has && !(chunk && msg == nil) {
			mo, ok := msg.(map[string]any)
			if !ok {
				return "", 0, false, errRef
			}
			c, has := mo["content"]
			if content, err = refStr(c, has); err != nil {
				return "", 0, false, err
			}
		}
	}
	tokens, hasUsage, err = refUsage(m)
	if err != nil {
		return "", 0, false, err
	}
	if !chunk && (!have || !hasUsage) {
		return "", 0, false, errRef
	}
	return content, tokens, hasUsage, nil
}

func checkErr(t *testing.T, b []byte, got, want error) bool {
	t.Helper()
	if (got == nil) != (want == nil) {
		t.Fatalf("body %q: parser error %v, reference error %v", b, got, want)
	}
	return got == nil
}

var chatSeeds = []string{
	`{"id":"c","choices":[{"index":0,"message":{"role":"assistant","content":"{\"category\": \"A \u003e B\", \"brand\": \"x\\\\y\"}\n\u00e9\ud83d\ude00","tool_calls":[]},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":17,"prompt_tokens_details":null}}`,
	`{"choices":[{"message":{"content":null}}],"usage":{"completion_tokens":0}}`,
	`{"choices":[],"usage":{"completion_tokens":1}}`,
	`{"error":{"message":"x","code":400}}`,
	`{"choices":[{"message":{"content":"\ud800x"}}],"usage":{"completion_tokens":1e2}}`,
	"{\"choices\":[{\"message\":{\"content\":\"\xff\"}}],\"usage\":{\"completion_tokens\":-0}}",
	`[1,2]`, ``, `{"choices":[{"message":{"content":"a"}},3],"usage":{"completion_tokens":9223372036854775808}}`,
}

func FuzzParseChat(f *testing.F) {
	for _, s := range chatSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, tokens, err := parseChat([]byte("prefix"), b)
		wc, wt, _, werr := refChat(b, false)
		if checkErr(t, b, err, werr) && (string(got) != "prefix"+wc || tokens != wt) {
			t.Fatalf("body %q: got (%q, %d), want (%q, %d)", b, got, tokens, wc, wt)
		}
	})
}

var chatChunkSeeds = []string{
	`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"usage":null}`,
	`{"choices":[{"delta":{"content":"Gr\u00f6\u00dfe \"1\""}}]}`,
	`{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":12}}`,
	`{"choices":null,"usage":{"completion_tokens":null}}`,
	`{"choices":[{"delta":null}]}`,
	`{"error":{"message":"boom"}}`,
}

func FuzzParseChatChunk(f *testing.F) {
	for _, s := range chatChunkSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, c, err := parseChatChunk(nil, b)
		wc, wt, wu, werr := refChat(b, true)
		if checkErr(t, b, err, werr) && (string(got) != wc || c.tokens != wt || c.hasUsage != wu) {
			t.Fatalf("body %q: got (%q, %+v), want (%q, %d, %v)", b, got, c, wc, wt, wu)
		}
	})
}

func refCompletion(b []byte) ([]byte, int, bool, error) {
	v, ok := refDecode(b)
	if !ok {
		return nil, 0, false, errRef
	}
	m, err := refObj(v)
	if err != nil {
		return nil, 0, false, err
	}
	c0, have, err := refFirst(m, true)
	if err != nil || !have {
		return nil, 0, false, err
	}
	ids, has := c0["token_ids"]
	if !has || ids == nil {
		return nil, 0, false, nil
	}
	out, n, err := refIDs(ids)
	return out, n, err == nil, err
}

var completionSeeds = []string{
	`{"id":"cmpl-1","object":"text_completion","choices":[{"index":0,"text":"x","logprobs":null,"finish_reason":"length","token_ids":[791,4062,-1,2147483647],"prompt_token_ids":[128000,1,2]}],"usage":{"completion_tokens":4}}`,
	`{"choices":[{"index":0,"text":"t","token_ids":[12]}],"usage":null}`,
	`{"choices":[{"token_ids":null}]}`,
	`{"choices":[{"token_ids":[2147483648]}]}`,
	`{"choices":[],"usage":{"completion_tokens":3}}`,
	`{"choices":[{"token_ids":[1.5]}]}`,
}

func FuzzParseCompletion(f *testing.F) {
	for _, s := range completionSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want, wn, whave, werr := refCompletion(b)
		got, n, err := parseCompletionChunk(nil, b)
		if checkErr(t, b, err, werr) && (!bytes.Equal(got, want) || n != wn) {
			t.Fatalf("chunk %q: got (%x, %d), want (%x, %d)", b, got, n, want, wn)
		}
		got, n64, err := parseCompletion(nil, b)
		if werr == nil && !whave {
			werr = errRef
		}
		if checkErr(t, b, err, werr) && (!bytes.Equal(got, want) || n64 != int64(wn)) {
			t.Fatalf("body %q: got (%x, %d), want (%x, %d)", b, got, n64, want, wn)
		}
	})
}

func refSGLang(b []byte) (ids []byte, n int, have bool, c sglangChunk, err error) {
	v, ok := refDecode(b)
	if !ok {
		return nil, 0, false, c, errRef
	}
	m, err := refObj(v)
	if err != nil {
		return nil, 0, false, c, err
	}
	if o, has := m["output_ids"]; has && o != nil {
		have = true
		if ids, n, err = refIDs(o); err != nil {
			return nil, 0, false, c, err
		}
	}
	t, has := m["text"]
	s, err := refStr(t, has)
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
			return nil, 0, false, c, errRef
		}
		if ct, has := mo["completion_tokens"]; has && ct != nil {
			if c.completionTokens, err = refInt(ct, 64); err != nil {
				return nil, 0, false, c, err
			}
		}
		if fr, has := mo["finish_reason"]; has && fr != nil && fr != "null" {
			c.finished = true
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
}

func FuzzParseSGLang(f *testing.F) {
	for _, s := range sglangSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		wids, wn, whave, wc, werr := refSGLang(b)
		c, err := parseSGLangChunk(nil, b)
		if checkErr(t, b, err, werr) {
			var got []byte
			for _, id := range c.ids {
				got = binary.LittleEndian.AppendUint32(got, uint32(id))
			}
			c.ids = nil
			if !bytes.Equal(got, wids) || c.completionTokens != wc.completionTokens || c.finished != wc.finished || c.textRunes != wc.textRunes {
				t.Fatalf("chunk %q: got (%x, %+v), want (%x, %+v)", b, got, c, wids, wc)
			}
		}
		got, n, err := parseSGLang(nil, b)
		if werr == nil && !whave {
			werr = errRef
		}
		if checkErr(t, b, err, werr) && (!bytes.Equal(got, wids) || n != int64(wn)) {
			t.Fatalf("body %q: got (%x, %d), want (%x, %d)", b, got, n, wids, wn)
		}
	})
}

// FuzzSSEReader checks the event reader against a plain line split, with a
// tiny buffer so long lines take the reassembly path.
func FuzzSSEReader(f *testing.F) {
	f.Add([]byte("data: {\"a\":1}\n\ndata: [DONE]\n\n"))
	f.Add([]byte(": comment\r\nevent: x\r\ndata:{\"b\":2}\r\n\r\ndata: partial"))
	f.Add([]byte("data: " + strings.Repeat("x", 100) + "\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var want [][]byte
		for _, line := range bytes.Split(b, []byte("\n")) {
			if p, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("data:")); ok {
				want = append(want, bytes.TrimSpace(p))
			}
		}
		r := sseReader{r: bufio.NewReaderSize(bytes.NewReader(b), 16)}
		var got [][]byte
		for {
			d, err := r.next()
			if err != nil {
				break
			}
			got = append(got, append([]byte(nil), d...))
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("stream %q (-want +got):\n%s", b, d)
		}
	})
}

// TestParseErrors pins the messages users see.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		fn   func([]byte) error
		body string
		want string
	}{
		{"chat no usage", func(b []byte) error { _, _, err := parseChat(nil, b); return err }, `{"choices":[{"message":{"content":"x"}}]}`, "no usage.completion_tokens"},
		{"completions without return_token_ids", func(b []byte) error { _, _, err := parseCompletion(nil, b); return err }, `{"choices":[{"text":"x"}]}`, "return_token_ids"},
		{"truncated", func(b []byte) error { _, _, err := parseSGLang(nil, b); return err }, `{"output_ids":[1,2`, "malformed JSON at byte"},
		{"server error", func(b []byte) error { _, _, err := parseSGLang(nil, b); return err }, `{"error":{"message":"out of memory"}}`, "out of memory"},
	} {
		err := tc.fn([]byte(tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}

// sglangParse is parseSGLangChunk's result in comparable form.
type sglangParse struct {
	IDs       []int32
	CT        int64
	Finished  bool
	TextRunes int
	Err       bool
}

func parseWith(pf *idPrefix, b []byte) sglangParse {
	c, err := parseSGLangChunk(pf, b)
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
