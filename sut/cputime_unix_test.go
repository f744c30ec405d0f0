//go:build unix

package sut

import (
	"syscall"
	"time"
)

// cpuTimeKnown: getrusage gives the process's CPU time here.
const cpuTimeKnown = true

// cpuTime returns the process's CPU time, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
