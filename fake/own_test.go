package fake

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
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
	// Five tokens, each its own write when the fake keeps to time (TPOT
	// above minSleep); tokens that fell due while it was late go out
	// together, one write and one slip.
	if c := st.TokenSlip.Count; c < 1 || c > 5 {
		t.Errorf("token slips counted %d writes, want one per write of the 5 tokens", c)
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

// TestOwnStatsStartAtFirstBytes: the fake's own time starts when a
// request's first bytes are read, not when its handler runs (a head that
// arrives slowly counts), and each request on a kept-alive connection,
// whatever route came before it, gets its own start.
func TestOwnStatsStartAtFirstBytes(t *testing.T) {
	t.Parallel()
	const pause = 100 * time.Millisecond
	_, url := start(t, Config{})
	c, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	roundTrip := func(head, rest string) {
		t.Helper()
		if _, err := io.WriteString(c, head); err != nil {
			t.Fatal(err)
		}
		if rest != "" {
			time.Sleep(pause)
			io.WriteString(c, rest)
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	body := `{"prompt":[1,2,3],"max_tokens":2}`
	req := "POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
	roundTrip("GET /health HTTP/1.1\r\nHost: x\r\n\r\n", "")
	roundTrip(req[:10], req[10:]) // the head arrives in two pieces, pause apart
	roundTrip(req, "")            // then whole, at once
	st := getOwnStats(t, url)
	if st.Admit.Count != 2 || st.Admit.Max < int64(pause) {
		t.Errorf("admit %+v: want the slow head's %v counted", st.Admit, pause)
	}
	if st.Admit.P50 >= int64(pause) && st.Admit.Count == 2 {
		// Quantile(0.5) of two values is the smaller: the prompt request's.
		t.Errorf("admit median %v: the request sent at once was charged the slow one's pause (stale stamp)", time.Duration(st.Admit.P50))
	}
}
