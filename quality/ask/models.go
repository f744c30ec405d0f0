package ask

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/engine"
	"github.com/mlperf-go/mlperf-go/protocol"
)

// checkTimeout bounds each of the checks before the first question.
const checkTimeout = 10 * time.Second

// ServedModel returns the model the server behind endpoint serves, from
// GET /v1/models, for a run that names none: the one listed, or an error
// naming every listed model (or what the server answered) and the fix.
func ServedModel(ctx context.Context, endpoint, apiKey string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	a := engine.Ask(ctx, &http.Client{}, serverRoot(endpoint), apiKey)
	switch {
	case a.ModelsErr != nil:
		return "", fmt.Errorf("%s does not answer GET /v1/models (%v): is the server up? Pass --model NAME to name the model yourself", a.Base, a.ModelsErr)
	case a.Models != http.StatusOK:
		return "", fmt.Errorf("%s answers GET /v1/models with %d: pass --model NAME (and the API key the server wants, if any)", a.Base, a.Models)
	case a.ListErr != nil:
		return "", fmt.Errorf("%s: GET /v1/models is not an OpenAI model list (%v): pass --model NAME", a.Base, a.ListErr)
	case len(a.IDs) == 1:
		return a.IDs[0], nil
	case len(a.IDs) == 0:
		return "", fmt.Errorf("%s serves no model yet (GET /v1/models is empty): wait for it to load, or pass --model NAME", a.Base)
	}
	return "", fmt.Errorf("%s serves %s: pass --model NAME to pick one", a.Base, strings.Join(a.IDs, ", "))
}

// Preflight checks, before any question, that every endpoint is up and
// serves model, as `run`'s preflight does (engine.CheckServes): a dead
// server or a wrong model name costs seconds, not a run of errors.
func Preflight(ctx context.Context, endpoints []string, model, apiKey string) error {
	for _, e := range endpoints {
		cctx, cancel := context.WithTimeout(ctx, checkTimeout)
		err := engine.CheckServes(cctx, &http.Client{}, e, model, apiKey)
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}

// serverRoot is the server's root URL for an endpoint URL with or without
// /v1, keeping its query (a gateway may take its key there).
func serverRoot(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return endpoint
	}
	u.Path = protocol.ServerRoot(u.Path)
	u.RawPath = ""
	return u.String()
}

// ResolveModel checks the endpoints before the first prompt and names the
// model when c.Model is empty: the one the first endpoint serves. With
// skipPreflight it checks nothing, and the model must be named.
func (c *Config) ResolveModel(ctx context.Context, skipPreflight bool) error {
	if c.Model == "" {
		if skipPreflight {
			return errors.New("--model: name the served model when --skip-preflight is set (the harness cannot ask the server which it serves)")
		}
		m, err := ServedModel(ctx, c.Endpoints[0], c.APIKey)
		if err != nil {
			return fmt.Errorf("--model: %w", err)
		}
		c.Model = m
	}
	if skipPreflight {
		return nil
	}
	return Preflight(ctx, c.Endpoints, c.Model, c.APIKey)
}
