package fake

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/protocol"
)

// served are the registered protocols, all of which the fake must serve.
func served(t testing.TB) []protocol.Serving {
	t.Helper()
	var out []protocol.Serving
	for _, p := range protocol.All() {
		sp, ok := p.(protocol.Serving)
		if !ok {
			t.Fatalf("protocol %s has no server side: implement protocol.Serving in its package so the fake serves it", p.Name())
		}
		out = append(out, sp)
	}
	return out
}

// TestEveryProtocolServed: every registered protocol is served at its
// path, and a body it cannot read gets its 400.
func TestEveryProtocolServed(t *testing.T) {
	s, url := start(t, Config{})
	for _, p := range served(t) {
		code, _, body := post(t, http.DefaultClient, url+p.Path(), `{`)
		if code != http.StatusBadRequest || !strings.Contains(string(body), "JSON") {
			t.Errorf("%s at %s: status %d, %s; want the protocol's 400", p.Name(), p.Path(), code, body)
		}
		if n := s.Stats().Requests[p.Path()]; n != 1 {
			t.Errorf("%s: %d requests counted at %s", p.Name(), n, p.Path())
		}
	}
}

// requestSeeds are request bodies of every endpoint, well-formed and not,
// that FuzzParseRequests starts from.
var requestSeeds = []string{
	`{"messages":[{"role":"user","content":[{"type":"text","text":"x"},{"type":"image_url","image_url":{"url":"u"}}]}]}`,
	`{"Messages":[{"ROLE":"user","Content":"x"}],"MAX_TOKENS":3,"Stream":true,"Stream_Options":{"Include_Usage":true}}`,
	"{\"me\u017f\u017fages\":[{\"role\":\"user\",\"content\":\"x\"}],\"max_to\u212aens\":2}",
	`{"messages":[{"role":"user","content":"a"},{"role":"user","content":"b"}],"messages":[{"content":"c"}]}`,
	`{"messages":[null,{"role":"user","content":[null,{"type":"text","text":"a","type":"input_image"},{"text":"b","type":"text","text":null}]}]}`,
	"{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"te\\u0078t\",\"text\":\"\xff\\ud800\"}]}]}",
	`{"model":"meta-llama/Llama-3.1-8B-Instruct","prompt":[128000,791,4062,-1,2147483647],"max_tokens":128,"temperature":0,"top_p":1,"return_token_ids":true,"stream":false}`,
	`{"prompt":[1,2],"stream":true,"stream_options":{"include_usage":true,"continuous_usage_stats":true}}`,
	`{"prompt":[[1,2],[3]],"max_tokens":3}`, `{"prompt":"hi"}`, `{"prompt":["a","b"]}`, `{"prompt":[1,null,3]}`, `{"prompt":[[1],null]}`,
	`{"input_ids":[1,2],"sampling_params":{"max_new_tokens":2},"stream":true}`, `{"input_ids":[[1],[2,3]]}`, `{"text":["a"]}`, `{"text":"a","rid":"r"}`,
	`null`, `[]`, `"x"`, `1`, `true`, ``, ` {} `, `{"prompt":[1`,
}

// FuzzParseRequests feeds any body to every protocol the fake serves: none
// panics, and what one accepts the fake answers: the request asks for
// something, and its answer, whole or streamed, is valid JSON.
func FuzzParseRequests(f *testing.F) {
	for _, s := range requestSeeds {
		f.Add([]byte(s))
	}
	s, err := New(Config{OutputTokens: 4})
	if err != nil {
		f.Fatal(err)
	}
	protocols := served(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, p := range protocols {
			req, err := p.ParseRequest(b)
			if err != nil {
				continue
			}
			a := req.Ask()
			if len(a.Prompts)+len(a.TextPrompts)+len(a.Messages) == 0 || a.MaxTokens < protocol.NoLimit {
				t.Fatalf("%s accepted an unusable request %q: %+v", p.Name(), b, a)
			}
			rep := s.reply(a, "")
			rep.Arrived, rep.Started = time.Now(), time.Now()
			if body := req.AppendBody(nil, rep); !json.Valid(body) {
				t.Fatalf("%s answered %q with invalid JSON %q", p.Name(), b, body)
			}
			events := req.AppendTail(req.AppendEvents(nil, rep, 0, rep.Tokens, true), rep)
			for _, ev := range bytes.Split(bytes.TrimSpace(events), []byte("\n\n")) {
				if d, ok := bytes.CutPrefix(ev, []byte("data: ")); !ok || !json.Valid(d) {
					t.Fatalf("%s streamed %q an invalid event %q", p.Name(), b, ev)
				}
			}
		}
	})
}
