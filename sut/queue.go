package sut

import (
	"sync"
	"sync/atomic"

	"github.com/mlperf-go/mlperf-go/loadgen"
)

// pending is a queued sample, when IssueQuery received it and when a
// worker was free for it (Pool.clk; free is 0 until known: see pop).
type pending struct {
	qs     loadgen.QuerySample
	issued int64
	free   int64
}

// queue holds the samples LoadGen issued until a worker takes one. It is
// the pool's concurrency limit: Config.Concurrency workers pop from it,
// and a sample waits here while every worker is serving another.
type queue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  []pending
	head   int
	closed bool
	// workers is how many workers pop (Config.Concurrency); busy counts
	// those serving a sample (taken in pop, given back when the worker
	// comes back to pop), so push knows whether a sample has a free worker
	// at once or must wait for one.
	workers, busy int
	// waiting counts the samples queued, for Progress without the lock.
	waiting atomic.Int64
}

func newQueue(workers int) *queue {
	q := &queue{workers: workers}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// push queues samples issued at now (Pool.clk) and wakes workers for
// them; false, and nothing queued, once the queue is closed.
func (q *queue) push(samples []loadgen.QuerySample, now int64) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return false
	}
	if q.head == len(q.items) {
		q.items, q.head = q.items[:0], 0
	}
	// A sample with a free worker ahead of it (workers not serving, more
	// than the samples queued before it) has one now; the others wait for
	// a worker to finish (the concurrency limit), and pop says when.
	free, ahead := q.workers-q.busy, len(q.items)-q.head
	for i, qs := range samples {
		ps := pending{qs: qs, issued: now}
		if ahead+i < free {
			ps.free = now
		}
		q.items = append(q.items, ps)
	}
	q.waiting.Add(int64(len(samples)))
	if len(samples) == 1 {
		q.cond.Signal()
	} else {
		q.cond.Broadcast()
	}
	return true
}

// pop blocks for the next queued sample; false means the queue is closed
// and drained. served says the worker comes back from serving a sample,
// looked when (Pool.clk): a sample that had no free worker when it was
// issued got one then, if it was issued before.
func (q *queue) pop(served bool, looked int64) (pending, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if served {
		q.busy--
	}
	for q.head == len(q.items) {
		if q.closed {
			return pending{}, false
		}
		q.cond.Wait()
	}
	ps := q.items[q.head]
	q.head++
	q.busy++
	q.waiting.Add(-1)
	if ps.free == 0 {
		ps.free = max(ps.issued, looked)
	}
	return ps, true
}

// close refuses further samples and lets the workers return once what is
// queued is taken.
func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.cond.Broadcast()
	q.mu.Unlock()
}

// wake wakes every idle worker, so that after a cancellation queued
// samples are taken, and fail, promptly.
func (q *queue) wake() {
	q.mu.Lock()
	q.cond.Broadcast()
	q.mu.Unlock()
}
