package record

import "testing"

// TestCounts pins the two orders a count by class is rendered in: largest
// first for people (run summaries, errors), and as text for results.json's
// reasons, whose bytes must not change.
func TestCounts(t *testing.T) {
	t.Parallel()
	m := map[string]int64{"transport": 18, "http_status": 2, "timeout": 2, "empty_answer": 1}
	if got, want := Counts(m), "transport: 18, http_status: 2, timeout: 2, empty_answer: 1"; got != want {
		t.Errorf("Counts = %q, want %q", got, want)
	}
	if got, want := CountsByName(m), "empty_answer: 1, http_status: 2, timeout: 2, transport: 18"; got != want {
		t.Errorf("CountsByName = %q, want %q", got, want)
	}
	if got := Counts(nil) + CountsByName(nil); got != "" {
		t.Errorf("no counts rendered as %q, want nothing", got)
	}
}
