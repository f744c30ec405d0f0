package bench

import (
	"container/heap"
	"context"
	"fmt"
	"net/http"
	"time"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/engine"
	"github.com/mlperf-go/mlperf-go/internal/redact"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/sut"
)

// Run sends the workload to every target at every load point (load-major,
// so targets alternate and drift in the machine's state touches each
// alike) and returns the results and each run's request records.
func Run(ctx context.Context, w *Workload, o Options) (*Results, [][]Record, error) {
	if err := o.defaults(); err != nil {
		return nil, nil, err
	}
	if w == nil || len(w.Conversations) == 0 {
		return nil, nil, errNoWorkload
	}
	if !o.SkipPreflight {
		if err := preflight(ctx, o); err != nil {
			return nil, nil, err
		}
	}
	b := &builder{api: o.API, model: o.Model, sampling: w.Sampling, exact: o.ExactOutput, stream: o.Stream}
	if err := b.checkAPI(w); err != nil {
		return nil, nil, err
	}
	if err := o.Shard.check(o.Loads, len(w.Conversations)); err != nil {
		return nil, nil, err
	}
	part := shardOf(w, o.Shard)
	res := &Results{Schema: SchemaVersion, Created: time.Now().UTC(), Workload: w, Requests: part.Requests(),
		Conversations: len(part.Conversations), API: o.API.Name(), Model: o.Model, Stream: o.Stream,
		ExactOutput: o.ExactOutput, Warmup: o.Warmup, Targets: shownTargets(o.Targets), Percentiles: o.Percentiles,
		Loads: o.Loads, Host: o.Host, Shard: o.Shard}
	if o.SLO.Set() {
		ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
		res.SLO = &SLOms{TTFT: ms(o.SLO.TTFT), TPOT: ms(o.SLO.TPOT), E2EL: ms(o.SLO.E2EL)}
	}
	var z *rendezvous
	if o.Rendezvous != "" {
		z = &rendezvous{dir: o.Rendezvous, shard: *o.Shard, host: o.Host, settings: settingsOf(res), timeout: o.RendezvousTimeout,
			lead: o.RendezvousLead, since: time.Now(), now: time.Now, poll: 100 * time.Millisecond}
	}
	var records [][]Record
	for _, l := range o.Loads {
		for _, t := range o.Targets {
			r := &runner{o: &o, w: part, all: len(w.Conversations), b: b, target: t, load: l, k: len(res.Runs), meet: z}
			run, recs, err := r.run(ctx)
			if err != nil {
				res.Interrupted = ctx.Err() != nil
				return res, records, fmt.Errorf("target %s at %s: %w", t.Name, l, err)
			}
			res.Runs = append(res.Runs, run)
			records = append(records, recs)
			if o.Finished != nil {
				if err := o.Finished(res, records); err != nil {
					return res, records, err
				}
			}
		}
	}
	return res, records, nil
}

// shownTargets are ts as results.json records them: URLs without keys
// (redact.URL), since a gateway may take its key in the query.
func shownTargets(ts []Target) []Target {
	out := make([]Target, len(ts))
	for i, t := range ts {
		out[i] = Target{Name: t.Name, URLs: redact.URLs(t.URLs)}
	}
	return out
}

// preflight checks, before anything is sent, that every target URL is up
// and serves the model, as mlperf-go run's preflight does: a dead or wrong
// endpoint costs seconds, not a sweep of failed requests.
func preflight(ctx context.Context, o Options) error {
	client := &http.Client{Timeout: 5 * time.Second}
	for _, t := range o.Targets {
		for _, u := range t.URLs {
			if err := engine.CheckServes(ctx, client, u, o.Model, o.APIKey); err != nil {
				return fmt.Errorf("target %s: %w", t.Name, err)
			}
		}
	}
	return nil
}

// runner runs one target at one load point.
type runner struct {
	o      *Options
	w      *Workload // the conversations this process sends (its shard)
	all    int       // the whole workload's conversations, whose arrivals the shard's are among
	b      *builder
	target Target
	load   Load
	k      int         // the run's number in the sweep
	meet   *rendezvous // nil: no rendezvous

	pool  *sut.Pool
	st    *store
	col   *collector
	convs []convState
	index []int // first request index of each conversation
	total int   // requests of the workload (warm-up ones come after)

	start    time.Time
	issued   int
	finished int
	skipped  int
}

// convState is a conversation's progress through its turns.
type convState struct {
	next   int    // the turn to send next
	prefix []byte // `{"messages":[` and the first turn's messages
	hist   []byte // later messages, each after a comma
}

// wake is a delayed turn (or an arrival) due at a time.
type wake struct {
	at   time.Time
	conv int
}

type wakeHeap []wake

func (h wakeHeap) Len() int           { return len(h) }
func (h wakeHeap) Less(i, j int) bool { return h[i].at.Before(h[j].at) }
func (h wakeHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *wakeHeap) Push(x any)        { *h = append(*h, x.(wake)) }
func (h *wakeHeap) Pop() any          { o := *h; x := o[len(o)-1]; *h = o[:len(o)-1]; return x }

func (r *runner) setup(ctx context.Context) error {
	convs := r.w.Conversations
	r.index = make([]int, len(convs))
	for i := range convs {
		r.index[i] = r.total
		r.total += len(convs[i].Turns)
	}
	warm := r.o.Warmup
	r.st = &store{entries: make([]entry, r.total+warm), header: r.o.SessionHeader}
	r.col = newCollector(r.total+warm, !r.w.Replay, r.o.API)
	r.convs = make([]convState, len(convs))
	for i := range convs {
		r.col.recs[r.index[i]].conv = i
		for t := range convs[i].Turns {
			r.col.recs[r.index[i]+t] = reqRec{conv: i, turn: t}
		}
		prefix, rest, err := r.b.firstBody(&convs[i])
		if err != nil {
			return fmt.Errorf("conversation %s: %w", convs[i].ID, err)
		}
		r.convs[i].prefix = prefix
		r.st.entries[r.index[i]] = entry{prefix: prefix, rest: rest, session: convs[i].ID}
	}
	for k := range warm {
		c := k % len(convs)
		e := r.st.entries[r.index[c]]
		e.session = fmt.Sprintf("warmup-%d", k)
		r.st.entries[r.total+k] = e
		r.col.recs[r.total+k] = reqRec{conv: c}
	}
	conc := r.o.Shard.concurrency(r.load.Concurrency)
	if conc == 0 {
		conc = min(len(convs), sut.MaxConcurrency)
	}
	p, err := sut.New(ctx, sut.Config{
		Endpoints: r.target.URLs, API: r.o.API, Stream: r.o.Stream, Concurrency: conc, Timeout: r.o.Timeout,
		APIKey: r.o.APIKey, Name: "mlperf-go-bench", Bodies: r.st, Completer: r.col, Tracer: r.col,
		Logger: r.o.Logger, Retries: sut.NoRetries, OnFailure: r.col.onFailure, Transport: r.o.Transport,
		MaxResponseBytes: sut.DefaultMaxResponseBytes,
	})
	if err != nil {
		return err
	}
	r.pool = p
	return nil
}

// issue sends request i.
func (r *runner) issue(i int) {
	r.issued++
	r.pool.IssueQuery([]loadgen.QuerySample{{ID: uint64(i) + 1, Index: i}})
}

func (r *runner) run(ctx context.Context) (RunResult, []Record, error) {
	if err := r.setup(ctx); err != nil {
		return RunResult{}, nil, err
	}
	defer r.pool.Close()
	stopProgress := r.progress()
	defer stopProgress()
	if err := r.warmup(ctx); err != nil {
		return RunResult{}, nil, err
	}
	// Every process of the job is past its warm-up before any starts;
	// the engine's prefix-cache counters bracket the run.
	var start time.Time
	switch {
	case r.meet != nil:
		r.o.Logger.Info("waiting at the rendezvous for the other shards", zap.String("dir", r.meet.dir), zap.Stringer("shard", r.o.Shard), zap.Int("run", r.k+1))
		var err error
		if start, err = r.meet.meet(ctx, r.k); err != nil {
			return RunResult{}, nil, err
		}
	case r.k == 0:
		start = r.o.StartAt
	}
	before := snapCache(ctx, r.target.URLs, r.o.APIKey)
	if late := time.Since(start); !start.IsZero() && late > 100*time.Millisecond {
		// The other hosts started on time: this one's part of the load
		// comes late, which the merge's window shows.
		r.o.Logger.Warn("starting after the agreed start time", zap.Time("start", start), zap.Duration("late", late))
	}
	if err := sleepUntil(ctx, start); err != nil {
		return RunResult{}, nil, err
	}
	if err := r.drive(ctx); err != nil {
		return RunResult{}, nil, err
	}
	stopProgress()
	after := snapCache(ctx, r.target.URLs, r.o.APIKey)
	run, recs := r.summarize()
	run.PrefixCache = prefixCache(recs, r.w.Replay, cacheCounters(before, after))
	return run, recs, nil
}

// warmup sends the warm-up requests together and waits for them.
func (r *runner) warmup(ctx context.Context) error {
	for k := range r.o.Warmup {
		r.issue(r.total + k)
	}
	for range r.o.Warmup {
		select {
		case <-r.col.done:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
	r.issued = 0
	return nil
}

// drive starts conversations as they arrive and their concurrency allows,
// sends each next turn once the previous one is answered (after its
// delay), and returns when every request is answered or skipped.
func (r *runner) drive(ctx context.Context) error {
	convs := r.w.Conversations
	at := shardArrivals(r.o.Shard, r.load, r.all, r.o.Seed)
	cap := r.o.Shard.concurrency(r.load.Concurrency)
	if cap == 0 {
		cap = len(convs)
	}
	r.start = time.Now()
	nextArrival, waiting, active := 0, []int{}, 0
	var delayed wakeHeap
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	send := func(c int) { // sends conversation c's next turn now or after its delay
		t := r.convs[c].next
		if d := convs[c].Turns[t].Delay; d > 0 {
			heap.Push(&delayed, wake{time.Now().Add(d), c})
			return
		}
		r.sendTurn(c)
	}
	for r.finished+r.skipped < r.total {
		now := time.Now()
		for nextArrival < len(convs) && !r.start.Add(at[nextArrival]).After(now) {
			waiting = append(waiting, nextArrival)
			nextArrival++
		}
		for active < cap && len(waiting) > 0 {
			active++
			send(waiting[0])
			waiting = waiting[1:]
		}
		for delayed.Len() > 0 && !delayed[0].at.After(now) {
			r.sendTurn(heap.Pop(&delayed).(wake).conv)
		}
		var due time.Time
		if nextArrival < len(convs) {
			due = r.start.Add(at[nextArrival])
		}
		if delayed.Len() > 0 && (due.IsZero() || delayed[0].at.Before(due)) {
			due = delayed[0].at
		}
		var tc <-chan time.Time
		if !due.IsZero() {
			timer.Reset(max(time.Until(due), 0))
			tc = timer.C
		}
		select {
		case i := <-r.col.done:
			if i >= r.total {
				continue // a warm-up answer after a cancelled wait
			}
			r.finished++
			c := r.col.recs[i].conv
			if r.answered(c, i) {
				send(c)
			} else {
				active--
			}
		case <-tc:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
		if tc != nil && !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
	return nil
}

// sendTurn builds conversation c's next turn and sends it.
func (r *runner) sendTurn(c int) {
	cs := &r.convs[c]
	conv := &r.w.Conversations[c]
	i := r.index[c] + cs.next
	if cs.next > 0 {
		rest, err := r.b.laterBody(conv, cs.next, cs.hist)
		if err != nil { // the tail was built for the first turn; only a new max_tokens can fail
			r.col.recs[i].failed, r.col.recs[i].reason, r.col.recs[i].msg = true, sut.ReasonInternal, err.Error()
			r.col.done <- i
			return
		}
		r.st.entries[i] = entry{prefix: cs.prefix, rest: rest, session: conv.ID}
	}
	r.issue(i)
}

// answered records request i of conversation c and reports whether the
// conversation has a turn left to send: the history grows by the turn's
// messages and the reply it carries (the model's, or the dataset's when
// replaying). A failed turn ends a conversation that carries the model's
// replies (there is no reply to carry); its later turns are skipped.
func (r *runner) answered(c, i int) bool {
	cs := &r.convs[c]
	conv := &r.w.Conversations[c]
	turn := &conv.Turns[cs.next]
	rec := &r.col.recs[i]
	cs.next++
	if cs.next >= len(conv.Turns) {
		return false
	}
	if rec.failed && !r.w.Replay {
		r.skipped += len(conv.Turns) - cs.next
		cs.next = len(conv.Turns)
		return false
	}
	if turn != &conv.Turns[0] {
		for _, m := range turn.Messages {
			cs.hist = append(append(cs.hist, ','), m...)
		}
	}
	if r.w.Replay {
		for _, m := range turn.Recorded {
			cs.hist = append(append(cs.hist, ','), m...)
		}
	} else {
		cs.hist = assistantMessage(append(cs.hist, ','), string(rec.reply))
	}
	return true
}
