package main

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The machine's own noise: how late a thread that sleeps 1 ms wakes up, on
// the harness's CPUs at its nice value, for as long as a harness runs. A
// harness needs several wake-ups per sample (LoadGen's issue thread, the
// bridge, a worker, the reader), so its added tail cannot be much below
// this floor; printed beside each run, it tells the harness's tail from a
// busy machine's.

// probeFlag re-executes this command as the probe.
const probeFlag = "-probe-for"

// runProbe is the probe itself: it sleeps 1 ms at a time for d and prints
// the overshoot's p50, p99, p99.9 and maximum in ms.
func runProbe(d time.Duration) {
	var late []time.Duration
	for end := time.Now().Add(d); time.Now().Before(end); {
		t := time.Now()
		time.Sleep(time.Millisecond)
		late = append(late, time.Since(t)-time.Millisecond)
	}
	slices.Sort(late)
	q := func(p float64) float64 { return float64(late[int(p*float64(len(late)-1))]) / 1e6 }
	fmt.Printf("%.3f %.3f %.3f %.3f\n", q(0.5), q(0.99), q(0.999), float64(late[len(late)-1])/1e6)
}

// probe is a running probe.
type probe struct {
	cmd *exec.Cmd
	out strings.Builder
}

// startProbe starts the probe on cpus for d.
func startProbe(cpus string, d time.Duration) (*probe, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	p := &probe{cmd: pinned(cpus, self, probeFlag, d.String())}
	p.cmd.Stdout = &p.out
	return p, p.cmd.Start()
}

// wait returns the probe's figures: "p50/p99/p99.9/max ms".
func (p *probe) wait() string {
	if p == nil || p.cmd.Wait() != nil {
		return "?"
	}
	f := strings.Fields(p.out.String())
	if len(f) != 4 {
		return "?"
	}
	for i := range f {
		v, _ := strconv.ParseFloat(f[i], 64)
		f[i] = strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strings.Join(f, "/")
}
