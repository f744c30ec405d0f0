//go:build cgo && linux

package loadgen

import "syscall"

func gettid() int { return syscall.Gettid() }
