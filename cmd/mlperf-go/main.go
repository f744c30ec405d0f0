// Command mlperf-go runs MLPerf Inference benchmarks against HTTP inference
// endpoints through the official LoadGen, evaluates accuracy, serves a fake
// endpoint for trying it without a GPU, and assembles submission results.
//
// Each subcommand lives in its own file; the work itself is done by library
// packages, so this command only parses flags, prints, and picks the exit
// code.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	// Every benchmark registers itself; the commands look them up by name.
	"github.com/mlperf-go/mlperf-go/benchmark"
	_ "github.com/mlperf-go/mlperf-go/benchmarks/all"
	"github.com/mlperf-go/mlperf-go/internal/buildinfo"
	"github.com/mlperf-go/mlperf-go/internal/cliusage"
)

// exitError carries the exit code of a failed command whose cause has
// already been reported.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }

func main() {
	ctx, stop := interruptContext(os.Stderr)
	err := runApp(ctx, newApp(), os.Args)
	stop()
	if err != nil {
		var ee exitError
		code := 1
		if errors.As(err, &ee) {
			code = ee.code
		}
		fmt.Fprintln(os.Stderr, "mlperf-go:", err)
		os.Exit(code)
	}
}

// runApp runs app with argv under ctx (every command's c.Context: main's
// interruptContext), keeping argv where commands that record how they were
// invoked (run, for the submission README) can read it.
func runApp(ctx context.Context, app *cli.App, argv []string) error {
	if app.Metadata == nil {
		app.Metadata = map[string]any{}
	}
	app.Metadata[argvKey] = argv
	return app.RunContext(ctx, argv)
}

const argvKey = "argv"

// commandLine is the argv the command was invoked with.
func commandLine(c *cli.Context) []string {
	if argv, ok := c.App.Metadata[argvKey].([]string); ok {
		return argv
	}
	return os.Args
}

func newApp() *cli.App {
	app := &cli.App{
		Name:    "mlperf-go",
		Usage:   "MLPerf Inference harness for LLM and VLM HTTP endpoints, on the official LoadGen",
		Version: buildinfo.Version,
		Description: "Runs " + strings.Join(baseNames(), ", ") + " (and their variants)\nagainst vLLM, SGLang or any " +
			"OpenAI-compatible server. Start with `mlperf-go run --help`; try it without a GPU with\n" +
			"`mlperf-go fake-endpoint` and `mlperf-go dataset synth` (or `make demo`).",
		EnableBashCompletion: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "log-level", Value: "info", Usage: "log verbosity: debug, info, warn or error", EnvVars: []string{"MLPERF_GO_LOG_LEVEL"}},
		},
		Commands: []*cli.Command{
			runCommand(),
			tuneCommand(),
			evaluateCommand(),
			evalCommand(),
			fakeEndpointCommand(),
			benchCommand(),
			datasetCommand(),
			submissionCommand(),
			reportCommand(),
			versionCommand(),
		},
	}
	cliusage.Short(app)
	return app
}

// newLogger returns the console logger every command logs through (to
// stderr, so stdout stays for results).
func newLogger(c *cli.Context) (*zap.Logger, error) {
	lvl, err := zapcore.ParseLevel(c.String("log-level"))
	if err != nil {
		return nil, fmt.Errorf("--log-level: %w", err)
	}
	cfg := zap.NewDevelopmentConfig()
	cfg.Level = zap.NewAtomicLevelAt(lvl)
	cfg.DisableStacktrace = true
	cfg.DisableCaller = true
	cfg.EncoderConfig.EncodeTime = zapcore.TimeEncoderOfLayout("15:04:05.000")
	return cfg.Build()
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the harness version, the LoadGen release it was built with, and the round it serves",
		Action: func(c *cli.Context) error {
			fmt.Print(buildinfo.String())
			return nil
		},
	}
}

// baseNames lists the registered benchmarks without their variants.
func baseNames() []string {
	var n []string
	for _, b := range benchmark.All() {
		n = append(n, b.Name)
	}
	return n
}

// given is flag name's value as get reads it, or nil when the flag was not
// given (its default is not the user's choice).
func given[T any](c *cli.Context, name string, get func(string) T) *T {
	if !c.IsSet(name) {
		return nil
	}
	v := get(name)
	return &v
}
