package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/engine"
	"github.com/mlperf-go/mlperf-go/run"
)

const catEngine = "Engine launch"

// engineRulesAll are the MLPerf Inference rules for the flags of every
// launched engine, whatever the benchmark: no reuse of cached prefixes
// across samples. Required flags are added, forbidden ones refused.
var engineRulesAll = map[engine.Kind]engine.Rules{
	engine.VLLM:   {Require: []string{"--no-enable-prefix-caching"}, Forbid: []string{"--enable-prefix-caching"}},
	engine.SGLang: {Require: []string{"--disable-radix-cache"}},
}

// engineRulesFor returns the rules for running b on an engine kind: those of
// every benchmark, then b's own (Benchmark.EngineRules).
func engineRulesFor(b benchmark.Benchmark, kind engine.Kind) engine.Rules {
	r := engineRulesAll[kind].Merge(b.EngineRules[kind])
	r.Why = fmt.Sprintf("the MLPerf Inference rules for %s on %s", b.Name, kind)
	return r
}

// engineArgs collects --engine-arg values one per flag: unlike a string
// slice flag it never splits a value on commas, which engine arguments hold
// (--limit-mm-per-prompt={"image":1,"video":0}).
type engineArgs []string

func (a *engineArgs) Set(v string) error { *a = append(*a, v); return nil }
func (a *engineArgs) String() string     { return strings.Join(*a, " ") }

func engineFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "launch", Category: catEngine, Usage: "start an engine of `KIND` to run against, and stop it when the run ends: " + strings.Join(engine.Kinds(), ", ") + " (--endpoint then defaults to it)"},
		&cli.StringFlag{Name: "engine-config", Category: catEngine, Usage: "server-config `FILE` (YAML or JSON): engine, model, host, port, command, args, env; flags override it"},
		&cli.StringFlag{Name: "engine-model", Category: catEngine, DefaultText: "--model, else the benchmark's reference model", Usage: "model `NAME` or path the engine loads"},
		&cli.GenericFlag{Name: "engine-arg", Category: catEngine, Value: &engineArgs{}, Usage: "extra engine `ARG` (repeatable, one argument each: --engine-arg=--tensor-parallel-size --engine-arg=8); the rules' flags are added and forbidden ones refused"},
		&cli.StringFlag{Name: "engine-command", Category: catEngine, Usage: "for --launch command: the shell `COMMAND` ({host}, {port}, {model} replaced); for vllm/sglang: the program to run instead of `vllm` or `python3 -m sglang.launch_server`"},
		&cli.StringFlag{Name: "engine-host", Category: catEngine, DefaultText: engine.DefaultHost, Usage: "`HOST` the engine listens on"},
		&cli.IntFlag{Name: "engine-port", Category: catEngine, DefaultText: "vllm 8000, sglang 30000", Usage: "`PORT` the engine listens on (0 picks a free one)"},
		&cli.DurationFlag{Name: "engine-ready-timeout", Category: catEngine, Value: 30 * time.Minute, Usage: "how long to wait for the engine to answer /health and list the model"},
		&cli.StringFlag{Name: "engine-log", Category: catEngine, DefaultText: "--output-dir/engine.log", Usage: "`FILE` the engine's stdout and stderr are appended to"},
		&cli.DurationFlag{Name: "engine-stop-grace", Category: catEngine, Value: engine.DefaultStopGrace, Usage: "after the run, how long the engine gets after SIGTERM before SIGKILL"},
	}
}

// launchedEngine is an engine run started for this run.
type launchedEngine struct {
	kind  engine.Kind
	proc  *engine.Process
	model string
	grace time.Duration
	ready time.Duration
	log   *zap.Logger
}

// launchEngine starts the engine the flags ask for (nil when they ask for
// none) and points o at it. Call stop on the result whatever happens.
func launchEngine(c *cli.Context, o *run.Options, log *zap.Logger) (*launchedEngine, error) {
	var spec engine.Spec
	if f := c.String("engine-config"); f != "" {
		s, err := engine.LoadConfig(f)
		if err != nil {
			return nil, err
		}
		spec = s
	}
	if c.IsSet("launch") {
		k, err := engine.ParseKind(c.String("launch"))
		if err != nil {
			return nil, fmt.Errorf("--launch: %w", err)
		}
		spec.Kind = k
	}
	if spec.Kind == "" {
		for _, f := range []string{"engine-config", "engine-model", "engine-arg", "engine-command", "engine-host", "engine-port", "engine-log"} {
			if c.IsSet(f) {
				return nil, fmt.Errorf("--%s needs an engine to launch: add --launch %s (or engine: in --engine-config)", f, strings.Join(engine.Kinds(), "|"))
			}
		}
		return nil, nil
	}
	if c.IsSet("endpoint") {
		return nil, errors.New("--endpoint with a launched engine: the engine is the endpoint; drop --endpoint (or --launch to use a running server)")
	}
	if c.IsSet("engine-model") {
		spec.Model = c.String("engine-model")
	}
	if spec.Model == "" {
		spec.Model = o.ModelName()
	}
	if c.IsSet("engine-command") {
		spec.Command = c.String("engine-command")
	}
	if c.IsSet("engine-host") {
		spec.Host = c.String("engine-host")
	}
	if c.IsSet("engine-port") {
		spec.Port = c.Int("engine-port")
		if spec.Port == 0 {
			spec.Port = engine.FreePort
		}
	}
	if a, ok := c.Generic("engine-arg").(*engineArgs); ok {
		spec.Args = append(spec.Args, *a...)
	}
	logPath := c.String("engine-log")
	if logPath == "" {
		logPath = filepath.Join(o.OutputDir, "engine.log")
	}
	if err := mkdirFor(logPath); err != nil {
		return nil, err
	}
	p, err := engine.Start(spec, engineRulesFor(o.Benchmark, spec.Kind), logPath)
	if err != nil {
		return nil, err
	}
	// Requests name the model the engine serves unless --model says
	// otherwise (WaitReady then checks the two agree).
	if o.Model == "" {
		o.Model = spec.ServedModel()
	}
	o.Endpoints = []string{p.URL}
	log.Info("engine started", zap.String("url", p.URL), zap.String("log", p.LogPath), zap.Strings("argv", p.Argv))
	return &launchedEngine{kind: spec.Kind, proc: p, model: o.ModelName(), grace: c.Duration("engine-stop-grace"),
		ready: c.Duration("engine-ready-timeout"), log: log}, nil
}

// whenReady waits until the engine serves the model, printing progress, and
// returns the context tests run in: ctx, also ended if the engine dies
// (until unwatch). With no engine launched (e nil) it is ctx itself.
func (e *launchedEngine) whenReady(ctx context.Context, progress *cli.Context) (runCtx context.Context, unwatch context.CancelFunc, err error) {
	if e == nil {
		return ctx, func() {}, nil
	}
	if err := e.proc.WaitReady(ctx, e.model, engine.ReadyOptions{Timeout: e.ready, Progress: progress.App.ErrWriter}); err != nil {
		if ctx.Err() != nil {
			return nil, nil, exitError{130, errors.New("interrupted while waiting for the engine")}
		}
		return nil, nil, err
	}
	runCtx, unwatch = e.proc.Watch(ctx)
	return runCtx, unwatch, nil
}

// stop stops the engine, logging how.
func (e *launchedEngine) stop() {
	if err := e.proc.Stop(e.grace); err != nil {
		e.log.Warn("stopping the engine", zap.Error(err))
		return
	}
	e.log.Info("engine stopped", zap.String("log", e.proc.LogPath))
}

// diedDuringRun turns a run cancelled by the engine's death into the error
// the command reports (nil if the engine did not die).
func diedDuringRun(runCtx context.Context, outputDir string) error {
	var ee *engine.ExitError
	if cause := context.Cause(runCtx); errors.As(cause, &ee) {
		return exitError{1, fmt.Errorf("the test was aborted because the engine died (LoadGen's logs so far are in %s): %w", outputDir, ee)}
	}
	return nil
}

func mkdirFor(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("engine log %s: %w", path, err)
	}
	return nil
}
