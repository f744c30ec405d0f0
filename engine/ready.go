package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"
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
	base = strings.TrimSuffix(strings.TrimSuffix(base, "/"), "/v1")
	client := &http.Client{Timeout: 10 * time.Second}
	start := time.Now()
	lastProgress := start
	state := "not probed yet"
	for {
		ok, st, err := probe(ctx, client, base, model)
		if err != nil {
			return err
		}
		if ok {
			if o.Progress != nil {
				fmt.Fprintf(o.Progress, "engine ready at %s serving %s after %s\n", base, model, time.Since(start).Round(time.Second))
			}
			return nil
		}
		// A probe cut short by the deadline says nothing about the engine.
		if ctx.Err() == nil || state == "not probed yet" {
			state = st
		}
		if o.Progress != nil && time.Since(lastProgress) >= o.ProgressEvery {
			lastProgress = time.Now()
			fmt.Fprintf(o.Progress, "waiting for the engine at %s (%s of %s): %s%s\n", base,
				time.Since(start).Round(time.Second), orUnbounded(o.Timeout), state, lastLogLine(o.LogPath))
		}
		select {
		case <-ctx.Done():
			cause := context.Cause(ctx)
			if errors.Is(cause, errReadyTimeout) {
				return fmt.Errorf("engine at %s not ready after %s: %s; raise --engine-ready-timeout if it is still loading%s",
					base, o.Timeout, state, lastLogLine(o.LogPath))
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

// probe asks the engine once. It returns ready, a description of what the
// engine answered when not ready, and an error only when waiting cannot
// help.
func probe(ctx context.Context, client *http.Client, base, model string) (bool, string, error) {
	code, _, err := get(ctx, client, base+"/health")
	switch {
	case err != nil:
		return false, "/health: " + shortNetErr(err), nil
	case code != http.StatusOK:
		return false, fmt.Sprintf("/health answers %d", code), nil
	}
	code, body, err := get(ctx, client, base+"/v1/models")
	if err != nil {
		return false, "/v1/models: " + shortNetErr(err), nil
	}
	if code == http.StatusOK {
		var list struct {
			Data []struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		if err := json.Unmarshal(body, &list); err != nil {
			return false, fmt.Sprintf("/v1/models answers something other than a model list: %v", err), nil
		}
		var ids []string
		for _, m := range list.Data {
			ids = append(ids, m.ID)
		}
		if slices.Contains(ids, model) {
			return true, "", nil
		}
		if len(ids) > 0 {
			return false, "", fmt.Errorf("%w: %s serves %s, requests name %q; pass --model NAME (or the engine's --served-model-name)",
				ErrModelNotServed, base, strings.Join(ids, ", "), model)
		}
		return false, "/v1/models lists no model yet", nil
	}
	// SGLang's own route, for servers without the OpenAI model list.
	code2, body2, err := get(ctx, client, base+"/get_model_info")
	if err == nil && code2 == http.StatusOK {
		var info struct {
			ModelPath string `json:"model_path"`
		}
		if json.Unmarshal(body2, &info) == nil && info.ModelPath == model {
			return true, "", nil
		}
		return false, fmt.Sprintf("/get_model_info names %q, not %q", info.ModelPath, model), nil
	}
	return false, fmt.Sprintf("/v1/models answers %d", code), nil
}

func get(ctx context.Context, client *http.Client, url string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, nil, err
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
