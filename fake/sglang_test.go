package fake

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// sglangResult is what the reference's sglang_backend.py reads from a
// /generate response or stream chunk.
type sglangResult struct {
	Text      string         `json:"text"`
	OutputIDs []int32        `json:"output_ids"`
	MetaInfo  map[string]any `json:"meta_info"`
}

func TestGenerateNonStreaming(t *testing.T) {
	_, url := start(t, Config{OutputTokens: 7})
	prompt := []int32{200006, 17360, 200008, 3575}
	out := Tokens(prompt, 7)
	tests := []struct {
		name, body string
		ids        []int32
		finish     any
	}{
		{"natural stop", `{"input_ids":[200006,17360,200008,3575],"sampling_params":{"max_new_tokens":100,"temperature":0.001,"top_k":1,"top_p":1.0}}`,
			out, map[string]any{"type": "stop", "matched": float64(StopTokenID)}},
		{"capped", `{"input_ids":[200006,17360,200008,3575],"sampling_params":{"max_new_tokens":3}}`,
			out[:3], map[string]any{"type": "length", "length": 3.0}},
		{"equal to cap", `{"input_ids":[200006,17360,200008,3575],"sampling_params":{"max_new_tokens":7}}`,
			out, map[string]any{"type": "length", "length": 7.0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, ctype, body := post(t, http.DefaultClient, url+"/generate", tc.body)
			if code != 200 || ctype != "application/json" {
				t.Fatalf("status %d type %q: %s", code, ctype, body)
			}
			var got sglangResult
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatal(err)
			}
			if id, _ := got.MetaInfo["id"].(string); len(id) != 32 {
				t.Errorf("meta_info.id %q is not 32 hex digits", id)
			}
			if lat, ok := got.MetaInfo["e2e_latency"].(float64); !ok || lat < 0 {
				t.Errorf("e2e_latency = %v", got.MetaInfo["e2e_latency"])
			}
			want := sglangResult{
				Text:      wordsOf(tc.ids),
				OutputIDs: tc.ids,
				MetaInfo: map[string]any{
					"finish_reason": tc.finish, "prompt_tokens": 4.0, "weight_version": "default",
					"completion_tokens": float64(len(tc.ids)), "cached_tokens": 0.0,
				},
			}
			if diff := cmp.Diff(want, got, cmpopts.IgnoreMapEntries(func(k string, _ any) bool { return k == "id" || k == "e2e_latency" })); diff != "" {
				t.Errorf("/generate (-want +got):\n%s", diff)
			}
		})
	}

	// SGLang's default max_new_tokens is 128; a batch gives an array; a rid
	// is echoed.
	_, url = start(t, Config{OutputTokens: 500})
	_, _, body := post(t, http.DefaultClient, url+"/generate", `{"input_ids":[[1,2],[3]],"rid":["a","b"]}`)
	var batch []sglangResult
	if err := json.Unmarshal(body, &batch); err != nil || len(batch) != 2 {
		t.Fatalf("batch response %s: %v", body, err)
	}
	for i, p := range [][]int32{{1, 2}, {3}} {
		if !cmp.Equal(batch[i].OutputIDs, Tokens(p, 128)) || batch[i].MetaInfo["id"] != string(rune('a'+i)) {
			t.Errorf("batch item %d = %d tokens, id %v", i, len(batch[i].OutputIDs), batch[i].MetaInfo["id"])
		}
	}
}

func TestGenerateStreaming(t *testing.T) {
	prompt := []int32{9, 8, 7}
	out := Tokens(prompt, 6)
	for _, tc := range []struct {
		name        string
		incremental bool
		interval    int
		wantEnds    []int // token counts at which events go out
	}{
		{"cumulative", false, 1, []int{1, 2, 3, 4, 5, 6}},
		{"incremental", true, 1, []int{1, 2, 3, 4, 5, 6}},
		{"interval 4 like --stream-interval", false, 4, []int{1, 5, 6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, url := start(t, Config{OutputTokens: 6, IncrementalStream: tc.incremental, StreamInterval: tc.interval})
			code, ctype, body := post(t, http.DefaultClient, url+"/generate", `{"input_ids":[9,8,7],"sampling_params":{"max_new_tokens":10},"stream":true}`)
			if code != 200 || ctype != "text/event-stream" {
				t.Fatalf("status %d type %q", code, ctype)
			}
			events := sseEvents(t, body)
			if len(events) != len(tc.wantEnds) {
				t.Fatalf("%d events, want %d:\n%s", len(events), len(tc.wantEnds), body)
			}
			var acc []int32
			prev := 0
			var rid any
			for i, ev := range events {
				var r sglangResult
				if err := json.Unmarshal([]byte(ev), &r); err != nil {
					t.Fatalf("event %d: %v", i, err)
				}
				end := tc.wantEnds[i]
				from := 0
				if tc.incremental {
					from = prev
				}
				if !cmp.Equal(r.OutputIDs, out[from:end]) || r.Text != wordsOf(out[from:end]) {
					t.Errorf("event %d output_ids %v text %q, want %v", i, r.OutputIDs, r.Text, out[from:end])
				}
				if r.MetaInfo["completion_tokens"] != float64(end) {
					t.Errorf("event %d completion_tokens %v, want cumulative %d", i, r.MetaInfo["completion_tokens"], end)
				}
				final := i == len(events)-1
				if (r.MetaInfo["finish_reason"] != nil) != final {
					t.Errorf("event %d finish_reason %v", i, r.MetaInfo["finish_reason"])
				}
				if _, has := r.MetaInfo["e2e_latency"]; has != final {
					t.Errorf("event %d has e2e_latency = %v", i, has)
				}
				if i == 0 {
					rid = r.MetaInfo["id"]
				} else if r.MetaInfo["id"] != rid {
					t.Errorf("event %d id %v, first was %v", i, r.MetaInfo["id"], rid)
				}
				// The reference client's delta logic: the last
				// (completion_tokens - seen) output_ids are new.
				acc = append(acc, r.OutputIDs[len(r.OutputIDs)-(end-prev):]...)
				prev = end
			}
			if !cmp.Equal(acc, out) {
				t.Errorf("reassembled %v, want %v", acc, out)
			}
			last := events[len(events)-1]
			if !strings.Contains(last, `"finish_reason":{"type":"stop","matched":200002}`) {
				t.Errorf("last event %s lacks the stop finish_reason", last)
			}
		})
	}
}

func TestGenerateZeroTokens(t *testing.T) {
	_, url := start(t, Config{})
	for _, stream := range []bool{false, true} {
		body := `{"input_ids":[1,2],"sampling_params":{"max_new_tokens":0},"stream":` + map[bool]string{false: "false", true: "true"}[stream] + `}`
		code, _, b := post(t, http.DefaultClient, url+"/generate", body)
		if code != 200 {
			t.Fatalf("stream=%v: status %d: %s", stream, code, b)
		}
		objs := []string{string(b)}
		if stream {
			objs = sseEvents(t, b)
		}
		if len(objs) != 1 {
			t.Fatalf("stream=%v: %d objects, want 1", stream, len(objs))
		}
		var r sglangResult
		if err := json.Unmarshal([]byte(objs[0]), &r); err != nil {
			t.Fatal(err)
		}
		if r.Text != "" || len(r.OutputIDs) != 0 || r.MetaInfo["completion_tokens"] != 0.0 ||
			!cmp.Equal(r.MetaInfo["finish_reason"], map[string]any{"type": "length", "length": 0.0}) {
			t.Errorf("stream=%v: %+v", stream, r)
		}
	}
}
