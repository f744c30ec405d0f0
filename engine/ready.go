package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/redact"
	"github.com/mlperf-go/mlperf-go/protocol"
)

// ReadyOptions tune WaitReady.
type ReadyOptions struct {
	// Timeout bounds the whole wait (no bound when 0).
	Timeout time.Duration
	// Poll is the time between probes (default 500 ms).
	Poll time.Duration
	// Progress, when set, gets a line every ProgressEvery (default 15 s)
	// saying what the engine answers so far.
	Progress      io.Writer
	ProgressEvery time.Duration
	// LogPath, when set, is the engine log whose last line the progress
	// lines and the timeout error show.
	LogPath string
	// APIKey, when set, is sent as a bearer token with every probe, for
	// servers that want it on every route.
	APIKey string
}

// ErrModelNotServed is wrapped by WaitReady's error when the server is up but
// lists other models: waiting longer cannot help.
var ErrModelNotServed = errors.New("the engine does not serve the model")

// WaitReady polls the engine at base until it is healthy and serves model:
// GET /health must answer 200 (vLLM and SGLang answer it once the engine
// loop runs), then GET /v1/models must list model (both engines serve it;
// SGLang's /get_model_info model_path is accepted too). It returns early
// when ctx ends, with context.Cause(ctx).
func WaitReady(ctx context.Context, base, model string, o ReadyOptions) error {
	if o.Poll <= 0 {
		o.Poll = 500 * time.Millisecond
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = 15 * time.Second
	}
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, o.Timeout, errReadyTimeout)
		defer cancel()
	}
	base = serverRoot(base)
	shown := redact.URL(base) // a gateway's key may be in the query
	client := &http.Client{Timeout: 10 * time.Second}
	start := time.Now()
	lastProgress := start
	state := "not probed yet"
	for {
		ok, st, err := Ask(ctx, client, base, o.APIKey).ready(model)
		if err != nil {
			return err
		}
		if ok {
			if o.Progress != nil {
				fmt.Fprintf(o.Progress, "engine ready at %s serving %s after %s\n", shown, model, time.Since(start).Round(time.Second))
			}
			return nil
		}
		// A probe cut short by the deadline says nothing about the engine.
		if ctx.Err() == nil || state == "not probed yet" {
			state = st
		}
		if o.Progress != nil && time.Since(lastProgress) >= o.ProgressEvery {
			lastProgress = time.Now()
			fmt.Fprintf(o.Progress, "waiting for the engine at %s (%s of %s): %s%s\n", shown,
				time.Since(start).Round(time.Second), orUnbounded(o.Timeout), state, lastLogLine(o.LogPath))
		}
		select {
		case <-ctx.Done():
			cause := context.Cause(ctx)
			if errors.Is(cause, errReadyTimeout) {
				return fmt.Errorf("engine at %s not ready after %s: %s; raise --engine-ready-timeout if it is still loading%s",
					shown, o.Timeout, state, lastLogLine(o.LogPath))
			}
			return cause
		case <-time.After(o.Poll):
		}
	}
}

var errReadyTimeout = errors.New("engine ready timeout")

func orUnbounded(d time.Duration) string {
	if d <= 0 {
		return "no limit"
	}
	return d.String()
}

func lastLogLine(path string) string {
	if path == "" {
		return ""
	}
	line := strings.TrimSpace(Tail(path, 1))
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	return fmt.Sprintf("; engine log %s ends: %s", path, line)
}

// Answer is what a server said on the routes that tell whether it is up
// and serves a model: GET /health, GET /v1/models (vLLM and SGLang serve
// both) and, where the model list is missing, SGLang's /get_model_info.
// WaitReady (polling a launched engine) and CheckServes (the run's
// preflight) judge the same answer by their own rules.
type Answer struct {
	// Base is the server's root URL as messages show it (redact.URL: no
	// key in its user information or query).
	Base string
	// Health is /health's status code (0 when HealthErr is set).
	Health    int
	HealthErr error
	// Models is /v1/models's status code, ModelsErr its transport error,
	// and IDs the models listed when ListErr is nil.
	Models    int
	ModelsErr error
	IDs       []string
	ListErr   error
	// ModelPath is /get_model_info's model_path, asked only when
	// /v1/models did not answer 200 (HasModelInfo reports an answer).
	ModelPath    string
	HasModelInfo bool
}

// Ask queries the server at base (its root, see serverRoot) once, with
// apiKey as a bearer token when set: gateways such as LiteLLM's proxy want
// the key on every route, /health included.
func Ask(ctx context.Context, client *http.Client, base, apiKey string) Answer {
	a := Answer{Base: redact.URL(base)}
	a.Health, _, a.HealthErr = get(ctx, client, routeURL(base, "/health"), apiKey)
	var body []byte
	a.Models, body, a.ModelsErr = get(ctx, client, routeURL(base, "/v1/models"), apiKey)
	if a.ModelsErr != nil {
		return a
	}
	if a.Models == http.StatusOK {
		var list struct {
			Data *[]struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		if err := json.Unmarshal(body, &list); err != nil {
			a.ListErr = err
		} else if list.Data == nil {
			a.ListErr = errors.New(`no "data" list`)
		} else {
			for _, m := range *list.Data {
				a.IDs = append(a.IDs, m.ID)
			}
		}
		return a
	}
	// SGLang's own route, for servers without the OpenAI model list.
	if code, body, err := get(ctx, client, routeURL(base, "/get_model_info"), apiKey); err == nil && code == http.StatusOK {
		var info struct {
			ModelPath string `json:"model_path"`
		}
		a.HasModelInfo = true
		if json.Unmarshal(body, &info) == nil {
			a.ModelPath = info.ModelPath
		}
	}
	return a
}

// ready judges a for WaitReady: /health must answer 200, then /v1/models
// must list model (or /get_model_info name it). It returns ready, a
// description of what the engine answered when not ready, and an error only
// when waiting cannot help.
func (a Answer) ready(model string) (bool, string, error) {
	switch {
	case a.HealthErr != nil:
		return false, "/health: " + shortNetErr(a.HealthErr), nil
	case isAuth(a.Health) || isAuth(a.Models):
		return false, "", a.authError()
	case a.Health != http.StatusOK:
		return false, fmt.Sprintf("/health answers %d", a.Health), nil
	case a.ModelsErr != nil:
		return false, "/v1/models: " + shortNetErr(a.ModelsErr), nil
	}
	if a.Models == http.StatusOK {
		if a.ListErr != nil {
			return false, fmt.Sprintf("/v1/models answers something other than a model list: %v", a.ListErr), nil
		}
		if slices.Contains(a.IDs, model) {
			return true, "", nil
		}
		if len(a.IDs) > 0 {
			return false, "", fmt.Errorf("%w: %s serves %s, requests name %q; pass --model NAME (or the engine's --served-model-name)",
				ErrModelNotServed, a.Base, strings.Join(a.IDs, ", "), model)
		}
		return false, "/v1/models lists no model yet", nil
	}
	if a.HasModelInfo {
		if a.ModelPath == model {
			return true, "", nil
		}
		return false, fmt.Sprintf("/get_model_info names %q, not %q", a.ModelPath, model), nil
	}
	return false, fmt.Sprintf("/v1/models answers %d", a.Models), nil
}

// SkipPreflightHint ends a preflight error: how to skip the check.
const SkipPreflightHint = " (for a server without /health and /v1/models, pass --skip-preflight)"

// isAuth reports whether code says the request lacked a valid key.
func isAuth(code int) bool { return code == http.StatusUnauthorized || code == http.StatusForbidden }

// authError names an authentication problem: which route refused, and what
// to do about it.
func (a Answer) authError() error {
	route, code := "/health", a.Health
	if !isAuth(code) {
		route, code = "/v1/models", a.Models
	}
	return fmt.Errorf("%w: %s answers %s with %d %s: set the server's key in OPENAI_API_KEY (or the variable --api-key-env names, or --api-key-file), or check that the key is the one the server expects",
		ErrAuth, a.Base, route, code, http.StatusText(code))
}

// noKeyHint is what to add to a server's refusal when no key was sent and
// it answered with a server error: some gateways do that, not 401, without
// their key (LiteLLM's proxy with a master key answers 500).
func noKeyHint(apiKey string, a Answer) string {
	if apiKey != "" || (a.Health < 500 && a.Models < 500) {
		return ""
	}
	return "; no API key was sent: if the server wants one (LiteLLM's proxy with a master key answers 500 without it), set it in OPENAI_API_KEY (or the variable --api-key-env names, or --api-key-file)"
}

// ErrAuth is wrapped by the errors of a server that refuses the request for
// want of a valid API key (401 or 403): waiting cannot help.
var ErrAuth = errors.New("the server wants a valid API key")

// CheckServes asks the server behind endpoint (a URL as --endpoint takes
// it) once whether it is up and serves model, as a run's preflight does,
// sending apiKey when set: a server answering 404 on one of /health and
// /v1/models passes on the other (the model is then checked by the probe
// request); one answering neither, refusing the key (401, 403) or listing
// other models is an error naming the endpoint and the fix. An empty
// model checks only that the server is up (a client that sends none).
func CheckServes(ctx context.Context, client *http.Client, endpoint, model, apiKey string) error {
	a := Ask(ctx, client, serverRoot(endpoint), apiKey)
	base := a.Base
	switch {
	case isAuth(a.Health) || isAuth(a.Models):
		return fmt.Errorf("preflight: %w", a.authError())
	case a.HealthErr != nil:
		return fmt.Errorf("preflight: endpoint %s does not answer: %v; is the server running and reachable from here?", base, unwrapURLError(a.HealthErr))
	case a.ModelsErr != nil:
		return fmt.Errorf("preflight: endpoint %s: GET /v1/models: %v", base, unwrapURLError(a.ModelsErr))
	case a.Models != http.StatusOK && a.Health == http.StatusOK:
		return nil // healthy; the model is checked by the probe request
	case a.Models != http.StatusOK:
		return fmt.Errorf("preflight: endpoint %s answers /health with %d and /v1/models with %d: it is not ready to serve%s%s", base, a.Health, a.Models, noKeyHint(apiKey, a), SkipPreflightHint)
	case a.ListErr != nil:
		return fmt.Errorf("preflight: endpoint %s: /v1/models is not an OpenAI model list (%v)%s", base, a.ListErr, SkipPreflightHint)
	case model != "" && !slices.Contains(a.IDs, model):
		served := "no model"
		if len(a.IDs) > 0 {
			served = strings.Join(a.IDs, ", ")
		}
		return fmt.Errorf("preflight: endpoint %s serves %s, but requests would name %q: pass --model NAME with the served name (or start the server with that name, e.g. vLLM's --served-model-name)", base, served, model)
	}
	return nil
}

// routeURL is the URL of route on the server whose root is base, keeping
// base's query (a gateway may take its key there).
func routeURL(base, route string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base + route
	}
	u.Path = strings.TrimRight(u.Path, "/") + route
	u.RawPath = ""
	return u.String()
}

// serverRoot is the server's root URL for an endpoint URL with or without
// /v1.
func serverRoot(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return strings.TrimSuffix(strings.TrimRight(endpoint, "/"), "/v1")
	}
	u.Path = protocol.ServerRoot(u.Path)
	u.RawPath = ""
	return u.String()
}

// unwrapURLError drops the url.Error wrapper, which repeats the URL the
// caller names.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func get(ctx context.Context, client *http.Client, url, apiKey string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, nil, err
	}
	if apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, body, err
}

// shortNetErr drops the URL that net/http repeats in its errors.
func shortNetErr(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 && strings.Contains(s, "dial") {
		return "not listening yet (" + s[i+2:] + ")"
	}
	return s
}
