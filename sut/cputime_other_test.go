//go:build !unix

package sut

import "time"

// cpuTimeKnown: the pool benchmarks measure with getrusage, so they skip
// here.
const cpuTimeKnown = false

func cpuTime() time.Duration { return 0 }
