//go:build !unix

package run

import "time"

// cpuTimeKnown: the CPU benchmarks measure with getrusage, so they skip
// here.
const cpuTimeKnown = false

func cpuSplit() (user, sys time.Duration) { return 0, 0 }
