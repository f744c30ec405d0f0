// Package prototest holds the helpers the protocol packages' tests share:
// decoding a request body for comparison, spelling token IDs as the
// int32 little-endian words LoadGen is told, and driving a Stream through
// a list of chunks to its end. Only tests import it.
package prototest

import (
	"encoding/binary"
	"encoding/json"
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

// RunStream resets st and feeds it chunks as the pool does: each is one
// "data:" payload, the first error ends the response, and otherwise End is
// called with done (whether "[DONE]" or a final event was seen). It returns
// what the response came to: nil for a complete answer.
func RunStream(st protocol.Stream, chunks []string, done bool) error {
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
