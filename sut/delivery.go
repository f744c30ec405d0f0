package sut

import (
	"errors"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/loadgen"
)

// maxBatch bounds one Completer call.
const maxBatch = 1024

// event is one response on its way to the Completer.
type event struct {
	first bool
	resp  loadgen.Response
	buf   *[]byte // returned to bufPool once the Completer has copied it
	// timed events carry the sample's stamps into the latency breakdown
	// (failures do not).
	timed bool
	t     stamps
}

// delivery hands the workers' responses to the Completer in batches (see
// emit) and times each call into the latency breakdown.
type delivery struct {
	completer loadgen.Completer
	clk       clock
	lat       *latencyBook
	log       *zap.Logger
	// maxLogged is how many refusals are logged at Error level
	// (Config.MaxFailureRecords).
	maxLogged int64

	mu             sync.Mutex
	pending, spare []event
	flushing       bool
	firsts, finals []loadgen.Response

	// refused counts the Completer's refusals other than those after an
	// aborted test (Stats.CompleterErrors).
	refused atomic.Int64
}

// emit hands a response to the Completer. Rather than a goroutine of its
// own (one more wake-up per response), delivery is done by whichever
// worker finds nobody delivering: it takes everything pending, makes one
// call per kind, and repeats until nothing is left, while workers that
// finish meanwhile only append. So calls are serialised, batches grow with
// load, and no response waits for a timer. First tokens go before
// completions in every batch, so a sample's FirstTokenComplete always
// precedes its QuerySamplesComplete (the worker emits them in that order).
//
// A response may wait for the delivering worker's thread when the kernel
// runs another one (two Ps on one core, run/procs.go). Handing every
// response to the Completer from its own worker instead was measured for
// issue 29: no gain at Server's p99 (the report parts' p99 0.66 against
// 0.78 ms, medians of seven and four runs at 200 QPS), and 12% more harness
// CPU per sample in Offline (124 against 111 µs, three alternated runs),
// each call waking LoadGen's bridge.
func (d *delivery) emit(ev event) {
	d.mu.Lock()
	d.pending = append(d.pending, ev)
	if d.flushing {
		d.mu.Unlock()
		return
	}
	d.flushing = true
	for len(d.pending) > 0 {
		batch := d.pending
		d.pending = d.spare[:0]
		d.mu.Unlock()
		d.deliver(batch)
		clear(batch)
		d.mu.Lock()
		d.spare = batch[:0]
	}
	d.flushing = false
	d.mu.Unlock()
}

// deliver makes the Completer calls for one batch of events, at most
// maxBatch responses per call, and recycles their buffers.
func (d *delivery) deliver(batch []event) {
	for len(batch) > 0 {
		part := batch[:min(len(batch), maxBatch)]
		batch = batch[len(part):]
		firsts, finals := d.firsts[:0], d.finals[:0]
		for i := range part {
			if part[i].first {
				firsts = append(firsts, part[i].resp)
			} else {
				finals = append(finals, part[i].resp)
			}
		}
		var firstAt, finalAt int64
		if len(firsts) > 0 {
			if err := d.completer.FirstTokenComplete(firsts); err != nil {
				d.refusal("FirstTokenComplete", err)
			}
			firstAt = d.clk.now()
		}
		if len(finals) > 0 {
			if err := d.completer.QuerySamplesComplete(finals); err != nil {
				d.refusal("QuerySamplesComplete", err)
			}
			finalAt = d.clk.now()
		}
		for i := range part {
			if ev := &part[i]; ev.timed {
				at := finalAt
				if ev.first {
					at = firstAt
				}
				d.lat.reported(&ev.t, ev.first, at)
			}
		}
		for i := range part {
			if part[i].buf != nil {
				putBuf(part[i].buf)
			}
		}
		clear(firsts)
		clear(finals)
		d.firsts, d.finals = firsts[:0], finals[:0]
	}
}

// failAll completes samples with empty responses at once, outside the
// batches (samples issued after Close, which no worker serves): an empty
// first token each too when streaming.
func (d *delivery) failAll(samples []loadgen.QuerySample, stream bool) {
	resps := make([]loadgen.Response, len(samples))
	for i, qs := range samples {
		resps[i] = loadgen.Response{ID: qs.ID}
	}
	if stream {
		if err := d.completer.FirstTokenComplete(resps); err != nil {
			d.refusal("FirstTokenComplete", err)
		}
	}
	if err := d.completer.QuerySamplesComplete(resps); err != nil {
		d.refusal("QuerySamplesComplete", err)
	}
}

// refusal notes responses LoadGen refused. After an abort that is
// expected (the abort completed every sample already, and answers still
// arrive), so it is only noted at debug level; otherwise it is a harness
// bug that Stats.CompleterErrors reports and that makes the run invalid.
func (d *delivery) refusal(call string, err error) {
	if errors.Is(err, loadgen.ErrAborted) {
		d.log.Debug("responses arrived after the test was aborted", zap.String("call", call), zap.Error(err))
		return
	}
	if d.refused.Add(1) <= d.maxLogged {
		d.log.Error("completer rejected responses", zap.String("call", call), zap.Error(err))
	}
}
