package run

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/mlperf-go/mlperf-go/engine"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/qsl"
	"github.com/mlperf-go/mlperf-go/sut"
)

// PreflightTimeout bounds each preflight step against one endpoint, so a
// broken setup costs seconds, not a run.
const PreflightTimeout = 15 * time.Second

// probeCompleter receives the probe sample's completion.
type probeCompleter struct {
	once sync.Once
	done chan struct{}
}

func (c *probeCompleter) QuerySamplesComplete([]loadgen.Response) error {
	c.once.Do(func() { close(c.done) })
	return nil
}

func (c *probeCompleter) FirstTokenComplete([]loadgen.Response) error { return nil }

// probeRequest sends the body of sample 0 to endpoint through the same
// worker pool a run uses, and returns an error saying what went wrong if
// the sample fails.
func probeRequest(ctx context.Context, o Options, endpoint string, api protocol.Protocol, stream bool, lib *qsl.Library) error {
	var (
		mu      sync.Mutex
		failure *sut.Failure
	)
	comp := &probeCompleter{done: make(chan struct{})}
	timeout := o.Timeout
	if timeout <= 0 || timeout > PreflightTimeout {
		timeout = PreflightTimeout
	}
	pool, err := sut.New(ctx, sut.Config{
		Retries:          0,
		MaxResponseBytes: o.MaxResponseBytes,
		OnFailure: func(f sut.Failure) {
			mu.Lock()
			failure = &f
			mu.Unlock()
		},
		Endpoints:   []string{endpoint},
		API:         api,
		Stream:      stream,
		Concurrency: 1,
		Timeout:     timeout,
		APIKey:      o.APIKey,
		Name:        "mlperf-go-preflight",
		Bodies:      lib,
		Completer:   comp,
	})
	if err != nil {
		return err
	}
	pool.IssueQuery([]loadgen.QuerySample{{ID: 1, Index: 0}})
	select {
	case <-comp.done:
	case <-ctx.Done():
	}
	pool.Close() //nolint:errcheck // the outcome is the failure, if any
	mu.Lock()
	defer mu.Unlock()
	if failure != nil {
		return fmt.Errorf("preflight: a probe request (sample 0) to %s failed: %s: %s%s", endpoint, failure.Reason, failure.Message, engine.SkipPreflightHint)
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return nil
}

// preflight checks, before LoadGen starts, that every endpoint is up,
// serves the model and answers one real request.
func preflight(ctx context.Context, o Options, api protocol.Protocol, model string, stream bool, lib *qsl.Library) error {
	client := &http.Client{Timeout: 5 * time.Second}
	for _, e := range o.Endpoints {
		if err := engine.CheckServes(ctx, client, e, model, o.APIKey); err != nil {
			return err
		}
	}
	if err := lib.LoadSamplesToRam([]int{0}); err != nil {
		return err
	}
	defer lib.UnloadSamplesFromRam([]int{0}) //nolint:errcheck // never fails
	for _, e := range o.Endpoints {
		pctx, cancel := context.WithTimeout(ctx, PreflightTimeout+time.Second)
		err := probeRequest(pctx, o, e, api, stream, lib)
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}
