package main

import (
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/engine"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/run"
)

const catEngine = "Engine launch"

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
		&cli.StringFlag{Name: "engine-log", Category: catEngine, DefaultText: "--output-dir/" + record.EngineLogFile, Usage: "`FILE` the engine's stdout and stderr are appended to"},
		&cli.DurationFlag{Name: "engine-stop-grace", Category: catEngine, Value: engine.DefaultStopGrace, Usage: "after the run, how long the engine gets after SIGTERM before SIGKILL"},
	}
}

// launchRequest reads the engine flags (run.LaunchRequest).
func launchRequest(c *cli.Context) run.LaunchRequest {
	r := run.LaunchRequest{ConfigFile: c.String("engine-config"), LogPath: c.String("engine-log"),
		ReadyTimeout: c.Duration("engine-ready-timeout"), StopGrace: c.Duration("engine-stop-grace"), EndpointGiven: c.IsSet("endpoint")}
	for _, f := range []string{"engine-config", "engine-model", "engine-arg", "engine-command", "engine-host", "engine-port", "engine-log"} {
		if c.IsSet(f) {
			r.Given = append(r.Given, f)
		}
	}
	r.Kind, r.Model, r.Command = given(c, "launch", c.String), given(c, "engine-model", c.String), given(c, "engine-command", c.String)
	r.Host, r.Port = given(c, "engine-host", c.String), given(c, "engine-port", c.Int)
	if a, ok := c.Generic("engine-arg").(*engineArgs); ok {
		r.Args = *a
	}
	return r
}
