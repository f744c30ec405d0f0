package bench

import (
	"time"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/sut"
)

// reqRec is what is known of one request; the pool's worker writes the
// times (sut.Tracer), the completer the answer, and the driver reads it
// once the request's index arrives on done.
type reqRec struct {
	conv, turn  int
	endpoint    int       // the last attempt's, an index in the target's URLs
	sent        time.Time // the last attempt
	first, last time.Time // first and latest event carrying output (answer or reasoning)
	finished    time.Time
	prevOut     int
	itl         []float64 // ms
	prompt      int
	output      int64
	failed      bool
	reason, msg string
	reply       []byte // the answer text, kept for multi-turn

	// The reasoning (protocol.Parts): firstAnswer is the first event
	// carrying answer text, lastThought the last carrying reasoning
	// text, thoughts how many events did, thinkTokens the reasoning
	// tokens the usage reports (-1: not said), apart whether the
	// protocol told answer and reasoning apart.
	firstAnswer, lastThought time.Time
	thoughts                 int
	thinkTokens              int64
	apart                    bool
}

// collector is the pool's Completer, Tracer and failure sink.
type collector struct {
	recs      []reqRec
	keepReply bool
	done      chan int
	parts     protocol.PartsReader // nil: the API tells nothing apart
}

func newCollector(n int, keepReply bool, api protocol.Protocol) *collector {
	c := &collector{recs: make([]reqRec, n), keepReply: keepReply, done: make(chan int, n)}
	c.parts, _ = api.(protocol.PartsReader)
	return c
}

func (c *collector) Sent(qs loadgen.QuerySample, endpoint int) {
	r := &c.recs[qs.Index]
	*r = reqRec{conv: r.conv, turn: r.turn, sent: time.Now(), prompt: -1, thinkTokens: -1, itl: r.itl[:0], endpoint: endpoint}
}

// Received times the events that carry output, the answer's or the
// reasoning's (as vllm bench serve times content and reasoning deltas
// alike), and reads the prompt and reasoning token counts.
func (c *collector) Received(qs loadgen.QuerySample, output int, data []byte) {
	now := time.Now()
	r := &c.recs[qs.Index]
	p := protocol.NoParts
	if c.parts != nil {
		p = c.parts.ReadParts(data)
	}
	grew := output > r.prevOut
	if grew || p.Reasoning > 0 {
		if r.first.IsZero() {
			r.first = now
		} else {
			r.itl = append(r.itl, float64(now.Sub(r.last))/1e6)
		}
		r.last = now
	}
	r.prevOut = max(r.prevOut, output)
	if p.Reasoning > 0 {
		r.thoughts++
		r.lastThought = now
	}
	r.apart = r.apart || p.Answer >= 0 || p.Reasoning > 0
	// Where the protocol tells the answer apart, its text says; else the
	// output is the answer.
	if r.firstAnswer.IsZero() && (p.Answer > 0 || (p.Answer < 0 && grew)) {
		r.firstAnswer = now
	}
	if p.PromptTokens >= 0 {
		r.prompt = int(p.PromptTokens)
	}
	if p.ReasoningTokens >= 0 {
		r.thinkTokens = p.ReasoningTokens
	}
}

func (c *collector) Finished(qs loadgen.QuerySample) {
	c.recs[qs.Index].finished = time.Now()
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
