package main

import (
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
		&cli.DurationFlag{Name: "endpoints-down-timeout", Value: sut.DefaultEndpointsDownAfter, Category: catEndpoint, Usage: "stop the test once every endpoint has refused or dropped connections for this long with no answer between (a dead engine fails every later sample); 0 never stops"},
	}
}

// resilienceRequest reads the flags resilienceFlags declares.
func resilienceRequest(c *cli.Context) run.Resilience {
	return run.Resilience{Retries: c.Int("retries"), MaxResponseBytes: c.Int64("max-response-bytes"),
		MaxBufferedBytes: c.Int64("max-buffered-bytes"), MaxFailures: c.String("max-failures"),
		EndpointsDownAfter: c.Duration("endpoints-down-timeout")}
}
