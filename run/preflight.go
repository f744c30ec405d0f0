package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/qsl"
	"github.com/mlperf-go/mlperf-go/sut"
)

// PreflightTimeout bounds each preflight step against one endpoint, so a
// broken setup costs seconds, not a run.
const PreflightTimeout = 15 * time.Second

// skipHint is how a preflight error says it can be skipped.
const skipHint = " (for a server without /health and /v1/models, pass --skip-preflight)"

// checkServes asks one endpoint whether it is up and serves model: GET
// /health, then GET /v1/models must list model. A server answering 404 on
// one of the two routes passes on the other; one answering neither is an
// error naming the endpoint.
func checkServes(ctx context.Context, client *http.Client, endpoint, model string) error {
	base := strings.TrimSuffix(strings.TrimSuffix(endpoint, "/"), "/v1")
	health, _, err := httpGet(ctx, client, base+"/health")
	if err != nil {
		return fmt.Errorf("preflight: endpoint %s does not answer: %v; is the server running and reachable from here?", base, err)
	}
	code, body, err := httpGet(ctx, client, base+"/v1/models")
	if err != nil {
		return fmt.Errorf("preflight: endpoint %s: GET /v1/models: %v", base, err)
	}
	if code != http.StatusOK {
		if health == http.StatusOK {
			return nil // healthy; the model is checked by the probe request
		}
		return fmt.Errorf("preflight: endpoint %s answers /health with %d and /v1/models with %d: it is not ready to serve%s", base, health, code, skipHint)
	}
	var list struct {
		Data *[]struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil || list.Data == nil {
		if err == nil {
			err = errors.New(`no "data" list`)
		}
		return fmt.Errorf("preflight: endpoint %s: /v1/models is not an OpenAI model list (%v)%s", base, err, skipHint)
	}
	var ids []string
	for _, m := range *list.Data {
		ids = append(ids, m.ID)
	}
	if !slices.Contains(ids, model) {
		served := "no model"
		if len(ids) > 0 {
			served = strings.Join(ids, ", ")
		}
		return fmt.Errorf("preflight: endpoint %s serves %s, but requests would name %q: pass --model NAME with the served name (or start the server with that name, e.g. vLLM's --served-model-name)", base, served, model)
	}
	return nil
}

func httpGet(ctx context.Context, client *http.Client, url string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		var ue interface{ Unwrap() error }
		if errors.As(err, &ue) {
			err = ue.Unwrap() // url.Error repeats the URL, which the caller names
		}
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, body, err
}

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
		return fmt.Errorf("preflight: a probe request (sample 0) to %s failed: %s: %s%s", endpoint, failure.Reason, failure.Message, skipHint)
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
		if err := checkServes(ctx, client, e, model); err != nil {
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
