//go:build cgo && !linux

package loadgen

import "sync/atomic"

// gettid is unknown here: a distinct value per call keeps the
// different-threads check from failing spuriously.
var tidSeq atomic.Int64

func gettid() int { return int(tidSeq.Add(1)) }
