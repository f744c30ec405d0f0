package sut

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAppendChatAndPrefix: AppendChat writes EncodeChat's bytes after
// what dst holds, and every body of the reference vectors begins with
// ChatPrefix, which covers the whole system message.
func TestAppendChatAndPrefix(t *testing.T) {
	recs := loadQ3VL(t)
	const model = "Qwen/Qwen3-VL-235B-A22B-Instruct"
	temp := 0.0
	for _, tc := range []struct {
		name   string
		params ChatParams
		guided bool
		stream bool
	}{
		{name: "plain"},
		{name: "params, guided, streamed", params: ChatParams{Temperature: &temp, MaxTokens: ptr(100)}, guided: true, stream: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rf []byte
			if tc.guided {
				rf = recs[0].ResponseFormat
			}
			for i, rec := range recs {
				msgs := chatMessages(t, rec.Messages)
				want, err := EncodeChat(model, msgs, rf, tc.params, tc.stream)
				if err != nil {
					t.Fatal(err)
				}
				got, err := AppendChat([]byte("dst:"), model, msgs, rf, tc.params, tc.stream)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, append([]byte("dst:"), want...)) {
					t.Fatalf("vector %d: AppendChat differs from EncodeChat", i)
				}
				prefix, err := ChatPrefix(model, msgs[0], rf, tc.params, tc.stream)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.HasPrefix(want, prefix) {
					t.Fatalf("vector %d: body does not begin with the %d-byte ChatPrefix", i, len(prefix))
				}
				sys, err := EncodeChat(model, msgs[:1], rf, tc.params, tc.stream)
				if err != nil {
					t.Fatal(err)
				}
				// sys is {"messages":[<system>],"model":...; a quote
				// inside a JSON string is escaped, so the first `],"model"`
				// ends the list. The prefix must hold <system> and the comma.
				end := bytes.Index(sys, []byte(`],"model"`))
				if end < 0 || !bytes.HasPrefix(prefix, append(bytes.Clone(sys[:end]), ',')) {
					t.Fatalf("vector %d: the %d-byte prefix does not hold the whole system message", i, len(prefix))
				}
			}
		})
	}
}

// prefixedBodies serves bodies as a shared prefix and a rest, the way
// qsl.Library does after SharePrefix.
type prefixedBodies struct {
	prefix []byte
	rests  [][]byte
}

func (p prefixedBodies) Body(i int) []byte {
	panic("the pool must ask a PrefixedBodies for Parts")
}

func (p prefixedBodies) Parts(i int) ([]byte, []byte) {
	if i < 0 || i >= len(p.rests) {
		return nil, nil
	}
	if i%3 == 2 { // some bodies do not share the prefix
		return nil, p.rests[i]
	}
	return p.prefix, p.rests[i]
}

func (p prefixedBodies) whole(i int) string {
	pre, rest := p.Parts(i)
	return string(pre) + string(rest)
}

// TestPoolPrefixedBodies: the server receives prefix and rest as one body
// with the right Content-Length, over the pool's own client and over
// net/http.
func TestPoolPrefixedBodies(t *testing.T) {
	bodies := prefixedBodies{prefix: bytes.Repeat([]byte("p"), 3000)}
	for i := range 12 {
		bodies.rests = append(bodies.rests, []byte(fmt.Sprintf(`{"i":%d,"pad":%q}`, i, bytes.Repeat([]byte("r"), i*9000))))
	}
	bodies.rests[4] = []byte{} // a body that is only the prefix
	for _, nethttp := range []bool{false, true} {
		t.Run(fmt.Sprintf("net/http=%v", nethttp), func(t *testing.T) {
			var got []string
			srv := newRawServer(t, func(_ int, req *http.Request, b []byte, w *bufio.Writer) bool {
				if req.ContentLength != int64(len(b)) {
					t.Errorf("Content-Length %d for a %d-byte body", req.ContentLength, len(b))
				}
				got = append(got, string(b)) // one request at a time
				fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(sglangOK), sglangOK)
				return true
			})
			cfg := Config{Endpoints: []string{srv.url()}, API: APISGLang, Bodies: bodies, Concurrency: 1}
			if nethttp {
				cfg.Transport = &http.Transport{}
			}
			p, rec := newPool(t, cfg)
			if (p.targets == nil) != nethttp {
				t.Fatalf("pool's own client in use: %v", p.targets != nil)
			}
			p.IssueQuery(samples(len(bodies.rests)))
			p.Close()
			_, finals, dups := rec.snapshot()
			if st := p.Stats(); st.Failed != 0 || len(finals) != len(bodies.rests) || len(dups) != 0 {
				t.Fatalf("stats %+v, %d completions, dups %v", st, len(finals), dups)
			}
			var want []string
			for i := range bodies.rests {
				want = append(want, bodies.whole(i))
			}
			sort.Strings(got)
			sort.Strings(want)
			if !cmp.Equal(got, want) {
				t.Errorf("the server received bodies that differ from prefix+rest")
			}
		})
	}
}

var _ PrefixedBodies = prefixedBodies{}
