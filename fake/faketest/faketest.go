// Package faketest starts the fake endpoint for tests: one server on
// loopback per call, closed when the test ends. Only tests import it.
package faketest

import (
	"testing"

	"github.com/mlperf-go/mlperf-go/fake"
)

// Start serves a fake endpoint with cfg on a free loopback port until the
// test ends, and returns it and its URL.
func Start(tb testing.TB, cfg fake.Config) (*fake.Server, string) {
	tb.Helper()
	srv, err := fake.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	url, err := srv.Start("127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { srv.Close() })
	return srv, url
}
