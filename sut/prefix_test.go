package sut

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/protocol/sglang"
)

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
// with the right Content-Length, over the pool's transport and over one
// given in Config.Transport.
func TestPoolPrefixedBodies(t *testing.T) {
	bodies := prefixedBodies{prefix: bytes.Repeat([]byte("p"), 3000)}
	for i := range 12 {
		bodies.rests = append(bodies.rests, []byte(fmt.Sprintf(`{"i":%d,"pad":%q}`, i, bytes.Repeat([]byte("r"), i*9000))))
	}
	bodies.rests[4] = []byte{} // a body that is only the prefix
	for _, custom := range []bool{false, true} {
		t.Run(fmt.Sprintf("custom-transport=%v", custom), func(t *testing.T) {
			var got []string
			srv := newRawServer(t, func(_ int, req *http.Request, b []byte, w *bufio.Writer) bool {
				if req.ContentLength != int64(len(b)) {
					t.Errorf("Content-Length %d for a %d-byte body", req.ContentLength, len(b))
				}
				got = append(got, string(b)) // one request at a time
				fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(sglangOK), sglangOK)
				return true
			})
			cfg := Config{Endpoints: []string{srv.url()}, API: sglang.Protocol, Bodies: bodies, Concurrency: 1}
			if custom {
				cfg.Transport = &http.Transport{}
			}
			p, rec := newPool(t, cfg)
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
