package timeline

import (
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestRecorderWritesPointsUntilStop(t *testing.T) {
	path := filepath.Join(t.TempDir(), File)
	var done atomic.Int64
	r, err := Start(path, 5*time.Millisecond, func() Counters {
		n := done.Add(1)
		return Counters{Issued: n + 2, Completed: n, InFlight: 2}
	})
	if err != nil {
		t.Fatal(err)
	}
	// Wait on the recorder's own ticks (a few), not on a fixed time.
	for deadline := time.Now().Add(10 * time.Second); done.Load() < 4; {
		if time.Now().After(deadline) {
			t.Fatal("the recorder did not tick")
		}
		time.Sleep(time.Millisecond)
	}
	if err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	pts, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	// A point at start, some ticks, one at Stop.
	if len(pts) < 3 {
		t.Fatalf("%d points, want at least 3", len(pts))
	}
	if int64(len(pts)) != done.Load() {
		t.Errorf("%d points for %d samples: every sample must be written", len(pts), done.Load())
	}
	for i := 1; i < len(pts); i++ {
		if pts[i].Completed <= pts[i-1].Completed || pts[i].UnixMs < pts[i-1].UnixMs || pts[i].Elapsed < pts[i-1].Elapsed {
			t.Errorf("point %d %+v does not follow %+v", i, pts[i], pts[i-1])
		}
	}
	if pts[0].Elapsed != 0 || pts[0].Completed != 1 || pts[0].InFlight != 2 || pts[0].Issued != 3 {
		t.Errorf("first point %+v", pts[0])
	}
}

func TestParseNamesTheBadLine(t *testing.T) {
	_, err := Parse(strings.NewReader(`{"unix_ms":1,"completed":1}` + "\n\n" + `{"unix_ms":"x"}` + "\n"))
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Fatalf("error %v, want one naming line 3", err)
	}
	_, err = Read(filepath.Join(t.TempDir(), "missing.jsonl"))
	if err == nil {
		t.Fatal("reading a missing file succeeded")
	}
}
