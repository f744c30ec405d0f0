package test06

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
)

// TestAuditConfig: the embedded file is the reference's blob 090ec03b
// (its git object ID), and a benchmark's entry carries it with its EOS.
func TestAuditConfig(t *testing.T) {
	t.Parallel()
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(auditConfig))
	h.Write(auditConfig)
	if id := hex.EncodeToString(h.Sum(nil)); !strings.HasPrefix(id, "090ec03b") {
		t.Errorf("audit.config is blob %s, want the reference's 090ec03b", id)
	}
	c := Compliance(2)
	if c.EOSTokenID != 2 || string(c.AuditConfig) != string(auditConfig) {
		t.Errorf("Compliance(2) = %d, %d bytes", c.EOSTokenID, len(c.AuditConfig))
	}
}
