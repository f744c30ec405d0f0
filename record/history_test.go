package record

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNewestRun: the newest run of a kind is found among the runs of that
// mode and the halves of "both" runs, by start time; the latest link and
// a missing kind are not runs.
func TestNewestRun(t *testing.T) {
	root := t.TempDir()
	mk := func(parts ...string) string {
		d := filepath.Join(append([]string{root}, parts...)...)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	if got := NewestRun(root, "whisper", "Offline", "accuracy"); got != "" {
		t.Errorf("no runs: got %q", got)
	}
	mk("whisper", "Offline-accuracy", "20261126T100000Z")
	both := mk("whisper", "Offline-both", "20261126T110000Z", "accuracy")
	if err := LinkLatest(filepath.Join(root, "whisper", "Offline-accuracy", "20261126T100000Z")); err != nil {
		t.Fatal(err)
	}
	if got := NewestRun(root, "whisper", "Offline", "accuracy"); got != both {
		t.Errorf("got %q, want the newer half of a both run %q", got, both)
	}
	newer := mk("whisper", "Offline-accuracy", "20261126T120000Z-2")
	if got := NewestRun(root, "whisper", "Offline", "accuracy"); got != newer {
		t.Errorf("got %q, want %q", got, newer)
	}
	if got := NewestRun(root, "whisper", "Offline", "performance"); got != "" {
		t.Errorf("no performance run: got %q", got)
	}
}
