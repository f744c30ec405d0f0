package bench

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/fake"
)

const agenticFile = `{"conversation_id":"c1","turn":1,"role":"user","system":"You are a coder.","content":"fix foo","tools":[{"type":"function","function":{"name":"bash"}}],"max_new_tokens":7}
{"conversation_id":"c1","turn":2,"role":"assistant","tool_calls":[{"id":"t1","type":"function","function":{"name":"bash","arguments":"{\"cmd\":\"cat foo.py\"}"}}]}
{"conversation_id":"c1","turn":3,"role":"tool","tool_results":[{"tool_call_id":"t1","content":"def foo(): return 1/0"}],"delay_seconds":0.05}
{"conversation_id":"c1","turn":4,"role":"assistant","content":"fixed"}
{"conversation_id":"c1","turn":5,"role":"user","content":"thanks"}
{"conversation_id":"c2","turn":1,"role":"user","content":"hello"}
{"conversation_id":"c2","turn":2,"role":"assistant","content":"hi there"}
{"conversation_id":"c2","turn":3,"role":"user","content":"bye","delay_seconds":0.05}
`

// TestAgenticReplay: each client turn carries the recorded conversation
// before it (system prompt, tool calls, tool results, recorded replies,
// not the model's), with the conversation ID as X-Session-ID, one turn in
// flight per conversation, and the tool delay before its turn.
func TestAgenticReplay(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "agentic.jsonl")
	if err := os.WriteFile(path, []byte(agenticFile), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := LoadAgentic(path, 4, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Conversations) != 4 || w.Conversations[2].ID != "c1__repeat_2" || w.Requests() != 10 {
		t.Fatalf("conversations %d, third %q, requests %d", len(w.Conversations), w.Conversations[2].ID, w.Requests())
	}
	var s seen
	var mu sync.Mutex
	inFlight := map[string]int{}
	worst := 0
	var times = map[string][]time.Time{}
	url := startFake(t, fake.Config{TTFT: 5 * time.Millisecond, OnRequest: func(ri fake.RequestInfo) {
		s.hook(ri)
		mu.Lock()
		inFlight[ri.Session]++
		worst = max(worst, inFlight[ri.Session])
		times[ri.Session] = append(times[ri.Session], time.Now())
		mu.Unlock()
		time.Sleep(2 * time.Millisecond)
		mu.Lock()
		inFlight[ri.Session]--
		mu.Unlock()
	}}, nil)
	res, _, err := Run(context.Background(), w, Options{Targets: []Target{{Name: "f", URLs: []string{url}}}, Stream: true, ExactOutput: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Runs[0]; r.Completed != 10 || r.Failed != 0 {
		t.Fatalf("%d completed, %d failed", r.Completed, r.Failed)
	}
	if worst != 1 {
		t.Errorf("%d turns of one conversation in flight at once", worst)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var c1 []seenReq
	for _, r := range s.reqs {
		if r.session == "c1" {
			c1 = append(c1, r)
		}
	}
	if len(c1) != 3 {
		t.Fatalf("c1 sent %d turns, want 3 (user, tool, user)", len(c1))
	}
	roles := func(r seenReq) string {
		var out []string
		for _, m := range r.msgs {
			out = append(out, m.Role)
		}
		return strings.Join(out, ",")
	}
	for i, want := range []string{"system,user", "system,user,assistant,tool", "system,user,assistant,tool,assistant,user"} {
		if got := roles(c1[i]); got != want {
			t.Errorf("c1 turn %d roles %s, want %s", i, got, want)
		}
		if c1[i].max != 7 {
			t.Errorf("c1 turn %d max tokens %d, want the conversation's 7", i, c1[i].max)
		}
	}
	if got := c1[2].msgs[4].Text; got != "fixed" {
		t.Errorf("the recorded reply %q is not carried (got %q)", "fixed", got)
	}
	if got := c1[1].msgs[3].Text; got != "def foo(): return 1/0" {
		t.Errorf("tool result text %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if d := times["c1"][1].Sub(times["c1"][0]); d < 50*time.Millisecond {
		t.Errorf("the tool turn came %v after the first, before its 50 ms delay", d)
	}
}

// FuzzAgentic: any file is read without panicking, and what is accepted
// builds bodies that are valid JSON.
func FuzzAgentic(f *testing.F) {
	f.Add([]byte(agenticFile))
	f.Add([]byte(`{"conversation_id":1,"turn":1,"role":"user","content":"x"}`))
	f.Add([]byte(`{"conversation_id":"a","turn":2,"role":"user","content":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "a.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		w, err := LoadAgentic(path, 0, true)
		if err != nil {
			return
		}
		for _, c := range w.Conversations {
			for _, turn := range c.Turns {
				for _, m := range append(append([]json.RawMessage(nil), turn.Messages...), turn.Recorded...) {
					if !json.Valid(m) {
						t.Fatalf("message %q is not JSON", m)
					}
				}
			}
		}
	})
}
