//go:build unix

package run

import (
	"syscall"
	"time"
)

// cpuTimeKnown: getrusage gives the process's CPU time here.
const cpuTimeKnown = true

// cpuSplit returns the process's user and system CPU time.
func cpuSplit() (user, sys time.Duration) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}
