package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/run"
	"github.com/mlperf-go/mlperf-go/sut"
)

// resilienceFlags are the run flags for retries, response size and the
// failure limit.
func resilienceFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "retries", Value: sut.DefaultRetries, Category: catEndpoint, Usage: "times a sample is sent again after a 429/503 (honouring Retry-After) or a connection lost before any answer, within its --timeout; 0 turns retries off"},
		&cli.Int64Flag{Name: "max-response-bytes", Value: sut.DefaultMaxResponseBytes, Category: catEndpoint, Usage: "largest response, stream output or event line in `BYTES`; a larger one fails its sample"},
		&cli.Int64Flag{Name: "max-buffered-bytes", Value: sut.DefaultMaxBufferedBytes, Category: catEndpoint, Usage: "memory in `BYTES` all responses in flight may hold together; a response that would pass it fails its sample (a server sending endless answers to many requests cannot exhaust memory)"},
		&cli.StringFlag{Name: "max-failures", Value: sut.DefaultMaxFailures, Category: catEndpoint, Usage: "stop the test early once this many samples failed: a count `N`, a percentage P% of at least 50 finished samples, or off"},
	}
}

// flagForField names the flag that sets a sut.Config field.
var flagForField = map[string]string{
	"Endpoints":        "--endpoint",
	"Concurrency":      "--concurrency",
	"Timeout":          "--timeout",
	"Retries":          "--retries",
	"MaxResponseBytes": "--max-response-bytes",
	"MaxBufferedBytes": "--max-buffered-bytes",
	"MaxFailures":      "--max-failures",
	"APIKey":           "the API key (--api-key-file or --api-key-env)",
}

// resilienceOptions maps the endpoint flags into o and checks them all,
// before any work: values the pool would take as "default" (0) are refused
// when given explicitly, and the pool's own checks name the flag.
func resilienceOptions(c *cli.Context, o *run.Options) error {
	for _, name := range []string{"concurrency", "total-sample-count", "performance-sample-count", "max-response-bytes"} {
		if c.IsSet(name) && c.Int64(name) <= 0 {
			return fmt.Errorf("--%s %d: use a positive number (leave the flag out for the default)", name, c.Int64(name))
		}
	}
	if c.IsSet("timeout") && c.Duration("timeout") <= 0 {
		return fmt.Errorf("--timeout %v: use a positive duration such as 20m (leave the flag out for the default)", c.Duration("timeout"))
	}
	switch r := c.Int("retries"); {
	case r < 0:
		return fmt.Errorf("--retries %d: use 0 (no retries) or more", r)
	case r == 0:
		o.Retries = sut.NoRetries
	default:
		o.Retries = r
	}
	o.MaxResponseBytes = c.Int64("max-response-bytes")
	o.MaxBufferedBytes = c.Int64("max-buffered-bytes")
	var err error
	if o.MaxFailures, err = sut.ParseFailureLimit(c.String("max-failures")); err != nil {
		return fmt.Errorf("--max-failures %w", err)
	}
	err = sut.Config{Endpoints: o.Endpoints, Concurrency: o.Concurrency, Timeout: o.Timeout, APIKey: o.APIKey,
		Retries: o.Retries, MaxResponseBytes: o.MaxResponseBytes, MaxBufferedBytes: o.MaxBufferedBytes, MaxFailures: o.MaxFailures}.Validate()
	var ce *sut.ConfigError
	if errors.As(err, &ce) {
		if flag, ok := flagForField[ce.Field]; ok {
			return fmt.Errorf("%s: %s", flag, ce.Msg)
		}
	}
	return err
}
