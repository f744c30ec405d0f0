package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/sut"
	"github.com/mlperf-go/mlperf-go/tune"
	"github.com/mlperf-go/mlperf-go/workflow"
)

const catTune = "Tuning"

// tuneOnlyRunFlags are the run flags tune does not take: what files a run
// (results tree, compliance, report of the engine), what sets a run's own
// length and QPS (each trial sets them), and the scenario, which tune
// names its own way.
var tuneOnlyRunFlags = []string{
	"scenario", "mode", "output-dir", "evaluate", "results-dir", "system", "allow-unofficial-settings", "replace",
	"compliance", "accuracy-script", "engine", "engine-flag", "quick", "target-qps", "min-duration", "min-query-count",
	"runs-dir", "overwrite", "target-qps-fraction",
}

// tuneSharedFlags are the run flags tune takes as they are: the benchmark,
// dataset, endpoints, sampling, LoadGen settings, the pool's limits and
// the engine to launch (one engine serves every trial). Not the accuracy
// evaluation's (catEval): every trial is a performance run.
func tuneSharedFlags() []cli.Flag {
	var flags []cli.Flag
	for _, f := range runCommand().Flags {
		if cf, ok := f.(cli.CategorizableFlag); ok && cf.GetCategory() == catEval {
			continue
		}
		if !slices.Contains(tuneOnlyRunFlags, f.Names()[0]) {
			flags = append(flags, f)
		}
	}
	return flags
}

func tuneCommand() *cli.Command {
	return &cli.Command{
		Name:  "tune",
		Usage: "search the highest VALID Server/Interactive target QPS, or the Offline concurrency, with short runs",
		Description: `Makes short LoadGen performance runs (trials) against the endpoint(s) and prints what to
put in user.conf or on the run command line. Every trial is judged as a run is: VALID only
when LoadGen's summary says VALID and no sample failed. Trials go under --tune-dir, apart
from the run history and the results tree, one folder each, with tune.json listing them.

--scenario Server or Interactive: searches the highest target QPS that stays VALID. The
first trial runs at --start-qps, or at --target-qps-fraction of the samples/s of the newest
valid Offline performance run (not --quick) in --runs-dir (and --results-dir's --system),
and, if that trial is VALID, the second at that Offline throughput; then the search halves (no VALID trial yet;
it gives up when halving left the latency over its limit where it was: the endpoint's own),
grows (no INVALID one), or bisects between the highest VALID and the lowest INVALID QPS
until they are within --tolerance, or --max-trials ran. Each trial lasts --trial-duration,
and at least --trial-min-queries queries (LoadGen's early stopping needs 459 at the 99th
percentile): it issues exactly that many, each sample once (mlperf.conf's
sample_concatenate_permutation would pad it to the whole dataset). Before the first trial
tune says what it will try, how long each trial and the search take; after each trial, what
it tries next and why. A QPS a little above what the server sustains only shows as INVALID once its
queue's wait, about (excess fraction x trial duration), breaks the latency limit: longer
trials resolve finer. Prints one line per trial and, at the end, the user.conf line (under
the model name LoadGen reads the run under: *-interactive for llama3_1-8b and gpt-oss-120b
Interactive, qwen3-vl-235b-a22b's own for its Interactive), written into
--write-user-conf if given. Confirm it with a full run: mlperf-go run --scenario Server
--user-conf user.conf … .

--scenario Offline: runs a short Offline trial at each --concurrency-sweep level (default
1, 2, 4, … up to --max-sweep-concurrency, stopping once throughput is flat), each issuing
the samples the last level's samples/s serve in --trial-duration, at least 8 per request in
flight; it says before each trial what it issues and how long that should take, prints the
samples/s of each, and recommends the smallest --concurrency reaching --plateau of the best.

Exit codes: 0 found; 1 no trial was VALID (or another error); 130 interrupted.

With --launch the engine is started once, before the first trial, serves every trial and is
stopped after the last; its log is engine.log in the tune folder. A trial the engine's death
cuts short ends the tune.

Example:
  mlperf-go tune -b llama3_1-8b -s Server -d cnn_eval.json -e http://gpu-node:8000 \
    --trial-duration 60s --write-user-conf user.conf`,
		Flags: append(tuneSharedFlags(),
			&cli.StringFlag{Name: "scenario", Aliases: []string{"s"}, Required: true, Category: catTune, Usage: "Server or Interactive: search the highest VALID target QPS; Offline: sweep the concurrency"},
			&cli.StringFlag{Name: "tune-dir", Value: "tune-runs", Category: catTune, Usage: "trials go to a new folder `DIR`/<benchmark>/<Scenario>/<UTC time>/ with tune.json"},
			&cli.DurationFlag{Name: "trial-duration", Value: time.Minute, Category: catTune, Usage: "length of each trial (LoadGen's min_duration; Offline: about how long each trial's samples take)"},
			&cli.IntFlag{Name: "trial-min-queries", Value: tune.DefaultTrialMinQueries, Category: catTune, Usage: "Server/Interactive: queries each trial issues at least (min_query_count); LoadGen's early stopping needs 459 at the 99th percentile with none over the limit, more with some"},
			&cli.IntFlag{Name: "max-trials", Value: tune.DefaultMaxTrials, Category: catTune, Usage: "Server/Interactive: most trials the search makes"},
			&cli.Float64Flag{Name: "tolerance", Value: tune.DefaultTolerance, Category: catTune, Usage: "Server/Interactive: stop once the lowest INVALID QPS is within this `FRACTION` above the highest VALID one"},
			&cli.Float64Flag{Name: "start-qps", Category: catTune, DefaultText: "--target-qps-fraction of the newest Offline samples/s", Usage: "Server/Interactive: `QPS` of the first trial"},
			&cli.Float64Flag{Name: "target-qps-fraction", Value: defaultAutoQPSFraction, Category: catTune, Usage: "Server/Interactive without --start-qps: the first trial's `FRACTION` of the Offline throughput"},
			&cli.StringFlag{Name: "runs-dir", Value: "runs", Category: catTune, Usage: "run history `DIR` searched for the newest Offline performance run"},
			&cli.StringFlag{Name: "results-dir", Category: catTune, Usage: "results tree `DIR` also searched for --system's filed Offline run"},
			&cli.StringFlag{Name: "system", Category: catTune, Usage: "system `NAME` in --results-dir"},
			&cli.StringFlag{Name: "write-user-conf", Category: catTune, Usage: "Server/Interactive: set the found target_qps line in this user.conf `FILE` (other lines kept; created if missing)"},
			&cli.StringFlag{Name: "concurrency-sweep", Category: catTune, DefaultText: "1,2,4,… up to --max-sweep-concurrency", Usage: "Offline: comma-separated `LIST` of concurrencies to try, e.g. 1,2,4,8"},
			&cli.IntFlag{Name: "max-sweep-concurrency", Value: sut.DefaultConcurrency, Category: catTune, Usage: "Offline: highest concurrency of the default doubling series"},
			&cli.Float64Flag{Name: "plateau", Value: tune.DefaultPlateau, Category: catTune, Usage: "Offline: recommend the smallest concurrency reaching this `FRACTION` of the best samples/s"},
		),
		Action: tuneAction,
	}
}

func tuneAction(c *cli.Context) error {
	log, err := newLogger(c)
	if err != nil {
		return err
	}
	defer log.Sync() //nolint:errcheck // stderr
	r, err := tuneRequest(c, log)
	if err != nil {
		return err
	}
	res, err := workflow.Tune(c.Context, r)
	res.Print(c.App.Writer, c.App.ErrWriter)
	if err != nil {
		return exitError{exitCodes[workflow.ClassOf(err)], err}
	}
	return nil
}

// tuneRequest reads the tune command's flags into the workflow's request,
// each flag read once; workflow.Tune checks them.
func tuneRequest(c *cli.Context, log *zap.Logger) (workflow.TuneRequest, error) {
	search, err := tuneOptions(c)
	return workflow.TuneRequest{
		Test: testRequest(c), Launch: launchRequest(c), Dir: c.String("tune-dir"),
		RunsDir: c.String("runs-dir"), ResultsDir: c.String("results-dir"), System: c.String("system"),
		Search: search, Record: runRecord(c), Progress: c.App.ErrWriter, Logger: log,
	}, err
}

// tuneOptions parses the search's flags into the tune's options; the
// trials' base options, folder, record, trial runner and Offline runs
// come from workflow.Tune's session.
func tuneOptions(c *cli.Context) (tune.Options, error) {
	opts := tune.Options{
		QPS: tune.QPSSearch{
			Start:           c.Float64("start-qps"),
			TrialDuration:   c.Duration("trial-duration"),
			TrialMinQueries: c.Int("trial-min-queries"),
			MaxTrials:       c.Int("max-trials"),
			Tolerance:       c.Float64("tolerance"),
		},
		StartFraction: c.Float64("target-qps-fraction"),
		Sweep: tune.SweepSearch{
			MaxConcurrency: c.Int("max-sweep-concurrency"),
			TrialDuration:  c.Duration("trial-duration"),
			Plateau:        c.Float64("plateau"),
		},
		UserConf: c.String("write-user-conf"),
	}
	if c.IsSet("start-qps") && opts.QPS.Start <= 0 {
		return tune.Options{}, fmt.Errorf("--start-qps %g: want a positive QPS", opts.QPS.Start)
	}
	if v := c.String("concurrency-sweep"); v != "" {
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n <= 0 {
				return tune.Options{}, fmt.Errorf("--concurrency-sweep %q: want positive integers separated by commas, e.g. 1,2,4,8", v)
			}
			opts.Sweep.Levels = append(opts.Sweep.Levels, n)
		}
	}
	return opts, nil
}
