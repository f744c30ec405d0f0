package bench

import (
	"context"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/protocol"
)

// TestReasoningCountedApart: against a reasoning model (the fake with
// --reasoning-tokens), streamed chats count each answer's reasoning tokens
// from the usage, time the first answer token after the reasoning, and
// give TPOT for each part; the fake's own per-token pauses bound them from
// below. Without the usage's count (a proxy drops it) the reasoning
// events count; not streamed and without it, the reasoning is not counted
// and the run says so. The next turn carries the answer without its
// reasoning.
func TestReasoningCountedApart(t *testing.T) {
	t.Parallel()
	const think, outLen, n = 6, 10, 8
	const tpot = 3 * time.Millisecond
	var s seen
	url := startFake(t, fake.Config{ReasoningTokens: think, TPOT: tpot}, &s)
	details := regexp.MustCompile(`,"completion_tokens_details":\{[^}]*\}`)
	noDetails := proxy(t, url, nil, func(line []byte) []byte { return details.ReplaceAll(line, nil) })
	w, err := Synthetic(SyntheticOptions{Requests: n, InputLen: 8, OutputLen: outLen, MultiTurn: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		url       string
		stream    bool
		uncounted int
	}{{"usage", url, true, 0}, {"events", noDetails, true, 0}, {"whole, usage", url, false, 0}, {"whole, no count", noDetails, false, 2 * n}} {
		res, recs, err := Run(context.Background(), w, Options{Targets: []Target{{Name: "f", URLs: []string{tc.url}}},
			Model: fake.DefaultModel, Stream: tc.stream, ExactOutput: true})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		r := res.Runs[0]
		if r.Completed != 2*n || r.OutputTokens != 2*n*outLen || r.ReasoningRequests != 2*n || r.ReasoningUncounted != tc.uncounted {
			t.Fatalf("%s: %d completed, %d output tokens, %d reasoned, %d uncounted", tc.name, r.Completed, r.OutputTokens, r.ReasoningRequests, r.ReasoningUncounted)
		}
		if want := int64(2 * n * think); tc.uncounted == 0 && r.ReasoningTokens != want {
			t.Errorf("%s: %d reasoning tokens, want %d", tc.name, r.ReasoningTokens, want)
		}
		if !tc.stream {
			continue
		}
		if r.TTFAT == nil || r.TTFAT.Count != 2*n || r.ReasoningTPOT.Count != 2*n || r.AnswerTPOT.Count != 2*n {
			t.Fatalf("%s: TTFAT %+v, reasoning TPOT %+v, answer TPOT %+v", tc.name, r.TTFAT, r.ReasoningTPOT, r.AnswerTPOT)
		}
		ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
		for _, rec := range recs[0] {
			// The fake sends answer token k no sooner than k TPOTs after
			// the request came; the first answer token comes after the
			// last reasoning one, and each part's TPOT spans its tokens.
			answer := float64(rec.OutputTokens - rec.ReasoningTokens - 1)
			if rec.ReasoningTokens != think || rec.TTFATms < ms(think*tpot) || rec.TTFATms <= rec.TTFTms ||
				rec.TTFTms+rec.ReasoningTPOTms*(think-1) > rec.TTFATms+1e-9 ||
				math.Abs(rec.TTFATms+rec.AnswerTPOTms*answer-rec.E2ELms) > 1e-6 {
				t.Errorf("%s: %+v: want %d reasoning tokens, then the first answer token at least %v after sending, each part's TPOT spanning its tokens", tc.name, rec, think, think*tpot)
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	turns := 0
	for _, r := range s.reqs {
		if len(r.msgs) == 3 {
			turns++
			if a := r.msgs[1].Text; a == "" || !strings.HasPrefix(fake.FallbackAnswer, a) {
				t.Fatalf("the second turn carries %q as the answer, want the start of the fake's answer alone", a)
			}
		}
	}
	if turns != 4*n {
		t.Errorf("%d second turns seen, want %d", turns, 4*n)
	}
}

// TestReasoningOverSGLang: SGLang's /generate counts the reasoning in
// meta_info; its text holds reasoning and answer together, so no time to
// the first answer token is told.
func TestReasoningOverSGLang(t *testing.T) {
	t.Parallel()
	api, err := protocol.Lookup("sglang-generate")
	if err != nil {
		t.Fatal(err)
	}
	url := startFake(t, fake.Config{ReasoningTokens: 3}, nil)
	w, err := Synthetic(SyntheticOptions{Requests: 4, InputLen: 8, OutputLen: 9})
	if err != nil {
		t.Fatal(err)
	}
	res, _, err := Run(context.Background(), w, Options{Targets: []Target{{Name: "f", URLs: []string{url}}}, API: api, Stream: true, ExactOutput: true})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Runs[0]
	if r.ReasoningTokens != 12 || r.ReasoningRequests != 4 || r.TTFAT.Count != 0 || r.AnswerTPOT.Count != 0 {
		t.Errorf("%d reasoning tokens in %d requests, TTFAT %+v, answer TPOT %+v: want 12 in 4, neither timed", r.ReasoningTokens, r.ReasoningRequests, r.TTFAT, r.AnswerTPOT)
	}
}
