package sut

import (
	"fmt"
	"io"
	"sync/atomic"

	"github.com/mlperf-go/mlperf-go/protocol"
)

// memBudget bounds the bytes the responses in flight hold together
// (Config.MaxBufferedBytes). Each response reserves what its buffers grow
// to and gives it back when it is done.
type memBudget struct {
	limit int64
	used  atomic.Int64
	peak  atomic.Int64
}

// hold tracks one response's share of the budget.
type hold struct {
	b    *memBudget
	held int64
}

// growTo reserves up to n bytes held in all by this response; false (and
// nothing reserved) when that would pass the pool's limit.
func (h *hold) growTo(n int64) bool {
	if n <= h.held {
		return true
	}
	d := n - h.held
	used := h.b.used.Add(d)
	if used > h.b.limit {
		h.b.used.Add(-d)
		return false
	}
	for {
		p := h.b.peak.Load()
		if used <= p || h.b.peak.CompareAndSwap(p, used) {
			break
		}
	}
	h.held = n
	return true
}

// release gives back what the response held.
func (h *hold) release() {
	h.b.used.Add(-h.held)
	h.held = 0
}

// overBudget is the failure of a response that would take the responses in
// flight past the pool's memory bound.
func (p *Pool) overBudget(n int64) *failure {
	return fail(ReasonTooLarge, fmt.Errorf("%w: this response would take the responses in flight past %d bytes of memory (it held %d); a server sending huge or endless answers to many requests at once - raise the buffered-bytes limit if the answers are right", protocol.ErrTooLarge, p.mem.limit, n))
}

// budgetReader reserves what reading a body into a growing buffer costs:
// twice the bytes read, as a doubling buffer may hold.
type budgetReader struct {
	r    io.Reader
	h    *hold
	n    int64
	over bool
}

func (br *budgetReader) Read(b []byte) (int, error) {
	k, err := br.r.Read(b)
	br.n += int64(k)
	if !br.h.growTo(2 * br.n) {
		br.over = true
		return k, errOverBudget
	}
	return k, err
}

var errOverBudget = fmt.Errorf("over the memory budget")
