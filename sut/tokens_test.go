package sut

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// outputFor is the fake model: a deterministic output for a prompt,
// 2..8 tokens long, some IDs above 2^16 to exercise all int32 bytes.
func outputFor(prompt []int) []int {
	sum := 0
	for _, v := range prompt {
		sum += v
	}
	out := make([]int, len(prompt)%7+2)
	for k := range out {
		out[k] = (sum*31+k*100003)%200000 + 1
	}
	return out
}

func le32(ids []int) []byte {
	var b []byte
	for _, v := range ids {
		b = binary.LittleEndian.AppendUint32(b, uint32(int32(v)))
	}
	return b
}

func promptFor(i int) []int32 {
	p := make([]int32, i%13+1)
	for k := range p {
		p[k] = int32(128000 + i*7 + k)
	}
	return p
}

func asInts(v any) []int {
	a, _ := v.([]any)
	out := make([]int, len(a))
	for i, x := range a {
		f, _ := x.(float64)
		out[i] = int(f)
	}
	return out
}

func TestEncodeCompletion(t *testing.T) {
	body, err := EncodeCompletion("meta-llama/Llama-3.1-8B-Instruct", []int32{128000, 791, 4062}, DefaultCompletionParams(), false)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"model":  "meta-llama/Llama-3.1-8B-Instruct",
		"prompt": []any{128000.0, 791.0, 4062.0},
		// SUT_VLLM.py gen_kwargs.
		"temperature": 0.0, "top_p": 1.0, "top_k": 1.0, "seed": 42.0, "max_tokens": 128.0, "min_tokens": 1.0,
		"return_token_ids": true,
	}
	if d := cmp.Diff(want, decodeMap(t, body)); d != "" {
		t.Errorf("body (-want +got):\n%s", d)
	}
	body, err = EncodeCompletion("", []int64{1}, CompletionParams{MaxTokens: ptr(5)}, true)
	if err != nil {
		t.Fatal(err)
	}
	want = map[string]any{"prompt": []any{1.0}, "max_tokens": 5.0, "return_token_ids": true, "stream": true}
	if d := cmp.Diff(want, decodeMap(t, body)); d != "" {
		t.Errorf("streaming body (-want +got):\n%s", d)
	}
	if _, err := EncodeCompletion("m", []int{}, CompletionParams{}, false); err == nil {
		t.Error("empty prompt accepted")
	}
}

func TestEncodeSGLang(t *testing.T) {
	body, err := EncodeSGLang([]int32{200006, 17360}, DefaultSGLangParams(), false)
	if err != nil {
		t.Fatal(err)
	}
	// sglang_backend.py payload with generation_config.json values.
	want := map[string]any{
		"input_ids":       []any{200006.0, 17360.0},
		"sampling_params": map[string]any{"max_new_tokens": 32768.0, "temperature": 1.0, "top_k": -1.0, "top_p": 1.0},
	}
	if d := cmp.Diff(want, decodeMap(t, body)); d != "" {
		t.Errorf("body (-want +got):\n%s", d)
	}
	body, err = EncodeSGLang([]int{5}, SGLangParams{MaxNewTokens: ptr(10), Stop: []string{"<|end|>"}, IgnoreEOS: ptr(false)}, true)
	if err != nil {
		t.Fatal(err)
	}
	want = map[string]any{
		"input_ids":       []any{5.0},
		"sampling_params": map[string]any{"max_new_tokens": 10.0, "stop": []any{"<|end|>"}, "ignore_eos": false},
		"stream":          true,
	}
	if d := cmp.Diff(want, decodeMap(t, body)); d != "" {
		t.Errorf("streaming body (-want +got):\n%s", d)
	}
}

func TestDecodeGenerationConfig(t *testing.T) {
	// Shaped like the reference's generation_config.json: comment keys
	// (including a nested object) and the four sampling keys.
	cfg := []byte(`{
  "_comment": "Generation configuration",
  "max_new_tokens": 10240,
  "temperature": 0.001,
  "top_k": 1,
  "top_p": 1.0,
  "_parameter_descriptions": {"top_k": "Top-k sampling", "_x": {"y": 1}}
}`)
	p := DefaultSGLangParams()
	if err := DecodeGenerationConfig(cfg, &p); err != nil {
		t.Fatal(err)
	}
	want := SGLangParams{MaxNewTokens: ptr(10240), Temperature: ptr(0.001), TopK: ptr(1), TopP: ptr(1.0)}
	if d := cmp.Diff(want, p); d != "" {
		t.Errorf("params (-want +got):\n%s", d)
	}
	// Absent keys keep their defaults.
	c := DefaultCompletionParams()
	if err := DecodeGenerationConfig([]byte(`{"max_tokens": 64}`), &c); err != nil {
		t.Fatal(err)
	}
	wantC := DefaultCompletionParams()
	wantC.MaxTokens = ptr(64)
	if d := cmp.Diff(wantC, c); d != "" {
		t.Errorf("completion params (-want +got):\n%s", d)
	}
	for _, bad := range []string{`{"temprature": 1}`, `[1]`, `{"top_k": "one"}`} {
		var cp ChatParams
		if err := DecodeGenerationConfig([]byte(bad), &cp); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// completionsServer answers like vLLM with return_token_ids.
func completionsServer(reqs chan<- map[string]any) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/completions" {
			http.Error(w, "bad path "+r.URL.Path, http.StatusNotFound)
			return
		}
		b, _ := io.ReadAll(r.Body)
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if reqs != nil {
			reqs <- m
		}
		prompt := asInts(m["prompt"])
		out := outputFor(prompt)
		pj, _ := json.Marshal(prompt)
		if stream, _ := m["stream"].(bool); !stream {
			oj, _ := json.Marshal(out)
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"some \"text\"","logprobs":null,"finish_reason":"length","stop_reason":null,"token_ids":%s,"prompt_logprobs":null,"prompt_token_ids":%s}],"service_tier":null,"system_fingerprint":null,"usage":{"prompt_tokens":%d,"total_tokens":%d,"completion_tokens":%d,"prompt_tokens_details":null},"kv_transfer_params":null}`,
				oj, pj, len(prompt), len(prompt)+len(out), len(out))
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fl := w.(http.Flusher)
		for k, id := range out {
			extra := ""
			if k == 0 {
				extra = fmt.Sprintf(`,"prompt_token_ids":%s`, pj)
			}
			fin := "null"
			if k == len(out)-1 {
				fin = `"length"`
			}
			fmt.Fprintf(w, "data: {\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"text\":\"t\",\"logprobs\":null,\"finish_reason\":%s,\"stop_reason\":null%s,\"token_ids\":[%d]}],\"usage\":null}\n\n", fin, extra, id)
			fl.Flush()
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}
}

func TestPoolCompletions(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			const n = 30
			bodies := make(sliceBodies, n)
			for i := range bodies {
				var err error
				if bodies[i], err = EncodeCompletion("m", promptFor(i), DefaultCompletionParams(), stream); err != nil {
					t.Fatal(err)
				}
			}
			reqs := make(chan map[string]any, n)
			srv := serve(t, completionsServer(reqs))
			p, rec := newPool(t, Config{Endpoints: []string{srv.URL}, API: APICompletions, Stream: stream, Bodies: bodies})
			p.IssueQuery(samples(n))
			p.Close()
			firsts, finals, dups := rec.snapshot()
			if len(dups) > 0 || len(finals) != n {
				t.Fatalf("%d completions, problems %v", len(finals), dups)
			}
			for i, qs := range samples(n) {
				prompt := make([]int, 0)
				for _, v := range promptFor(i) {
					prompt = append(prompt, int(v))
				}
				out := outputFor(prompt)
				got := finals[qs.ID]
				if d := cmp.Diff(le32(out), got.Data); d != "" || got.NTokens != int64(len(out)) {
					t.Errorf("sample %d: NTokens %d want %d; data (-want +got):\n%s", i, got.NTokens, len(out), d)
				}
				if stream {
					f := firsts[qs.ID]
					if d := cmp.Diff(le32(out[:1]), f.Data); d != "" || f.NTokens != 1 {
						t.Errorf("sample %d first token %+v:\n%s", i, f, d)
					}
				}
			}
			close(reqs)
			for m := range reqs {
				if m["return_token_ids"] != true || m["max_tokens"] != 128.0 {
					t.Errorf("request %v", m)
				}
			}
		})
	}
}

// sglangServer answers like SGLang /generate. In cumulative mode every
// chunk carries all output_ids so far (SGLang's default); in incremental
// mode only the new ones (--stream-output). completion_tokens is always
// cumulative.
func sglangServer(cumulative bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/generate" {
			http.Error(w, "bad path "+r.URL.Path, http.StatusNotFound)
			return
		}
		b, _ := io.ReadAll(r.Body)
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		out := outputFor(asInts(m["input_ids"]))
		if stream, _ := m["stream"].(bool); !stream {
			oj, _ := json.Marshal(out)
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"text":"x","output_ids":%s,"meta_info":{"id":"abc","finish_reason":{"type":"length","length":%d},"prompt_tokens":3,"weight_version":"default","completion_tokens":%d,"cached_tokens":0,"e2e_latency":0.1}}`, oj, len(out), len(out))
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fl := w.(http.Flusher)
		for k := range out {
			ids := out[k : k+1]
			if cumulative {
				ids = out[:k+1]
			}
			ij, _ := json.Marshal(ids)
			fin := "null"
			if k == len(out)-1 {
				fin = fmt.Sprintf(`{"type":"length","length":%d}`, len(out))
			}
			fmt.Fprintf(w, "data: {\"text\":\"t%d\",\"output_ids\":%s,\"meta_info\":{\"id\":\"abc\",\"finish_reason\":%s,\"prompt_tokens\":3,\"completion_tokens\":%d,\"cached_tokens\":0}}\n\n", k, ij, fin, k+1)
			fl.Flush()
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}
}

func TestPoolSGLang(t *testing.T) {
	for _, tc := range []struct {
		stream, cumulative bool
	}{{false, false}, {true, true}, {true, false}} {
		t.Run(fmt.Sprintf("stream=%v/cumulative=%v", tc.stream, tc.cumulative), func(t *testing.T) {
			const n = 30
			bodies := make(sliceBodies, n)
			for i := range bodies {
				var err error
				if bodies[i], err = EncodeSGLang(promptFor(i), DefaultSGLangParams(), tc.stream); err != nil {
					t.Fatal(err)
				}
			}
			srv := serve(t, sglangServer(tc.cumulative))
			p, rec := newPool(t, Config{Endpoints: []string{srv.URL + "/v1"}, API: APISGLang, Stream: tc.stream, Bodies: bodies})
			p.IssueQuery(samples(n))
			p.Close()
			firsts, finals, dups := rec.snapshot()
			if len(dups) > 0 || len(finals) != n {
				t.Fatalf("%d completions, problems %v", len(finals), dups)
			}
			for i, qs := range samples(n) {
				var prompt []int
				for _, v := range promptFor(i) {
					prompt = append(prompt, int(v))
				}
				out := outputFor(prompt)
				got := finals[qs.ID]
				if d := cmp.Diff(le32(out), got.Data); d != "" || got.NTokens != int64(len(out)) {
					t.Errorf("sample %d: NTokens %d want %d; data (-want +got):\n%s", i, got.NTokens, len(out), d)
				}
				if tc.stream {
					f := firsts[qs.ID]
					if d := cmp.Diff(le32(out[:1]), f.Data); d != "" || f.NTokens != 1 {
						t.Errorf("sample %d first token %+v:\n%s", i, f, d)
					}
				}
			}
			if st := p.Stats(); st.Failed != 0 || st.OutputTokens == 0 {
				t.Errorf("stats %+v", st)
			}
		})
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
			var st sglangStream
			for k, s := range tc.steps {
				c, err := parseSGLangChunk(nil, []byte(s.chunk))
				if err != nil {
					t.Fatal(err)
				}
				first := st.add(c)
				if d := cmp.Diff(le32(s.wantIDs), st.acc); d != "" || st.n != len(s.wantIDs) || first != s.wantFirst {
					t.Errorf("step %d: n=%d first=%v (want %v); ids (-want +got):\n%s", k, st.n, first, s.wantFirst, d)
				}
			}
		})
	}
}
