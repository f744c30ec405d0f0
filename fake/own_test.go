package fake

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

func getOwnStats(t *testing.T, url string) OwnStats {
	t.Helper()
	resp, err := http.Get(url + StatsPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", StatsPath, resp.Status)
	}
	var st OwnStats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestOwnStats: the stats route reports the fake's own side of a streamed
// request (at least the latency model's times, each token written once),
// resets on request, and the fake logs it when it closes.
func TestOwnStats(t *testing.T) {
	t.Parallel()
	const ttft, tpot = 20 * time.Millisecond, 2 * time.Millisecond
	core, logs := observer.New(zap.InfoLevel)
	s, url := start(t, Config{TTFT: ttft, TPOT: tpot, OutputTokens: 128, Logger: zap.New(core)})
	code, _, _ := post(t, http.DefaultClient, url+"/v1/completions", `{"prompt":[1,2,3,4],"max_tokens":5,"stream":true}`)
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	code, _, _ = post(t, http.DefaultClient, url+"/v1/completions", `{"prompt":[1,2,3,4],"max_tokens":5}`)
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	st := getOwnStats(t, url)
	if st.ModelTTFT != ttft || st.ModelTPOT != tpot {
		t.Errorf("model %v/%v, want %v/%v", st.ModelTTFT, st.ModelTPOT, ttft, tpot)
	}
	if st.TTFT.Count != 1 || st.TTFT.P50 < int64(ttft) {
		t.Errorf("ttft %+v: want one stream's, at least %v", st.TTFT, ttft)
	}
	// Tokens after the first keep to its schedule, so a late first token
	// shortens the TPOT the client sees by its lateness over the 4 gaps.
	if late := st.TTFT.P50 - int64(ttft); st.TPOT.Count != 1 || 4*st.TPOT.P50+late < int64(4*tpot) {
		t.Errorf("tpot %+v (first token %v late): want one stream's, 4 gaps of at least %v", st.TPOT, time.Duration(late), tpot)
	}
	// Five tokens, each its own write (TPOT above minSleep); each slip is
	// how late it went out, never early.
	if st.TokenSlip.Count != 5 {
		t.Errorf("token slips counted %d writes, want 5 tokens", st.TokenSlip.Count)
	}
	if st.E2E.Count != 2 || st.E2E.P50 < int64(ttft+4*tpot) || st.Admit.Count != 2 {
		t.Errorf("e2e %+v admit %+v: want both requests, at least %v", st.E2E, st.Admit, ttft+4*tpot)
	}
	if got := s.OwnStats(); got.E2E.Count != 2 {
		t.Errorf("OwnStats() e2e count %d, want 2", got.E2E.Count)
	}

	code, _, _ = post(t, http.DefaultClient, url+StatsPath+"/reset", "")
	if code != 200 {
		t.Fatalf("reset: status %d", code)
	}
	if st := getOwnStats(t, url); st.E2E.Count != 0 || st.TTFT.Count != 0 || st.TokenSlip.Count != 0 {
		t.Errorf("after reset: %+v", st)
	}
	code, _, _ = post(t, http.DefaultClient, url+StatsPath, "")
	if code != http.StatusMethodNotAllowed {
		t.Errorf("POST %s: status %d, want 405", StatsPath, code)
	}

	post(t, http.DefaultClient, url+"/v1/completions", `{"prompt":[1,2,3,4],"max_tokens":2,"stream":true}`)
	s.Close()
	found := logs.FilterMessageSnippet("own latency").All()
	if len(found) != 1 {
		t.Fatalf("want one own-latency log line on Close, got %d", len(found))
	}
	if _, ok := found[0].ContextMap()["ttft"]; !ok {
		t.Errorf("own-latency log line without ttft: %v", found[0].ContextMap())
	}
}

// TestOwnStatsZeroLatency: with nothing scheduled there are no slips, but
// the fake's own times are still measured.
func TestOwnStatsZeroLatency(t *testing.T) {
	t.Parallel()
	_, url := start(t, Config{})
	post(t, http.DefaultClient, url+"/v1/completions", `{"prompt":[1,2,3,4],"max_tokens":3,"stream":true}`)
	st := getOwnStats(t, url)
	if st.TTFT.Count != 1 || st.E2E.Count != 1 || st.TokenSlip.Count != 0 {
		t.Errorf("zero latency: ttft %d e2e %d slips %d, want 1, 1, 0", st.TTFT.Count, st.E2E.Count, st.TokenSlip.Count)
	}
}
