package run

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/engine"
	"github.com/mlperf-go/mlperf-go/internal/redact"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/qsl"
	"github.com/mlperf-go/mlperf-go/sut"
)

// DefaultPreflightTimeout bounds preflight's probe request when the
// options set none. The probe asks for ProbeTokens tokens only, so on a
// warm engine it takes a prefill and a few decode steps; the bound is for
// a cold one, whose first request can compile kernels or fill caches for
// minutes (and for vLLM's CPU build under load, which took 15 s for one
// such request).
const DefaultPreflightTimeout = 3 * time.Minute

// ProbeTokens is the answer length preflight's probe asks for: enough to
// see the API's answer decoded (a first token, then the rest of a
// stream), and never a benchmark's whole answer, which is up to 20,000
// tokens for deepseek-r1.
const ProbeTokens = 4

// checkTimeout bounds each of preflight's route checks (/health,
// /v1/models), which any running server answers at once.
const checkTimeout = 5 * time.Second

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

// probeLibrary is a one-sample library holding sample 0's request as the
// run would send it, but asking for ProbeTokens tokens.
func probeLibrary(o Options, data benchmark.Dataset, api protocol.Protocol, model string, stream bool) (*qsl.Library, error) {
	params, err := o.SamplingParams()
	if err != nil {
		return nil, err
	}
	if params, err = protocol.CloneParams(params); err != nil {
		return nil, err
	}
	if err := protocol.SetOutputLength(params, ProbeTokens, false); err != nil {
		return nil, fmt.Errorf("preflight: the probe's output length: %w", err)
	}
	po := o
	po.Sampling, po.wrapBuilder = params, nil
	return loadLibrary(po, data, api, model, &Report{Stream: stream, Total: 1, Performance: 1}, o.logger())
}

// probeTimeout is the options' probe bound, or DefaultPreflightTimeout.
func (o Options) probeTimeout() time.Duration {
	if o.PreflightTimeout > 0 {
		return o.PreflightTimeout
	}
	return DefaultPreflightTimeout
}

// probeRequest sends lib's one request (sample 0) to endpoint through the
// same worker pool a run uses, and returns an error saying what went wrong
// if it fails or gets no answer within the probe's bound.
func probeRequest(ctx context.Context, o Options, endpoint string, api protocol.Protocol, stream bool, lib *qsl.Library) error {
	var (
		mu      sync.Mutex
		failure *sut.Failure
	)
	timeout := o.probeTimeout()
	ctx, cancel := context.WithTimeoutCause(ctx, timeout+time.Second, errProbeTimeout)
	defer cancel()
	comp := &probeCompleter{done: make(chan struct{})}
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
	what := fmt.Sprintf("preflight: the probe request (sample 0, %d tokens, %s %s to %s)", ProbeTokens, api.Name(), api.Path(), redact.URL(endpoint))
	switch {
	case failure != nil && failure.Reason == sut.ReasonTimeout, failure == nil && errors.Is(context.Cause(ctx), errProbeTimeout):
		return fmt.Errorf("%s got no answer within %s: the engine is up but does not answer; if it is still warming up (a cold engine can take minutes over its first request), pass a longer --preflight-timeout, else look at the engine's log", what, timeout)
	case failure != nil:
		return fmt.Errorf("%s failed: %s: %s", what, failure.Reason, failure.Message)
	case ctx.Err() != nil:
		return context.Cause(ctx)
	}
	return nil
}

// errProbeTimeout is the cause of a probe that ran out of time.
var errProbeTimeout = errors.New("preflight probe timed out")

// identifyEngines asks every endpoint which engine and version it is
// (engine.Identify), for the run record: each distinct answer once, in
// endpoint order.
func identifyEngines(ctx context.Context, o Options) []string {
	client := &http.Client{Timeout: checkTimeout}
	var out []string
	for _, e := range o.Endpoints {
		if s, ok := engine.Identify(ctx, client, e, o.APIKey); ok && !slices.Contains(out, s.String()) {
			out = append(out, s.String())
		}
	}
	return out
}

// preflight checks, before LoadGen starts, that every endpoint is up,
// serves the model and answers one real, short request.
func preflight(ctx context.Context, o Options, data benchmark.Dataset, api protocol.Protocol, model string, stream bool) error {
	client := &http.Client{Timeout: checkTimeout}
	for _, e := range o.Endpoints {
		if err := engine.CheckServes(ctx, client, e, model, o.APIKey); err != nil {
			return err
		}
	}
	lib, err := probeLibrary(o, data, api, model, stream)
	if err != nil {
		return err
	}
	defer lib.Close()
	if err := lib.LoadSamplesToRam([]int{0}); err != nil {
		return err
	}
	defer lib.UnloadSamplesFromRam([]int{0}) //nolint:errcheck // never fails
	for _, e := range o.Endpoints {
		if err := probeRequest(ctx, o, e, api, stream, lib); err != nil {
			return err
		}
	}
	return nil
}
