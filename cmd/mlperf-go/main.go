// Command mlperf-go runs MLPerf Inference benchmarks through the official
// LoadGen. (Placeholder: only `version`; the full CLI replaces this file.)
package main

import (
	"fmt"
	"os"

	"github.com/mlperf-go/mlperf-go/internal/buildinfo"
	_ "github.com/mlperf-go/mlperf-go/loadgen" // link LoadGen so the build proves it
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "version" {
		fmt.Print(buildinfo.String())
		return
	}
	fmt.Fprintln(os.Stderr, "usage: mlperf-go version")
	os.Exit(2)
}
