package pack

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/submission"
	"github.com/mlperf-go/mlperf-go/submission/internal/logtest"
)

// expectedTruncation is the official algorithm's result computed from its
// specification (tools/submission/truncate_accuracy_log.py: truncate_file keeps
// VIEWABLE_SIZE=4096 bytes from the start and from the end, joined by
// "\n\n...\n\n", and leaves files under 4096 bytes alone; the hash appended is
// the SHA-256 hex of the original file).
func expectedTruncation(orig string) (log, hash string) {
	sum := sha256.Sum256([]byte(orig))
	hash = hex.EncodeToString(sum[:])
	if len(orig) < 4096 {
		return orig, hash
	}
	return orig[:4096] + "\n\n...\n\n" + orig[len(orig)-4096:], hash
}

func TestTruncateAccuracyDir(t *testing.T) {
	tests := []struct {
		name        string
		test        string
		logSize     int
		accTxt      *string // nil: no accuracy.txt
		wantChanged bool
		wantTxt     func(orig, hash string) string
		wantErr     string
	}{
		{name: "large log", logSize: 20000, accTxt: ptr("{'exact_match': 83.500}\n"), wantChanged: true,
			wantTxt: func(_, h string) string { return "{'exact_match': 83.500}\n\nhash=" + h + "\n" }},
		{name: "exactly 10240 bytes with hash is cut again", logSize: 10240, accTxt: ptr("x\nhash=abc\n"), wantChanged: true,
			wantTxt: func(_, h string) string { return "x\nhash=abc\n\nhash=" + h + "\n" }},
		{name: "small log gets a hash but is not cut", logSize: 4095, accTxt: ptr("score"), wantChanged: true,
			wantTxt: func(_, h string) string { return "score\nhash=" + h + "\n" }},
		{name: "log of 4096..8191 bytes grows", logSize: 5000, accTxt: ptr("s\n"), wantChanged: true,
			wantTxt: func(_, h string) string { return "s\n\nhash=" + h + "\n" }},
		{name: "already hashed and small: untouched", logSize: 9000, accTxt: ptr("s\nhash=deadbeef\n"), wantChanged: false,
			wantTxt: func(string, string) string { return "s\nhash=deadbeef\n" }},
		{name: "CRLF hash line counts", logSize: 9000, accTxt: ptr("s\r\nhash=deadbeef\r\n"), wantChanged: false,
			wantTxt: func(string, string) string { return "s\r\nhash=deadbeef\r\n" }},
		{name: "TEST07 writes a fresh accuracy.txt", test: submission.TEST07, logSize: 30000, accTxt: nil, wantChanged: true,
			wantTxt: func(_, h string) string { return "hash=" + h + "\n" }},
		{name: "TEST09 replaces an existing accuracy.txt", test: submission.TEST09, logSize: 30000, accTxt: ptr("old\nhash=1\n"), wantChanged: true,
			wantTxt: func(_, h string) string { return "hash=" + h + "\n" }},
		{name: "missing accuracy.txt", logSize: 20000, accTxt: nil, wantErr: "accuracy.txt"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			orig := logtest.FakeAccLog(tc.logSize)
			logPath := filepath.Join(dir, "accuracy", "mlperf_log_accuracy.json")
			txtPath := filepath.Join(dir, "accuracy", "accuracy.txt")
			logtest.MustWrite(t, logPath, orig)
			if tc.accTxt != nil {
				logtest.MustWrite(t, txtPath, *tc.accTxt)
			}
			changed, err := TruncateAccuracyDir(dir, tc.test)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				if logtest.MustRead(t, logPath) != orig {
					t.Error("log changed despite the error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if changed != tc.wantChanged {
				t.Errorf("changed = %v, want %v", changed, tc.wantChanged)
			}
			wantLog, hash := expectedTruncation(orig)
			if !tc.wantChanged {
				wantLog = orig
			}
			if got := logtest.MustRead(t, logPath); got != wantLog {
				t.Errorf("log: got %d bytes, want %d bytes", len(got), len(wantLog))
			}
			if got, want := logtest.MustRead(t, txtPath), tc.wantTxt(orig, hash); got != want {
				t.Errorf("accuracy.txt = %q, want %q", got, want)
			}
		})
	}
}

func TestTruncateLeavesTEST06Alone(t *testing.T) {
	dir := t.TempDir()
	orig := logtest.FakeAccLog(50000)
	logtest.MustWrite(t, filepath.Join(dir, "accuracy", "mlperf_log_accuracy.json"), orig)
	changed, err := TruncateAccuracyDir(dir, submission.TEST06)
	if err != nil || changed {
		t.Fatalf("changed=%v err=%v, want untouched", changed, err)
	}
	if logtest.MustRead(t, filepath.Join(dir, "accuracy", "mlperf_log_accuracy.json")) != orig {
		t.Error("TEST06 log changed")
	}
	if _, err := os.Stat(filepath.Join(dir, "accuracy", "accuracy.txt")); !os.IsNotExist(err) {
		t.Error("TEST06 got an accuracy.txt")
	}
}

func ptr(s string) *string { return &s }
