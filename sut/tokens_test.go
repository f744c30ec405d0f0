package sut

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/protocol/openaicompletions"
	"github.com/mlperf-go/mlperf-go/protocol/sglang"
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
				if bodies[i], err = openaicompletions.Encode("m", promptFor(i), llamaParams(), stream); err != nil {
					t.Fatal(err)
				}
			}
			reqs := make(chan map[string]any, n)
			srv := serve(t, completionsServer(reqs))
			p, rec := newPool(t, Config{Endpoints: []string{srv.URL}, API: openaicompletions.Protocol, Stream: stream, Bodies: bodies})
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
				if bodies[i], err = sglang.Encode(promptFor(i), gptossParams(), tc.stream); err != nil {
					t.Fatal(err)
				}
			}
			srv := serve(t, sglangServer(tc.cumulative))
			p, rec := newPool(t, Config{Endpoints: []string{srv.URL + "/v1"}, API: sglang.Protocol, Stream: tc.stream, Bodies: bodies})
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
