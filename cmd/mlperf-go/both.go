package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/workflow"
)

// isModeBoth reports whether --mode is both: the accuracy test, evaluated,
// then the performance test (workflow.BothModes).
func isModeBoth(c *cli.Context) bool { return strings.EqualFold(c.String("mode"), record.ModeBoth) }

// firstMode is the --mode the options are built for: both starts with its
// first test.
func firstMode(c *cli.Context) string {
	if isModeBoth(c) {
		return workflow.ModeDirNames[workflow.BothModes[0]]
	}
	return c.String("mode")
}
