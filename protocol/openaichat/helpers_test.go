package openaichat

import (
	"encoding/json"
	"testing"

	"github.com/mlperf-go/mlperf-go/protocol/internal/jsonwire"
)

func ptr[T any](v T) *T { return &v }

// decodeMap decodes a JSON object for comparisons.
func decodeMap(t testing.TB, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("decoding %q: %v", jsonwire.Clip(string(b), 200), err)
	}
	return m
}
