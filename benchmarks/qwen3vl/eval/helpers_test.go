package eval

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

func sha256Hex(t *testing.T, s string) string {
	t.Helper()
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
