package bench

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/redact"
)

// summarize turns the collector's records into the run's requests, then
// its figures (aggregate, as vllm bench serve's calculate_metrics
// computes them).
func (r *runner) summarize() (RunResult, []Record) {
	recs := make([]Record, r.total)
	for i := range r.total {
		recs[i] = r.record(i)
	}
	run := aggregate(recs, r.o.SLO, r.o.Percentiles, 0)
	run.Target, run.Load, run.Label, run.StartUnixNs = r.target.Name, r.load, r.load.String(), r.start.UnixNano()
	if len(r.target.URLs) > 1 {
		run.Endpoints = endpointParts(recs, r.o.SLO, r.o.Percentiles, run.DurationS)
	}
	return run, recs
}

// record is request i as the requests JSONL keeps it: times from the
// run's start, its latencies and token counts.
func (r *runner) record(i int) Record {
	rec := &r.col.recs[i]
	conv := &r.w.Conversations[rec.conv]
	turn := &conv.Turns[rec.turn]
	prompt := rec.prompt
	if prompt < 0 && turn.PromptTokens > 0 {
		prompt = turn.PromptTokens
	}
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	out := Record{Conversation: conv.ID, Turn: rec.turn, MaxTokens: turn.MaxTokens, Images: turn.Images,
		OK: !rec.failed, Reason: rec.reason, Error: rec.msg, PromptTokens: prompt, OutputTokens: rec.output,
		PrefixGroup: turn.PrefixGroup, PrefixShare: turn.PrefixShare}
	if rec.sent.IsZero() && !rec.failed {
		out.OK, out.Reason = false, ReasonSkipped
		return out
	}
	if !rec.sent.IsZero() {
		out.SentS = rec.sent.Sub(r.start).Seconds()
		out.Endpoint = shownURL(r.target.URLs[rec.endpoint])
	}
	if !rec.finished.IsZero() {
		out.EndS = rec.finished.Sub(r.start).Seconds()
	}
	if rec.failed {
		return out
	}
	out.E2ELms = ms(rec.finished.Sub(rec.sent))
	if !rec.first.IsZero() {
		out.TTFTms = ms(rec.first.Sub(rec.sent))
		if rec.output > 1 {
			out.TPOTms = (out.E2ELms - out.TTFTms) / float64(rec.output-1)
		}
	}
	out.ITLms = append([]float64(nil), rec.itl...)
	if think := r.reasoning(rec); think > 0 || rec.thoughts > 0 {
		out.Reasoned, out.ReasoningTokens = true, think
		if think > 1 && rec.thoughts > 0 {
			out.ReasoningTPOTms = ms(rec.lastThought.Sub(rec.first)) / float64(think-1)
		}
		if rec.apart && !rec.firstAnswer.IsZero() {
			out.TTFATms = ms(rec.firstAnswer.Sub(rec.sent))
			if answer := rec.output - think; answer > 1 {
				out.AnswerTPOTms = ms(rec.finished.Sub(rec.firstAnswer)) / float64(answer-1)
			}
		}
	}
	return out
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

// shownURL is a target URL as results show it: without a key.
func shownURL(u string) string { return redact.URL(u) }

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
