package bench

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Shard makes a process one of Count that send a workload together, from
// several hosts (mlperf-go bench merge joins their results): process Index
// (0-based) sends the conversations i with i mod Count = Index, each at
// its arrival time in the whole workload, with its share of each load
// point's concurrency. The union of the shards is the whole workload at
// the whole load, as one process would send it.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// ParseShard reads "I/N" (--shard): shard I of N, 0 <= I < N.
func ParseShard(s string) (*Shard, error) {
	i, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	a, err1 := strconv.Atoi(i)
	b, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || b < 1 || a < 0 || a >= b {
		return nil, fmt.Errorf("--shard %q: want I/N, this process's index (from 0) of N, e.g. 0/4 (Slurm: $SLURM_PROCID/$SLURM_NTASKS)", s)
	}
	return &Shard{Index: a, Count: b}, nil
}

func (s *Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// owns reports whether the shard sends conversation i (every one when s
// is nil).
func (s *Shard) owns(i int) bool { return s == nil || i%s.Count == s.Index }

// concurrency is the shard's part of a load point's cap c (0: none): c
// split as evenly as it goes, the first c mod Count shards one more.
func (s *Shard) concurrency(c int) int {
	if s == nil || c == 0 {
		return c
	}
	n := c / s.Count
	if s.Index < c%s.Count {
		n++
	}
	return n
}

// check says why the load points cannot be shared among the shards.
func (s *Shard) check(loads []Load, conversations int) error {
	if s == nil {
		return nil
	}
	if conversations < s.Count {
		return fmt.Errorf("--shard %s: the workload has %d conversations, fewer than the %d processes sharing it", s, conversations, s.Count)
	}
	for _, l := range loads {
		if l.Concurrency > 0 && l.Concurrency < s.Count {
			return fmt.Errorf("--shard %s: --concurrency %d is the whole job's, shared among %d processes: give at least %d, one each", s, l.Concurrency, s.Count, s.Count)
		}
	}
	return nil
}

// shardArrivals are the arrival times of the conversations the shard
// sends, as they fall in the whole workload of n conversations.
func shardArrivals(s *Shard, l Load, n int, seed uint64) []time.Duration {
	at := arrivals(l, n, seed)
	if s == nil {
		return at
	}
	var out []time.Duration
	for i, t := range at {
		if s.owns(i) {
			out = append(out, t)
		}
	}
	return out
}

// shardOf is the part of w the shard sends (w itself when s is nil): its
// conversations, in order, the rest of w alike.
func shardOf(w *Workload, s *Shard) *Workload {
	if s == nil {
		return w
	}
	part := *w
	part.Conversations = nil
	for i := range w.Conversations {
		if s.owns(i) {
			part.Conversations = append(part.Conversations, w.Conversations[i])
		}
	}
	return &part
}
