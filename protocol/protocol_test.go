package protocol_test

import (
	"bufio"
	"bytes"
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
	} {
		p, err := protocol.Lookup(in)
		if err != nil || p.Name() != want.name || p.Path() != want.path || p.DefaultTimeout() != want.timeout {
			t.Errorf("Lookup(%q) = %v, %v; want %+v", in, p, err, want)
		}
	}
	_, err := protocol.Lookup("grpc")
	if err == nil || !strings.Contains(err.Error(), "openai-chat, openai-completions, sglang-generate") {
		t.Errorf("Lookup(grpc): error %v should list the APIs", err)
	}
	if d := cmp.Diff([]string{"openai-chat", "openai-completions", "sglang-generate"}, protocol.Names()); d != "" {
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
		if len(protocol.Names()) != 3 {
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
		var r protocol.SSEReader
		r.Reset(bufio.NewReaderSize(bytes.NewReader(b), 16))
		var got [][]byte
		for {
			d, err := r.Next()
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
