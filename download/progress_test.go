package download

import (
	"testing"
	"time"
)

// TestSnapshotLine: the bar shows bytes, percentage, rate, ETA and
// files; without a total it shows no bar.
func TestSnapshotLine(t *testing.T) {
	t.Parallel()
	got := Snapshot{Total: 4 << 30, Done: 1 << 30, Fetched: 1 << 30, Files: 8, FilesDone: 2, Elapsed: 16 * time.Second}.Line()
	want := "[======>                 ] 1.0 GiB/4.0 GiB  25.0%  64.0 MiB/s  ETA 48s  2/8 files"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := (Snapshot{Done: 2048, Files: 1}).Line(); got != "2.0 KiB  0 B/s  0/1 files" {
		t.Errorf("no total: %q", got)
	}
}
