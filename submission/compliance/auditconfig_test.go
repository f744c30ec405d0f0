package compliance

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/submission"
	"github.com/mlperf-go/mlperf-go/submission/internal/logtest"
)

// gitBlobID is git's object id for a file's content.
func gitBlobID(b []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(b))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

func TestAuditConfigMatchesReference(t *testing.T) {
	// Blob ids from `git ls-tree HEAD compliance/` in mlcommons/inference at
	// b66003e10e2db4b8c36a448b0545ec90fcc6e9e9: equal ids mean byte-identical files.
	tests := []struct{ test, bench, blob string }{
		{submission.TEST06, "llama3_1-8b", "090ec03b147f6a27864dca2765a41b5b37fb0c91"},
		{submission.TEST06, "llama3.1-8b", "090ec03b147f6a27864dca2765a41b5b37fb0c91"},
		{submission.TEST07, "gpt-oss-120b", "dc0b9fd1b8564402a20be4054721b26e2fbd02ab"},
		{submission.TEST09, "gpt-oss-120b", "8f9d7a4e59b94c4885fb3dc93af66394ca89f5d2"},
	}
	for _, tc := range tests {
		b, err := AuditConfig(tc.test, tc.bench)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.test, tc.bench, err)
		}
		if got := gitBlobID(b); got != tc.blob {
			t.Errorf("%s %s: blob %s, want %s", tc.test, tc.bench, got, tc.blob)
		}
	}
	for _, bad := range [][2]string{{submission.TEST06, "gpt-oss-120b"}, {submission.TEST07, "llama3.1-8b"}, {submission.TEST06, "qwen3-vl-235b-a22b"}, {"TEST01", "gpt-oss-120b"}} {
		if _, err := AuditConfig(bad[0], bad[1]); err == nil {
			t.Errorf("AuditConfig(%s, %s) succeeded, want an error", bad[0], bad[1])
		}
	}
}

func TestWriteAuditConfig(t *testing.T) {
	dir := t.TempDir()
	cleanup, err := WriteAuditConfig(dir, submission.TEST09, "gpt-oss-120b")
	if err != nil {
		t.Fatal(err)
	}
	got := logtest.MustRead(t, filepath.Join(dir, "audit.config"))
	if !strings.Contains(got, "*.*.test09_min_output_tokens = 1150.38") {
		t.Errorf("audit.config content unexpected:\n%s", got)
	}
	// A second write must refuse rather than replace.
	if _, err := WriteAuditConfig(dir, submission.TEST07, "gpt-oss-120b"); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("second WriteAuditConfig: err = %v, want 'already exists'", err)
	}
	if err := cleanup(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "audit.config")); !os.IsNotExist(err) {
		t.Errorf("audit.config left behind after cleanup: %v", err)
	}
	if err := cleanup(); err != nil {
		t.Errorf("second cleanup: %v", err)
	}
}
