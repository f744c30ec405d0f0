package protocol_test

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/protocol"
	_ "github.com/mlperf-go/mlperf-go/protocol/all"
)

// TestLookup: every name the README and older releases used resolves, in
// any case; unknown names list the ones accepted.
func TestLookup(t *testing.T) {
	for in, want := range map[string]struct {
		name, path string
		timeout    time.Duration
	}{
		"openai-chat":        {"openai-chat", "/v1/chat/completions", 2 * time.Hour},
		"chat":               {"openai-chat", "/v1/chat/completions", 2 * time.Hour},
		"OpenAI-Chat":        {"openai-chat", "/v1/chat/completions", 2 * time.Hour},
		"openai-completions": {"openai-completions", "/v1/completions", 1200 * time.Second},
		"completions":        {"openai-completions", "/v1/completions", 1200 * time.Second},
		"sglang-generate":    {"sglang-generate", "/generate", 1200 * time.Second},
		"sglang":             {"sglang-generate", "/generate", 1200 * time.Second},
		"transcriptions":     {"openai-transcriptions", "/v1/audio/transcriptions", 1200 * time.Second},
	} {
		p, err := protocol.Lookup(in)
		if err != nil || p.Name() != want.name || p.Path() != want.path || p.DefaultTimeout() != want.timeout {
			t.Errorf("Lookup(%q) = %v, %v; want %+v", in, p, err, want)
		}
	}
	_, err := protocol.Lookup("grpc")
	if err == nil || !strings.Contains(err.Error(), "openai-chat, openai-completions, openai-transcriptions, sglang-generate") {
		t.Errorf("Lookup(grpc): error %v should list the APIs", err)
	}
	if d := cmp.Diff([]string{"openai-chat", "openai-completions", "openai-transcriptions", "sglang-generate"}, protocol.Names()); d != "" {
		t.Errorf("Names (-want +got):\n%s", d)
	}
}

// TestRegisterTwice: a name registered twice is a programming error.
func TestRegisterTwice(t *testing.T) {
	p, err := protocol.Lookup("sglang")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if recover() == nil {
			t.Error("registering a protocol twice did not panic")
		}
		if len(protocol.Names()) != 4 {
			t.Errorf("the failed registration changed the registry: %v", protocol.Names())
		}
	}()
	protocol.Register(p)
}

// TestParamsDecode: each protocol's defaults are a fresh value that a
// generation config can change without touching the next call's.
func TestParamsDecode(t *testing.T) {
	for _, name := range protocol.Names() {
		p, _ := protocol.Lookup(name)
		a := p.DefaultParams()
		if err := protocol.DecodeGenerationConfig([]byte(`{"temperature": 0.25, "`+a.MaxTokensKey()+`": 7}`), a); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if cmp.Equal(a, p.DefaultParams()) {
			t.Errorf("%s: DefaultParams shares its value between calls", name)
		}
	}
}

// FuzzSSEReader checks the event reader against a plain line split, with a
// tiny buffer so long lines take the reassembly path: data lines are
// returned, the data of an "event: error" event is a *protocol.ServerError
// that ends the stream, and a line longer than the limit is an error
// wrapping ErrTooLarge.
func FuzzSSEReader(f *testing.F) {
	f.Add([]byte("data: {\"a\":1}\n\ndata: [DONE]\n\n"), 0)
	f.Add([]byte(": comment\r\nevent: x\r\ndata:{\"b\":2}\r\n\r\ndata: partial"), 0)
	f.Add([]byte("data: "+strings.Repeat("x", 100)+"\n"), 0)
	f.Add([]byte("data: "+strings.Repeat("x", 100)+"\n"), 40)
	f.Add([]byte("data: {}\n\nevent: error\ndata: {\"error\":{\"message\":\"boom\"}}\n\ndata: [DONE]\n\n"), 0)
	f.Add([]byte("event: error\n\ndata: ok\n"), 0)
	f.Fuzz(func(t *testing.T, b []byte, maxLine int) {
		maxLine = max(maxLine, 0) % 256
		var want [][]byte
		wantEnd := "eof"
		errorEv := false
		lines := bytes.SplitAfter(b, []byte("\n"))
		for _, line := range lines {
			if maxLine > 0 && len(line) > maxLine {
				wantEnd = "too large"
				break
			}
			tl := bytes.TrimSpace(line)
			if p, ok := bytes.CutPrefix(tl, []byte("data:")); ok {
				if errorEv {
					wantEnd = "error event"
					break
				}
				want = append(want, bytes.TrimSpace(p))
			} else if name, ok := bytes.CutPrefix(tl, []byte("event:")); ok {
				errorEv = string(bytes.TrimSpace(name)) == "error"
			} else if len(tl) == 0 {
				errorEv = false
			}
		}
		var r protocol.SSEReader
		r.Reset(bufio.NewReaderSize(bytes.NewReader(b), 16), maxLine)
		var got [][]byte
		gotEnd := ""
		for gotEnd == "" {
			d, err := r.Next()
			var se *protocol.ServerError
			switch {
			case err == nil:
				got = append(got, append([]byte(nil), d...))
			case errors.Is(err, io.EOF):
				gotEnd = "eof"
			case errors.Is(err, protocol.ErrTooLarge):
				gotEnd = "too large"
			case errors.As(err, &se):
				gotEnd = "error event"
			default:
				t.Fatalf("unexpected error %v", err)
			}
		}
		if d := cmp.Diff(want, got); d != "" || gotEnd != wantEnd {
			t.Fatalf("stream %q, max line %d: end %s, want %s; payloads (-want +got):\n%s", b, maxLine, gotEnd, wantEnd, d)
		}
	})
}

// TestParamsMismatch: every encoder refuses another protocol's sampling
// parameters, naming the protocol, the type given and the type it wants.
func TestParamsMismatch(t *testing.T) {
	chat, _ := protocol.Lookup("openai-chat")
	completions, _ := protocol.Lookup("openai-completions")
	sglang, _ := protocol.Lookup("sglang-generate")
	_, err := completions.(protocol.TokenEncoder).EncodeTokens("", []int32{1}, sglang.DefaultParams(), false)
	if want := "openai-completions: sampling parameters of type *sglang.Params, want *openaicompletions.Params"; err == nil || err.Error() != want {
		t.Errorf("completions: error %v, want %q", err, want)
	}
	_, err = sglang.(protocol.TokenEncoder).EncodeTokens("", []int32{1}, nil, false)
	if want := "sglang-generate: sampling parameters of type <nil>, want *sglang.Params"; err == nil || err.Error() != want {
		t.Errorf("sglang: error %v, want %q", err, want)
	}
	_, err = chat.(protocol.MessagesEncoder).AppendMessages(nil, "m", nil, nil, completions.DefaultParams(), false)
	if want := "openai-chat: sampling parameters of type *openaicompletions.Params, want *openaichat.Params"; err == nil || err.Error() != want {
		t.Errorf("chat: error %v, want %q", err, want)
	}
}
