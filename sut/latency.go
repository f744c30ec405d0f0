package sut

import (
	"io"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/lathist"
)

// Where each sample's time went. Every successful sample is stamped with a
// few monotonic clock readings (nanoseconds since the pool started) as it
// passes through the pool, and the time between them is added to one
// histogram per part (package lathist: an atomic add each, no allocation).
// A part is the harness's own or the endpoint's; the endpoint's parts also
// hold the network and the kernel, and the time until this process read
// what the server had sent.
//
//	issued   IssueQuery received the sample
//	free     a worker was free for it: at once, or when one finished the
//	         sample it was serving (all Config.Concurrency busy until then)
//	taken    a worker took it from the queue
//	written  net/http wrote the request's last byte to the connection
//	first    the body read that completed the first token's event returned
//	last     the body read that completed the response returned
//	reported the Completer call carrying the first token (or the final
//	         response) returned
//
// LoadGen's own clock starts earlier and stops later: its issue thread and
// the bridge hand the sample to IssueQuery, and the Completer queues the
// response for the bridge's goroutine, which calls LoadGen (package
// loadgen). Comparing these parts with LoadGen's TTFT and latency shows
// that hop.

// Part names one span of a sample's time (see LatencyParts).
type Part int

// The parts, in a sample's order; the last four are sums per sample.
const (
	// PartSlot: issued to free, waiting while every worker was serving
	// another sample. It is the concurrency limit's (Config.Concurrency,
	// the endpoint's pace), not the harness's work: in Offline, where
	// LoadGen issues every sample at once, it is most of each sample's
	// latency.
	PartSlot Part = iota
	// PartQueue: free to taken (waking a worker, the queue's lock).
	PartQueue
	// PartSend: taken to written (an endpoint and a connection chosen, the
	// request written; retries' waits included).
	PartSend
	// PartEndpointFirst: written to the first token's event read (streams).
	PartEndpointFirst
	// PartReportFirst: first token read to its FirstTokenComplete returned.
	PartReportFirst
	// PartEndpointRest: first token read to the response's last byte read
	// (streams), or written to the last byte read (plain responses).
	PartEndpointRest
	// PartReportLast: last byte read to QuerySamplesComplete returned.
	PartReportLast
	// PartHarnessFirst: queue + send + report-first of one sample: what the
	// pool added to its time to first token.
	PartHarnessFirst
	// PartHarnessLast: queue + send + report-last of one sample: what the
	// pool added to its latency.
	PartHarnessLast
	// PartTTFT: issued to first token reported, the pool's view of TTFT.
	PartTTFT
	// PartLatency: issued to final response reported.
	PartLatency
	numParts
)

// PartInfo describes a Part for records and reports.
type PartInfo struct {
	// Name is the part's key in records ("queue", "send", …).
	Name string
	// Harness is true for time the harness owns, false for time that
	// includes the endpoint (and the network), or waits for it.
	Harness bool
	// Owner says who owns the time, for people: "harness", "endpoint",
	// "concurrency limit", or for sums "harness (sum)" and "total".
	Owner string
	// Sum is true for a per-sample total of other parts.
	Sum bool
	// What says what the part spans.
	What string
}

// partInfo is every Part's description, by Part.
var partInfo = [numParts]PartInfo{
	PartSlot:          {"slot_wait", false, "concurrency limit", false, "IssueQuery received the sample -> a worker was free for it (every --concurrency worker was serving another sample until then)"},
	PartQueue:         {"queue", true, "harness", false, "a worker was free for the sample -> it took it"},
	PartSend:          {"send", true, "harness", false, "a worker took it -> the request was written"},
	PartEndpointFirst: {"endpoint_first_token", false, "endpoint", false, "request written -> the first token's bytes were read"},
	PartReportFirst:   {"report_first_token", true, "harness", false, "first token read -> FirstTokenComplete handed to LoadGen's bridge"},
	PartEndpointRest:  {"endpoint_rest", false, "endpoint", false, "first token read (plain responses: request written) -> last byte read"},
	PartReportLast:    {"report_completion", true, "harness", false, "last byte read -> QuerySamplesComplete handed to LoadGen's bridge"},
	PartHarnessFirst:  {"harness_first_token", true, "harness (sum)", true, "queue + send + report_first_token, per sample: what the pool adds to TTFT"},
	PartHarnessLast:   {"harness_completion", true, "harness (sum)", true, "queue + send + report_completion, per sample: what the pool adds to latency"},
	PartTTFT:          {"ttft", false, "total", true, "IssueQuery -> FirstTokenComplete returned: the pool's view of TTFT"},
	PartLatency:       {"latency", false, "total", true, "IssueQuery -> QuerySamplesComplete returned: the pool's view of latency"},
}

// Info describes p.
func (p Part) Info() PartInfo { return partInfo[p] }

// Parts lists every Part in order.
func Parts() []Part {
	ps := make([]Part, numParts)
	for i := range ps {
		ps[i] = Part(i)
	}
	return ps
}

// stamps are one sample's clock readings (Pool.clk), 0 while not yet
// taken.
type stamps struct {
	issued, free, taken, written, first, last int64
}

// latencyBook is the pool's histograms, one per Part.
type latencyBook [numParts]lathist.Histogram

// reported records a sample's parts once its Completer call returned at
// now: the first token's (first) or the final response's.
func (b *latencyBook) reported(s *stamps, first bool, now int64) {
	slot, wait, send := s.free-s.issued, s.taken-s.free, s.written-s.taken
	if first {
		b[PartSlot].Record(slot)
		b[PartQueue].Record(wait)
		b[PartSend].Record(send)
		b[PartEndpointFirst].Record(s.first - s.written)
		b[PartReportFirst].Record(now - s.first)
		b[PartHarnessFirst].Record(wait + send + now - s.first)
		b[PartTTFT].Record(now - s.issued)
		return
	}
	if s.first == 0 { // a plain response: slot, queue and send are counted here
		b[PartSlot].Record(slot)
		b[PartQueue].Record(wait)
		b[PartSend].Record(send)
		b[PartEndpointRest].Record(s.last - s.written)
	} else {
		b[PartEndpointRest].Record(s.last - s.first)
	}
	b[PartReportLast].Record(now - s.last)
	b[PartHarnessLast].Record(wait + send + now - s.last)
	b[PartLatency].Record(now - s.issued)
}

// Breakdown is where the successful samples' time went, part by part (see
// Part): each part's distribution in nanoseconds.
type Breakdown struct {
	// Parts are by Part, every one present (with count 0 when no sample
	// had it, e.g. first-token parts without streaming).
	Parts [numParts]lathist.Summary
}

// Latency returns the breakdown of the samples completed so far.
func (p *Pool) Latency() Breakdown {
	var b Breakdown
	for i := range p.lat {
		b.Parts[i] = p.lat[i].Snapshot().Summary()
	}
	return b
}

// Clock tells the pool the time, as zapcore.Clock tells zap: the system's
// by default (Config.Clock nil). A test gives its own, so that the latency
// breakdown reads what the test says time did, not this machine's speed.
type Clock interface {
	Now() time.Time
}

// systemClock is time.Now (monotonic).
type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// clock is the pool's monotonic clock, started by New.
type clock struct {
	src   Clock
	epoch time.Time
}

// newClock starts a clock reading src (nil: the system's).
func newClock(src Clock) clock {
	if src == nil {
		src = systemClock{}
	}
	return clock{src: src, epoch: src.Now()}
}

// now is the time in nanoseconds since New.
func (c clock) now() int64 { return int64(c.src.Now().Sub(c.epoch)) }

// stampReader notes when each read of a response body returned, so the
// pool knows when the bytes of an event reached it rather than when it got
// round to decoding them. One per worker, reused.
type stampReader struct {
	r   io.Reader
	clk clock
	at  int64 // clk.now() after the last Read
}

func (s *stampReader) Read(b []byte) (int, error) {
	n, err := s.r.Read(b)
	s.at = s.clk.now()
	return n, err
}
