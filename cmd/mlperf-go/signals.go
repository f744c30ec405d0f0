package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// interruptContext returns the context every command runs under, set up
// once for the process as terraform sets up its ShutdownCh: the first
// SIGINT (Ctrl-C) or SIGTERM (what Slurm and systemd send) cancels it, its
// cause naming the signal, so whatever runs stops cleanly (a LoadGen test
// is aborted and its folder marked ABORTED, a download keeps its partial
// files, a benchmark saves what it measured); a second one exits at once
// with status 130 without waiting. stop releases the signals.
func interruptContext(stderr io.Writer) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sig:
			fmt.Fprintf(stderr, "mlperf-go: %s: stopping (what ran so far is kept and marked); press Ctrl-C again to exit at once\n", signalName(s))
			cancel(fmt.Errorf("interrupted by %s", signalName(s)))
		case <-done:
			return
		}
		select {
		case <-sig:
			fmt.Fprintln(stderr, "mlperf-go: interrupted twice; exiting without waiting (what was being written is incomplete)")
			os.Exit(130)
		case <-done:
		}
	}()
	return ctx, func() { signal.Stop(sig); close(done); cancel(nil) }
}

// signalName names a signal as people know it: SIGTERM (what Slurm and
// systemd send), SIGINT (Ctrl-C); Go's own strings are "terminated" and
// "interrupt".
func signalName(s os.Signal) string {
	switch s {
	case syscall.SIGTERM:
		return "SIGTERM"
	case os.Interrupt:
		return "SIGINT (Ctrl-C)"
	}
	return s.String()
}
