package fake

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// Timing tests assert lower bounds only: the machine is shared and noisy.

func TestLatencyStreamingTTFTAndTPOT(t *testing.T) {
	const ttft, tpot, n = 60 * time.Millisecond, 5 * time.Millisecond, 10
	_, url := start(t, Config{TTFT: ttft, TPOT: tpot, OutputTokens: n})
	t0 := time.Now()
	resp, err := http.Post(url+"/generate", "application/json", strings.NewReader(`{"input_ids":[1,2,3],"stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	var first, last time.Duration
	events := 0
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "data: ") || line == "data: [DONE]" {
			continue
		}
		events++
		if events == 1 {
			first = time.Since(t0)
		}
		last = time.Since(t0)
	}
	if events != n {
		t.Fatalf("%d events, want %d", events, n)
	}
	if first < ttft {
		t.Errorf("first token after %v, want at least TTFT %v", first, ttft)
	}
	if min := ttft + (n-1)*tpot; last < min {
		t.Errorf("last token after %v, want at least %v", last, min)
	}
}

func TestLatencyNonStreaming(t *testing.T) {
	const ttft, tpot, n = 40 * time.Millisecond, 4 * time.Millisecond, 11
	_, url := start(t, Config{TTFT: ttft, TPOT: tpot, OutputTokens: n})
	t0 := time.Now()
	code, _, _ := post(t, http.DefaultClient, url+"/v1/completions", `{"prompt":[1],"max_tokens":100}`)
	if d := time.Since(t0); code != 200 || d < ttft+(n-1)*tpot {
		t.Errorf("status %d after %v, want 200 after at least %v", code, d, ttft+(n-1)*tpot)
	}
}

// TestQueueingBeyondMaxConcurrency sends six requests at once to a server
// generating two at a time: they must go in three waves, queue time counts
// toward time to first token, and no more than two ever run together.
func TestQueueingBeyondMaxConcurrency(t *testing.T) {
	const ttft = 80 * time.Millisecond
	s, url := start(t, Config{TTFT: ttft, OutputTokens: 1, MaxConcurrency: 2})
	var wg sync.WaitGroup
	lat := make([]time.Duration, 6)
	t0 := time.Now()
	for i := range lat {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Post(url+"/generate", "application/json", strings.NewReader(`{"input_ids":[1],"stream":true}`))
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			br := bufio.NewReader(resp.Body)
			if _, err := br.ReadString('\n'); err != nil { // first event: time to first token
				t.Error(err)
			}
			lat[i] = time.Since(t0)
			_, _ = io.Copy(io.Discard, br)
		}()
	}
	wg.Wait()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	for i, d := range lat {
		if wave := time.Duration(i/2+1) * ttft; d < wave {
			t.Errorf("request %d (sorted) got its first token after %v, want at least %v", i, d, wave)
		}
	}
	st := s.Stats()
	if st.MaxConcurrent != 2 {
		t.Errorf("MaxConcurrent = %d, want 2", st.MaxConcurrent)
	}
	if st.MaxInFlight < 3 {
		t.Errorf("MaxInFlight = %d, want requests queued beyond the 2 slots", st.MaxInFlight)
	}
}

func TestFaultModes(t *testing.T) {
	client := &http.Client{Timeout: 300 * time.Millisecond}
	chat := `{"messages":[{"role":"user","content":"x"}]}`
	chatStream := `{"messages":[{"role":"user","content":"x"}],"stream":true}`
	tests := []struct {
		mode, path, body string
		check            func(t *testing.T, resp *http.Response, body []byte, err error)
	}{
		{FailStatus, "/v1/chat/completions", chat, func(t *testing.T, resp *http.Response, body []byte, err error) {
			if err != nil || resp.StatusCode != 500 {
				t.Fatalf("got %v, %v; want status 500", resp, err)
			}
			var e struct {
				Error struct{ Message, Type string }
			}
			if json.Unmarshal(body, &e) != nil || e.Error.Type != "InternalServerError" || e.Error.Message == "" {
				t.Errorf("error body %s is not OpenAI-style", body)
			}
		}},
		{FailReset, "/generate", `{"input_ids":[1]}`, func(t *testing.T, resp *http.Response, body []byte, err error) {
			if err == nil {
				t.Fatalf("reset: got status %d, want a connection error", resp.StatusCode)
			}
		}},
		{FailStall, "/v1/completions", `{"prompt":[1]}`, func(t *testing.T, resp *http.Response, body []byte, err error) {
			if !errors.Is(err, context.DeadlineExceeded) && !strings.Contains(fmt.Sprint(err), "Timeout") {
				t.Fatalf("stall: got %v, want the client's timeout", err)
			}
		}},
		{FailGarbage, "/v1/chat/completions", chat, func(t *testing.T, resp *http.Response, body []byte, err error) {
			if err != nil || resp.StatusCode != 200 || json.Valid(body) {
				t.Fatalf("garbage: got %v %q, want 200 with invalid JSON", err, body)
			}
		}},
		{FailGarbage, "/v1/chat/completions", chatStream, func(t *testing.T, resp *http.Response, body []byte, err error) {
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("garbage stream: %v", err)
			}
			bad := 0
			for _, ev := range strings.Split(string(body), "\n\n") {
				if p, ok := strings.CutPrefix(ev, "data: "); ok && p != "[DONE]" && !json.Valid([]byte(p)) {
					bad++
				}
			}
			if bad == 0 {
				t.Errorf("garbage stream %q has no malformed event", body)
			}
		}},
		{FailCut, "/v1/chat/completions", chatStream, func(t *testing.T, resp *http.Response, body []byte, err error) {
			if err == nil || resp == nil || resp.StatusCode != 200 {
				t.Fatalf("cut stream: got %v, want 200 then a read error", err)
			}
			if !strings.Contains(string(body), `"role":"assistant"`) || strings.Contains(string(body), "[DONE]") {
				t.Errorf("cut stream body %q: want the first token and no [DONE]", body)
			}
		}},
		{FailCut, "/generate", `{"input_ids":[1]}`, func(t *testing.T, resp *http.Response, body []byte, err error) {
			if err == nil {
				t.Fatalf("cut body: read %q without error", body)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.mode+tc.path+fmt.Sprint(strings.Contains(tc.body, "stream")), func(t *testing.T) {
			s, url := start(t, Config{FailRate: 1, FailMode: tc.mode})
			resp, err := client.Post(url+tc.path, "application/json", strings.NewReader(tc.body))
			var body []byte
			if err == nil {
				body, err = io.ReadAll(resp.Body)
				resp.Body.Close()
			}
			tc.check(t, resp, body, err)
			if got := s.Stats().Faults[tc.mode]; got != 1 {
				t.Errorf("Stats().Faults[%q] = %d, want 1", tc.mode, got)
			}
		})
	}
}

// failures runs n sequential requests and returns which failed.
func failures(t *testing.T, cfg Config, n int) []bool {
	_, url := start(t, cfg)
	out := make([]bool, n)
	for i := range out {
		code, _, _ := post(t, http.DefaultClient, url+"/generate", `{"input_ids":[1],"sampling_params":{"max_new_tokens":1}}`)
		out[i] = code != 200
	}
	return out
}

func TestFaultsDeterministic(t *testing.T) {
	const n, rate = 1000, 0.2
	a := failures(t, Config{FailRate: rate, Seed: 7}, n)
	b := failures(t, Config{FailRate: rate, Seed: 7}, n)
	c := failures(t, Config{FailRate: rate, Seed: 8}, n)
	count, diffC := 0, 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("request %d: same seed, different outcome", i)
		}
		if a[i] {
			count++
		}
		if a[i] != c[i] {
			diffC++
		}
	}
	if sd := math.Sqrt(n * rate * (1 - rate)); math.Abs(float64(count)-n*rate) > 4*sd {
		t.Errorf("%d of %d failed, want %v ± %.0f", count, n, n*rate, 4*sd)
	}
	if diffC == 0 {
		t.Error("seeds 7 and 8 fail the same requests")
	}
}

// TestCloseReleasesStalledRequests holds requests in every waiting state —
// stalled by a fault, sleeping out a long TTFT, queued for a slot — and
// checks Close returns promptly and leaves no goroutine behind.
func TestCloseReleasesStalledRequests(t *testing.T) {
	before := runtime.NumGoroutine()
	tr := &http.Transport{}
	client := &http.Client{Transport: tr}
	for _, cfg := range []Config{
		{FailRate: 1, FailMode: FailStall},
		{TTFT: time.Hour, MaxConcurrency: 1},
	} {
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		url, err := s.Start("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for i := 0; i < 4; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp, err := client.Post(url+"/v1/completions", "application/json", strings.NewReader(`{"prompt":[1],"stream":true}`))
				if err == nil {
					_, err = io.ReadAll(resp.Body)
					resp.Body.Close()
				}
				errs <- err
			}()
		}
		deadline := time.Now().Add(5 * time.Second)
		for s.Stats().Requests["/v1/completions"] < 4 && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		t0 := time.Now()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(t0); d > 2*time.Second {
			t.Errorf("Close took %v with held requests", d)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err == nil && cfg.FailMode == FailStall {
				t.Error("a stalled request completed without error")
			}
		}
		if err := s.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
	}
	tr.CloseIdleConnections()
	deadline := time.Now().Add(3 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		buf := make([]byte, 1<<16)
		t.Errorf("goroutines: %d before, %d after Close\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}

func TestListenAndServeStopsWithContext(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ListenAndServe(ctx, "127.0.0.1:0") }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ListenAndServe = %v, want nil after cancel", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("ListenAndServe did not return after its context ended")
	}
	if _, err := New(Config{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Start("127.0.0.1:0"); err == nil {
		t.Error("Start on a closed server succeeded")
	}
}

// TestTinyTPOTStreamsEveryToken checks a TPOT far below the stream's
// minimum sleep still yields one event per token, no faster than TPOT.
func TestTinyTPOTStreamsEveryToken(t *testing.T) {
	const n, tpot = 300, 50 * time.Microsecond
	_, url := start(t, Config{TPOT: tpot, OutputTokens: n, IncrementalStream: true})
	t0 := time.Now()
	_, _, body := post(t, http.DefaultClient, url+"/generate", `{"input_ids":[4],"sampling_params":{"max_new_tokens":1000},"stream":true}`)
	d := time.Since(t0)
	events := sseEvents(t, body)
	if len(events) != n {
		t.Fatalf("%d events, want %d", len(events), n)
	}
	var ids []int32
	for _, ev := range events {
		var r sglangResult
		if err := json.Unmarshal([]byte(ev), &r); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.OutputIDs...)
	}
	if !slices.Equal(ids, Tokens([]int32{4}, n)) {
		t.Error("reassembled tokens differ from Tokens")
	}
	if min := (n - 1) * tpot; d < min {
		t.Errorf("stream took %v, want at least %v", d, min)
	}
}
