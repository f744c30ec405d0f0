package sut

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/protocol/sglang"
)

// TestFinalOmitsFirstToken streams SGLang responses over real HTTP and
// checks the accounting of gpt-oss-120b's reference server SUT: token 0
// with FirstTokenComplete, then tokens[1:] with count n-1; with the option
// off (llama's references) the final response carries all n. Stats count
// every generated token either way, and a non-streamed run, which reports
// no first token, completes with all n.
func TestFinalOmitsFirstToken(t *testing.T) {
	for _, tc := range []struct{ stream, omit, cumulative bool }{
		{true, true, false}, {true, true, true}, {true, false, false}, {false, true, false},
	} {
		t.Run(fmt.Sprintf("stream=%v/omit=%v/cumulative=%v", tc.stream, tc.omit, tc.cumulative), func(t *testing.T) {
			const n = 12
			bodies := make(sliceBodies, n)
			for i := range bodies {
				var err error
				if bodies[i], err = sglang.Encode(promptFor(i), gptossParams(), tc.stream); err != nil {
					t.Fatal(err)
				}
			}
			srv := serve(t, sglangServer(tc.cumulative))
			p, rec := newPool(t, Config{Endpoints: []string{srv.URL}, API: sglang.Protocol, Stream: tc.stream,
				FinalOmitsFirstToken: tc.omit, Bodies: bodies})
			p.IssueQuery(samples(n))
			p.Close()
			firsts, finals, dups := rec.snapshot()
			if len(dups) > 0 || len(finals) != n {
				t.Fatalf("%d completions, problems %v", len(finals), dups)
			}
			var total int64
			for i, qs := range samples(n) {
				var prompt []int
				for _, v := range promptFor(i) {
					prompt = append(prompt, int(v))
				}
				out := outputFor(prompt)
				total += int64(len(out))
				want := out
				if tc.stream && tc.omit {
					want = out[1:]
				}
				got := finals[qs.ID]
				if d := cmp.Diff(le32(want), got.Data); d != "" || got.NTokens != int64(len(want)) {
					t.Errorf("sample %d: final NTokens %d, want %d; data (-want +got):\n%s", i, got.NTokens, len(want), d)
				}
				if f, ok := firsts[qs.ID]; tc.stream != ok {
					t.Errorf("sample %d: first token reported %v, want %v", i, ok, tc.stream)
				} else if ok {
					if d := cmp.Diff(le32(out[:1]), f.Data); d != "" || f.NTokens != 1 {
						t.Errorf("sample %d first token %+v:\n%s", i, f, d)
					}
				}
			}
			if st := p.Stats(); st.Failed != 0 || st.OutputTokens != total {
				t.Errorf("stats: %d failed, %d output tokens, want 0 and %d", st.Failed, st.OutputTokens, total)
			}
		})
	}
}
