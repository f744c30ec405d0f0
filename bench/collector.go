package bench

import (
	"bytes"
	"strconv"
	"sync"
	"time"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/sut"
)

// reqRec is what is known of one request; the pool's worker writes the
// times (sut.Tracer), the completer the answer, and the driver reads it
// once the request's index arrives on done.
type reqRec struct {
	conv, turn  int
	sent        time.Time // the last attempt
	first, last time.Time // first and latest event carrying output
	finished    time.Time
	prevOut     int
	itl         []float64 // ms
	prompt      int
	output      int64
	failed      bool
	reason, msg string
	reply       []byte // the answer text, kept for multi-turn
}

// collector is the pool's Completer, Tracer and failure sink.
type collector struct {
	recs      []reqRec
	keepReply bool
	done      chan int

	mu        sync.Mutex
	inFlight  int
	maxFlight int
}

func newCollector(n int, keepReply bool) *collector {
	return &collector{recs: make([]reqRec, n), keepReply: keepReply, done: make(chan int, n)}
}

func (c *collector) Sent(qs loadgen.QuerySample) {
	r := &c.recs[qs.Index]
	if r.sent.IsZero() {
		c.mu.Lock()
		c.inFlight++
		c.maxFlight = max(c.maxFlight, c.inFlight)
		c.mu.Unlock()
	}
	*r = reqRec{conv: r.conv, turn: r.turn, sent: time.Now(), prompt: -1, itl: r.itl[:0]}
}

var promptKey = []byte(`"prompt_tokens":`)

func (c *collector) Received(qs loadgen.QuerySample, output int, data []byte) {
	now := time.Now()
	r := &c.recs[qs.Index]
	if output > r.prevOut {
		if r.first.IsZero() {
			r.first = now
		} else {
			r.itl = append(r.itl, float64(now.Sub(r.last))/1e6)
		}
		r.last, r.prevOut = now, output
	}
	if i := bytes.LastIndex(data, promptKey); i >= 0 {
		rest := bytes.TrimLeft(data[i+len(promptKey):], " ")
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if n, err := strconv.Atoi(string(rest[:j])); err == nil {
			r.prompt = n
		}
	}
}

func (c *collector) Finished(qs loadgen.QuerySample) {
	r := &c.recs[qs.Index]
	r.finished = time.Now()
	if !r.sent.IsZero() {
		c.mu.Lock()
		c.inFlight--
		c.mu.Unlock()
	}
}

func (c *collector) onFailure(f sut.Failure) {
	r := &c.recs[f.Index]
	r.failed, r.reason, r.msg = true, f.Reason, f.Message
	if r.finished.IsZero() { // failed before it was sent (closed, cancelled)
		r.finished = time.Now()
	}
}

func (c *collector) FirstTokenComplete([]loadgen.Response) error { return nil }

func (c *collector) QuerySamplesComplete(rs []loadgen.Response) error {
	for _, resp := range rs {
		i := int(resp.ID - 1)
		r := &c.recs[i]
		r.output = resp.NTokens
		if c.keepReply && !r.failed {
			r.reply = append(r.reply[:0], resp.Data...)
		}
		c.done <- i
	}
	return nil
}
