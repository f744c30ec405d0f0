// Package loadgentest helps tests that run the official LoadGen: they skip,
// saying why, in a build without cgo (CGO_ENABLED=0), where the pure-Go
// packages are still tested, instead of failing.
package loadgentest

import (
	"testing"

	"github.com/mlperf-go/mlperf-go/loadgen"
)

// Require skips t when this build cannot run LoadGen.
func Require(t testing.TB) {
	t.Helper()
	if !loadgen.Available {
		t.Skip("needs the official LoadGen: a cgo build (make, then go test with CGO_ENABLED=1)")
	}
}
