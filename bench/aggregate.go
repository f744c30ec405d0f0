package bench

import (
	"slices"
	"time"
)

// ReasonSkipped is a Record's reason for a later turn that was never
// sent: an earlier turn of its conversation failed.
const ReasonSkipped = "skipped"

// aggregate is the figures of a run, or of any set of its requests, from
// their records alone, as vllm bench serve's calculate_metrics computes
// them: one host's run and the merge of many hosts' (merge.go) are the
// same computation over their records. window is the span throughput is
// over, in seconds; 0 takes the records' own (from the start to the last
// end, the records' times being from one start).
func aggregate(recs []Record, slo SLO, ps []float64, window float64) RunResult {
	run := RunResult{Failures: map[string]int{}}
	var ttft, tpot, itl, e2el, ttfat, thinkTPOT, answerTPOT []float64
	var end float64
	var images, good int
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	for i := range recs {
		rec := &recs[i]
		end = max(end, rec.EndS)
		switch {
		case rec.Reason == ReasonSkipped:
			run.Skipped++
			continue
		case !rec.OK:
			run.Failed++
			run.Failures[rec.Reason]++
			continue
		}
		run.Completed++
		images += rec.Images
		e2el = append(e2el, rec.E2ELms)
		if rec.TTFTms > 0 {
			ttft = append(ttft, rec.TTFTms)
			if rec.OutputTokens > 1 {
				tpot = append(tpot, rec.TPOTms)
			}
		}
		itl = append(itl, rec.ITLms...)
		if rec.Reasoned {
			run.ReasoningRequests++
			run.ReasoningTokens += rec.ReasoningTokens
			if rec.ReasoningTokens == 0 {
				run.ReasoningUncounted++
			}
			if rec.ReasoningTPOTms > 0 {
				thinkTPOT = append(thinkTPOT, rec.ReasoningTPOTms)
			}
			if rec.TTFATms > 0 {
				ttfat = append(ttfat, rec.TTFATms)
			}
			if rec.AnswerTPOTms > 0 {
				answerTPOT = append(answerTPOT, rec.AnswerTPOTms)
			}
		}
		if rec.PromptTokens > 0 {
			run.PromptTokens += int64(rec.PromptTokens)
		}
		run.OutputTokens += rec.OutputTokens
		if slo.Set() && (slo.TTFT == 0 || rec.TTFTms <= ms(slo.TTFT)) && (slo.TPOT == 0 || rec.TPOTms <= ms(slo.TPOT)) &&
			(slo.E2EL == 0 || rec.E2ELms <= ms(slo.E2EL)) {
			good++
		}
	}
	run.Sent = run.Completed + run.Failed
	run.MaxConcurrent = maxInFlight(recs)
	run.DurationS = window
	if window <= 0 {
		run.DurationS = end
	}
	if d := run.DurationS; d > 0 {
		run.RequestThroughput = float64(run.Completed) / d
		run.OutputThroughput = float64(run.OutputTokens) / d
		run.TotalTokenThroughput = float64(run.PromptTokens+run.OutputTokens) / d
		if slo.Set() {
			run.RequestGoodput = float64(good) / d
		}
	}
	if run.Completed > 0 {
		n := float64(run.Completed)
		run.MeanPromptTokens, run.MeanOutputTokens, run.MeanImages = float64(run.PromptTokens)/n, float64(run.OutputTokens)/n, float64(images)/n
	}
	run.TTFT, run.TPOT, run.ITL, run.E2EL = summarize(ttft, ps), summarize(tpot, ps), summarize(itl, ps), summarize(e2el, ps)
	if run.ReasoningRequests > 0 {
		run.MeanReasoningTokens = float64(run.ReasoningTokens) / float64(run.Completed)
		run.TTFAT, run.ReasoningTPOT, run.AnswerTPOT = summarizeP(ttfat, ps), summarizeP(thinkTPOT, ps), summarizeP(answerTPOT, ps)
	}
	return run
}

// summarizeP is summarize's Dist, by pointer.
func summarizeP(v, ps []float64) *Dist {
	d := summarize(v, ps)
	return &d
}

// maxInFlight is the most requests in flight at once: of the sent ones,
// from when each was sent to when it ended (an end and a send at the same
// moment do not overlap).
func maxInFlight(recs []Record) int {
	type edge struct {
		t    float64
		step int
	}
	var edges []edge
	for i := range recs {
		if r := &recs[i]; r.Reason != ReasonSkipped && r.Endpoint != "" {
			edges = append(edges, edge{r.SentS, 1}, edge{max(r.EndS, r.SentS), -1})
		}
	}
	slices.SortFunc(edges, func(a, b edge) int {
		switch {
		case a.t < b.t:
			return -1
		case a.t > b.t:
			return 1
		}
		return a.step - b.step // ends first
	})
	n, most := 0, 0
	for _, e := range edges {
		n += e.step
		most = max(most, n)
	}
	return most
}

// Part is a run's figures over some of its requests: one host's (in a
// merge of several), or those one endpoint of the target served.
type Part struct {
	// Name is the host, or the endpoint's URL.
	Name                 string  `json:"name"`
	Sent                 int     `json:"sent"`
	Completed            int     `json:"completed"`
	Failed               int     `json:"failed"`
	DurationS            float64 `json:"duration_s"`
	RequestThroughput    float64 `json:"request_throughput"`
	OutputThroughput     float64 `json:"output_throughput"`
	PromptTokens         int64   `json:"prompt_tokens"`
	OutputTokens         int64   `json:"output_tokens"`
	TTFT, TPOT, ITL, E2E Dist
}

// partOf is run's figures under name.
func partOf(name string, run RunResult) Part {
	return Part{Name: name, Sent: run.Sent, Completed: run.Completed, Failed: run.Failed, DurationS: run.DurationS,
		RequestThroughput: run.RequestThroughput, OutputThroughput: run.OutputThroughput, PromptTokens: run.PromptTokens,
		OutputTokens: run.OutputTokens, TTFT: run.TTFT, TPOT: run.TPOT, ITL: run.ITL, E2E: run.E2EL}
}

// endpointParts are the figures of the requests each endpoint served,
// over the run's window, in the order endpoints first appear.
func endpointParts(recs []Record, slo SLO, ps []float64, window float64) []Part {
	var order []string
	by := map[string][]Record{}
	for _, r := range recs {
		if r.Endpoint == "" {
			continue
		}
		if _, ok := by[r.Endpoint]; !ok {
			order = append(order, r.Endpoint)
		}
		by[r.Endpoint] = append(by[r.Endpoint], r)
	}
	out := make([]Part, len(order))
	for i, e := range order {
		out[i] = partOf(e, aggregate(by[e], slo, ps, window))
	}
	return out
}
