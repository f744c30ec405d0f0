package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseRates(t *testing.T) {
	t.Parallel()
	got, err := parseRates("60@0, 200 ,500@0-1")
	if err != nil || len(got) != 3 || got[0] != (rate{60, "0"}) || got[1] != (rate{200, ""}) || got[2] != (rate{500, "0-1"}) {
		t.Fatalf("parseRates = %v, %v", got, err)
	}
	for _, bad := range []string{"", "x@0", "-5", "0@1"} {
		if _, err := parseRates(bad); err == nil {
			t.Errorf("parseRates(%q) accepted", bad)
		}
	}
}

// TestEventsTPOT: TPOT per sample is (complete - first chunk) / 127, as
// LoadGen computes it for 128-token answers; samples without a first chunk
// are left out.
func TestEventsTPOT(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	line := func(typ string, at int64, id string) {
		fmt.Fprintf(&b, `{"event_type":%q,"timestamp_ns":%d,"sample_uuid":%q,"data":null}`+"\n", typ, at, id)
	}
	line("session.started", 0, "")
	for i := range 100 {
		id := fmt.Sprint("s", i)
		line("sample.issued", 0, id)
		line("sample.recv_first", 1_000_000, id)
		// TPOT i+1 ms: the last byte (i+1)*127 ms after the first.
		line("sample.complete", 1_000_000+int64(i+1)*127*1_000_000, id)
	}
	line("sample.complete", 5, "never-started")
	path := filepath.Join(t.TempDir(), "events.jsonl")
	os.WriteFile(path, []byte(b.String()), 0o644)
	got, err := eventsTPOT(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := [3]float64{50, 99, 100}; math.Abs(got[0]-want[0]) > 1e-9 || math.Abs(got[1]-want[1]) > 1e-9 || math.Abs(got[2]-want[2]) > 1e-9 {
		t.Errorf("TPOT p50/p99/p99.9 = %v, want %v", got, want)
	}
}

func TestOwnStatsDecode(t *testing.T) {
	t.Parallel()
	var st ownStats
	if err := json.Unmarshal([]byte(`{"ttft_ns":{"count":3,"p50_ns":5,"p99_ns":9,"p99_9_ns":10},"tpot_ns":{"count":1,"p50_ns":2}}`), &st); err != nil {
		t.Fatal(err)
	}
	if st.TTFT.Count != 3 || st.TTFT.P50 != 5 || st.TTFT.P99 != 9 || st.TTFT.P999 != 10 || st.TPOT.P50 != 2 {
		t.Errorf("decoded %+v", st)
	}
}
