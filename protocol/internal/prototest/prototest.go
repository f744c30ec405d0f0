// Package prototest holds the helpers the protocol packages' tests share:
// decoding a request body for comparison, spelling token IDs as the
// int32 little-endian words LoadGen is told, driving a Stream through a
// list of chunks to its end, and the parser benchmark loop. Only tests
// import it.
package prototest

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jsonwire"
)

// DecodeMap decodes a JSON object (a request body) so a test compares
// what it means, not its bytes; it fails the test if b is not one.
func DecodeMap(t testing.TB, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("decoding %q: %v", jsonwire.Clip(string(b), 200), err)
	}
	return m
}

// LE32 is ids as the int32 little-endian words the token-ID protocols
// append for LoadGen.
func LE32[T jsonwire.TokenID](ids ...T) []byte {
	var b []byte
	for _, v := range ids {
		b = binary.LittleEndian.AppendUint32(b, uint32(int32(v)))
	}
	return b
}

// BenchIDs are n plausible token IDs (below Llama 3's vocabulary size),
// for benchmark bodies of a realistic length.
func BenchIDs(n int) []int {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = (i*7919 + 128000) % 128256
	}
	return ids
}

// runStream resets st and feeds it chunks as the pool does: each is one
// "data:" payload, the first error ends the response, and otherwise End is
// called with done (whether "[DONE]" or a final event was seen). It returns
// what the response came to: nil for a complete answer.
func runStream(st protocol.Stream, chunks []string, done bool) error {
	st.Reset()
	var out []byte
	var err error
	for _, c := range chunks {
		if out, _, err = st.Next(out, []byte(c)); err != nil {
			return err
		}
	}
	return st.End(done)
}

// Feed resets st and feeds it chunks, failing the test on any error, and
// returns the output and every chunk's event, with FirstData copied (it is
// only valid until the next call), so a test can check what LoadGen would
// be told at each step.
func Feed(t testing.TB, st protocol.Stream, chunks []string) ([]byte, []protocol.Event) {
	t.Helper()
	st.Reset()
	var out []byte
	var evs []protocol.Event
	for _, c := range chunks {
		var ev protocol.Event
		var err error
		if out, ev, err = st.Next(out, []byte(c)); err != nil {
			t.Fatal(err)
		}
		ev.FirstData = bytes.Clone(ev.FirstData)
		evs = append(evs, ev)
	}
	return out, evs
}

// StreamEnd is a case of how a stream may end: its chunks, whether
// "[DONE]" followed, and what the error must say ("" for a complete
// answer).
type StreamEnd struct {
	Name   string
	Chunks []string
	Done   bool
	Want   string
}

// CheckStreamEnd runs tc through a fresh stream of p (runStream), fails
// the test unless the outcome is what tc.Want says, and returns the error
// for any further checks on it.
func CheckStreamEnd(t testing.TB, p protocol.Protocol, tc StreamEnd) error {
	t.Helper()
	err := runStream(p.NewStream(), tc.Chunks, tc.Done)
	switch {
	case tc.Want == "" && err != nil:
		t.Errorf("error %v, want a complete answer", err)
	case tc.Want != "" && (err == nil || !strings.Contains(err.Error(), tc.Want)):
		t.Errorf("error %v, want one saying %q", err, tc.Want)
	}
	return err
}

// BenchDecode measures decode (a protocol's whole-response parser) on
// body, reusing one output buffer across iterations as a pool worker does,
// so the allocations reported are the parser's own.
func BenchDecode(b *testing.B, body []byte, decode func(dst, body []byte) ([]byte, int64, error)) {
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	buf := make([]byte, 0, 1024)
	for b.Loop() {
		var err error
		if buf, _, err = decode(buf[:0], body); err != nil {
			b.Fatal(err)
		}
	}
}
