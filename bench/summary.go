package bench

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// summarize turns the collector's records into the run's figures, as
// vllm bench serve's calculate_metrics does, and the per-request records.
func (r *runner) summarize() (RunResult, []Record) {
	run := RunResult{Target: r.target.Name, Load: r.load, Label: r.load.String(), Sent: r.issued,
		Skipped: r.skipped, Failures: map[string]int{}, MaxConcurrent: r.col.maxFlight}
	recs := make([]Record, r.total)
	var ttft, tpot, itl, e2el, ttfat, thinkTPOT, answerTPOT []float64
	var end time.Time
	var images, good int
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	slo := r.o.SLO
	for i := range r.total {
		rec := &r.col.recs[i]
		conv := &r.w.Conversations[rec.conv]
		turn := &conv.Turns[rec.turn]
		prompt := rec.prompt
		if prompt < 0 && turn.PromptTokens > 0 {
			prompt = turn.PromptTokens
		}
		out := Record{Conversation: conv.ID, Turn: rec.turn, MaxTokens: turn.MaxTokens, Images: turn.Images,
			OK: !rec.failed, Reason: rec.reason, Error: rec.msg, PromptTokens: prompt, OutputTokens: rec.output,
			PrefixGroup: turn.PrefixGroup, PrefixShare: turn.PrefixShare}
		if !rec.sent.IsZero() {
			out.SentS = rec.sent.Sub(r.start).Seconds()
		}
		if rec.finished.After(end) {
			end = rec.finished
		}
		if rec.sent.IsZero() && !rec.failed { // skipped
			out.OK, out.Reason = false, "skipped"
			recs[i] = out
			continue
		}
		if rec.failed {
			run.Failed++
			run.Failures[rec.reason]++
			recs[i] = out
			continue
		}
		run.Completed++
		images += turn.Images
		e := rec.finished.Sub(rec.sent)
		out.E2ELms = ms(e)
		e2el = append(e2el, out.E2ELms)
		var reqTPOT float64
		if !rec.first.IsZero() {
			out.TTFTms = ms(rec.first.Sub(rec.sent))
			ttft = append(ttft, out.TTFTms)
			if rec.output > 1 {
				reqTPOT = (out.E2ELms - out.TTFTms) / float64(rec.output-1)
				out.TPOTms = reqTPOT
				tpot = append(tpot, reqTPOT)
			}
		}
		out.ITLms = append([]float64(nil), rec.itl...)
		itl = append(itl, rec.itl...)
		if think := r.reasoning(rec); think > 0 || rec.thoughts > 0 {
			run.ReasoningRequests++
			run.ReasoningTokens += think
			if think == 0 {
				run.ReasoningUncounted++
			}
			out.ReasoningTokens = think
			if think > 1 && rec.thoughts > 0 {
				out.ReasoningTPOTms = ms(rec.lastThought.Sub(rec.first)) / float64(think-1)
				thinkTPOT = append(thinkTPOT, out.ReasoningTPOTms)
			}
			if rec.apart && !rec.firstAnswer.IsZero() {
				out.TTFATms = ms(rec.firstAnswer.Sub(rec.sent))
				ttfat = append(ttfat, out.TTFATms)
				if answer := rec.output - think; answer > 1 {
					out.AnswerTPOTms = ms(rec.finished.Sub(rec.firstAnswer)) / float64(answer-1)
					answerTPOT = append(answerTPOT, out.AnswerTPOTms)
				}
			}
		}
		if prompt > 0 {
			run.PromptTokens += int64(prompt)
		}
		run.OutputTokens += rec.output
		if slo.Set() && (slo.TTFT == 0 || out.TTFTms <= ms(slo.TTFT)) && (slo.TPOT == 0 || reqTPOT <= ms(slo.TPOT)) &&
			(slo.E2EL == 0 || out.E2ELms <= ms(slo.E2EL)) {
			good++
		}
		recs[i] = out
	}
	if end.After(r.start) {
		run.DurationS = end.Sub(r.start).Seconds()
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
	ps := r.o.Percentiles
	run.TTFT, run.TPOT, run.ITL, run.E2EL = summarize(ttft, ps), summarize(tpot, ps), summarize(itl, ps), summarize(e2el, ps)
	if run.ReasoningRequests > 0 {
		run.MeanReasoningTokens = float64(run.ReasoningTokens) / float64(run.Completed)
		run.TTFAT, run.ReasoningTPOT, run.AnswerTPOT = summarizeP(ttfat, ps), summarizeP(thinkTPOT, ps), summarizeP(answerTPOT, ps)
	}
	return run, recs
}

// reasoning is a completed request's reasoning tokens: the usage's count,
// else (streamed) one an event that carried reasoning, else none.
func (r *runner) reasoning(rec *reqRec) int64 {
	switch {
	case rec.thinkTokens >= 0:
		return min(rec.thinkTokens, rec.output)
	case r.o.Stream:
		return min(int64(rec.thoughts), rec.output)
	}
	return 0
}

// summarizeP is summarize's Dist, by pointer.
func summarizeP(v, ps []float64) *Dist {
	d := summarize(v, ps)
	return &d
}

// progress shows the run's progress until the returned function is
// called (once or more).
func (r *runner) progress() func() {
	w := r.o.Progress
	if w == nil {
		return func() {}
	}
	every := r.o.ProgressInterval
	if r.o.ProgressTTY {
		every = 200 * time.Millisecond
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	t0 := time.Now()
	go func() {
		defer close(done)
		tk := time.NewTicker(every)
		defer tk.Stop()
		for {
			select {
			case <-stop:
				if r.o.ProgressTTY {
					r.progressLine(w, t0)
					fmt.Fprintln(w)
				}
				return
			case <-tk.C:
				r.progressLine(w, t0)
			}
		}
	}()
	var once bool
	return func() {
		if !once {
			once = true
			close(stop)
			<-done
		}
	}
}

// progressLine writes one progress report: a bar redrawn in place on a
// terminal, a plain line otherwise.
func (r *runner) progressLine(w io.Writer, t0 time.Time) {
	p := r.pool.Progress()
	warm := int64(r.o.Warmup)
	doneN := max(p.Completed-warm, 0)
	total := int64(r.total)
	el := time.Since(t0).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(doneN) / el
	}
	eta := "?"
	if rate > 0 {
		eta = (time.Duration(float64(total-doneN)/rate) * time.Second).Round(time.Second).String()
	}
	head := fmt.Sprintf("%s %s", r.target.Name, r.load)
	tail := fmt.Sprintf("%d/%d %.1f req/s in flight %d failed %d ETA %s", doneN, total, rate, p.InFlight, p.Failed, eta)
	if !r.o.ProgressTTY {
		fmt.Fprintf(w, "%s: %s\n", head, tail)
		return
	}
	const width = 30
	fill := 0
	if total > 0 {
		fill = int(doneN * width / total)
	}
	fmt.Fprintf(w, "\r%s [%s%s] %3.0f%% %s ", head, strings.Repeat("#", fill), strings.Repeat(".", width-fill),
		100*float64(doneN)/float64(max(total, 1)), tail)
}
