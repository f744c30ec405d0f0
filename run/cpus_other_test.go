//go:build !linux

package run

import (
	"errors"
	"os/exec"
)

var errNoAffinity = errors.New("CPU affinity is only set on Linux")

func allowedCPUs() ([]int, error) { return nil, errNoAffinity }

func pinProcess(cpus, to []int) (func(), error) { return nil, errNoAffinity }

func startPinned(cmd *exec.Cmd, cpus []int) error { return errNoAffinity }
