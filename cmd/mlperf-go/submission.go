package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/buildinfo"
	"github.com/mlperf-go/mlperf-go/internal/cliusage"
	"github.com/mlperf-go/mlperf-go/submission"
	"github.com/mlperf-go/mlperf-go/submission/check"
	"github.com/mlperf-go/mlperf-go/submission/filing"
	"github.com/mlperf-go/mlperf-go/submission/pack"
)

func submissionCommand() *cli.Command {
	return &cli.Command{
		Name:  "submission",
		Usage: "assemble and check an official MLPerf results directory",
		Description: `Runs made with ` + "`mlperf-go run --results-dir DIR --system NAME`" + ` are filed into
DIR/<system>/<benchmark>/<Scenario>/{performance/run_1,accuracy,TEST0x}. Then:
  mlperf-go submission system-template --out systems/NAME.json   (fill in the TODOs)
  mlperf-go submission measurements-template --benchmark B --out DIR/NAME/B/measurements.json
  mlperf-go submission package --division closed --submitter ORG --results DIR --systems systems --out OUT
  mlperf-go submission check --round v6.1 OUT`,
		Subcommands: []*cli.Command{
			{
				Name:  "package",
				Usage: "build OUT/<division>/<submitter>/{src,systems,documentation,results} from a results tree",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "division", Value: "closed", Usage: "closed or open"},
					&cli.StringFlag{Name: "submitter", Required: true, Usage: "submitting `ORG` (directory name; must match the systems JSON)"},
					&cli.StringFlag{Name: "results", Required: true, Usage: "results tree `DIR` that `run --results-dir` filled"},
					&cli.StringFlag{Name: "systems", Required: true, Usage: "`DIR` holding <system>.json for every system in the results"},
					&cli.StringFlag{Name: "out", Required: true, Usage: "output `DIR` (OUT/<division>/<submitter> must not exist)"},
					&cli.StringFlag{Name: "round", Usage: "round (v6.0 or v6.1; default: the round of the linked LoadGen)"},
					&cli.StringFlag{Name: "source-note", Usage: "text for src/README.md: where the harness source is (default: names mlperf-go and its version)"},
				},
				Action: func(c *cli.Context) error {
					round := c.String("round")
					if round == "" {
						round = defaultRound()
					}
					note := c.String("source-note")
					if note == "" {
						note = "Harness: mlperf-go " + buildinfo.Version + "\n\n" + buildinfo.String()
					}
					err := pack.Package(pack.PackageOptions{
						Division: c.String("division"), Submitter: c.String("submitter"),
						ResultsDir: c.String("results"), SystemsDir: c.String("systems"),
						Out: c.String("out"), Round: round, SourceNote: note,
					})
					if err != nil {
						return err
					}
					fmt.Fprintf(c.App.Writer, "packaged %s; now run: mlperf-go submission check --round %s %s\n",
						filepath.Join(c.String("out"), c.String("division"), c.String("submitter")), round, c.String("out"))
					return nil
				},
			},
			{
				Name:      "check",
				Usage:     "preflight a packaged submission with the official checker's rules (and refuse INVALID runs)",
				ArgsUsage: "OUT",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "round", Usage: "round whose rules apply: " + fmt.Sprint(submission.RoundNames()) + " (default: the round of the linked LoadGen)"},
				},
				Action: func(c *cli.Context) error {
					args, err := cliusage.Positional(c)
					if err != nil {
						return err
					}
					if len(args) != 1 {
						return fmt.Errorf("usage: mlperf-go submission check [--round ROUND] OUT (the directory holding closed/ or open/)")
					}
					out := args[0]
					round := c.String("round")
					if round == "" {
						round = defaultRound()
					}
					problems := check.Check(out, round)
					for _, p := range problems {
						fmt.Fprintln(c.App.Writer, p)
					}
					if len(problems) > 0 {
						return exitError{1, fmt.Errorf("%d problem(s) found; fix them before submitting", len(problems))}
					}
					fmt.Fprintf(c.App.Writer, "%s: no problems found under the %s rules\n", out, round)
					return nil
				},
			},
			{
				Name:      "file",
				Usage:     "file a finished run into a results tree, as run --results-dir does after its test (for a run whose filing failed, or made without --results-dir); its settings are judged by submission check, as every filed run's are",
				ArgsUsage: "RUN_DIR",
				Flags: []cli.Flag{
					// Checked in the action, not Required: urfave/cli would
					// check before the flags after RUN_DIR are read.
					&cli.StringFlag{Name: "results-dir", Usage: "results tree `DIR` (required): the run goes to DIR/<system>/<benchmark>/<Scenario>/…"},
					&cli.StringFlag{Name: "system", Usage: "system `NAME` the run belongs to (required; systems/<NAME>.json)"},
					&cli.BoolFlag{Name: "replace", Usage: "move an earlier run of the same kind aside instead of refusing"},
					&cli.BoolFlag{Name: "allow-unofficial-settings", Usage: "file an INVALID run or an accuracy run of part of the dataset, to rehearse the workflow (submission check still refuses it)"},
				},
				Action: func(c *cli.Context) error {
					args, err := cliusage.Positional(c)
					if err != nil {
						return err
					}
					if len(args) != 1 || c.String("results-dir") == "" || c.String("system") == "" {
						return fmt.Errorf("usage: mlperf-go submission file RUN_DIR --results-dir DIR --system NAME (RUN_DIR: the folder of one run, holding mlperf_go_run.json)")
					}
					dir, err := filing.FileRecorded(args[0], c.String("results-dir"), c.String("system"), c.Bool("replace"), c.Bool("allow-unofficial-settings"))
					if err != nil {
						return err
					}
					fmt.Fprintf(c.App.Writer, "filed %s into %s\n", args[0], dir)
					return nil
				},
			},
			{
				Name:  "system-template",
				Usage: "write a systems JSON with every required field, the machine facts it can detect filled in",
				Flags: []cli.Flag{&cli.StringFlag{Name: "out", Required: true, Usage: "`FILE` to write (systems/<system>.json); - for stdout"}},
				Action: func(c *cli.Context) error {
					b, err := submission.SystemTemplate()
					if err != nil {
						return err
					}
					return writeOut(c, c.String("out"), b)
				},
			},
			{
				Name:  "measurements-template",
				Usage: "write a measurements.json for a benchmark, the fixed fields filled in",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "benchmark", Aliases: []string{"b"}, Required: true, Usage: "benchmark: " + strings.Join(benchmark.Names(), ", ")},
					&cli.StringFlag{Name: "out", Required: true, Usage: "`FILE` to write; - for stdout"},
				},
				Action: func(c *cli.Context) error {
					bm, err := benchmark.Lookup(c.String("benchmark"))
					if err != nil {
						return err
					}
					out := c.String("out")
					if out != "-" {
						// DIR/<system>/<benchmark>/measurements.json, or in a
						// scenario folder under it.
						dir := filepath.Dir(out)
						if _, err := submission.CanonicalScenario(filepath.Base(dir)); err == nil {
							dir = filepath.Dir(dir)
						}
						if err := submission.CheckBenchmarkDir(dir); err != nil {
							return fmt.Errorf("--out %s: %w", out, err)
						}
					}
					b, err := submission.MeasurementsTemplate(bm.Name)
					if err != nil {
						return err
					}
					return writeOut(c, out, b)
				},
			},
			{
				Name:  "ingest-accuracy",
				Usage: "turn an official LLM evaluator's printed output into accuracy.txt in a results tree",
				Description: `Run the official evaluator (see ` + "`mlperf-go evaluate`" + `), save what it prints, then:
  mlperf-go submission ingest-accuracy --benchmark NAME --input eval.out \
    --out DIR/<system>/<benchmark>/Offline/accuracy/accuracy.txt`,
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "benchmark", Aliases: []string{"b"}, Required: true, Usage: "benchmark the output is for"},
					&cli.StringFlag{Name: "input", Value: "-", Usage: "evaluator output `FILE` (- for stdin)"},
					&cli.StringFlag{Name: "out", Required: true, Usage: "accuracy.txt `FILE` to write"},
					&cli.StringFlag{Name: "round", Value: submission.DefaultRound, Usage: "`ROUND` whose checker reads the file (" + strings.Join(submission.RoundNames(), ", ") + "; v6.0 for llama2-70b-99)"},
				},
				Action: func(c *cli.Context) error {
					var in []byte
					var err error
					if p := c.String("input"); p == "-" {
						in, err = io.ReadAll(os.Stdin)
					} else {
						in, err = os.ReadFile(p)
					}
					if err != nil {
						return err
					}
					out, err := submission.IngestEvaluatorOutput(c.String("benchmark"), c.String("round"), in)
					if err != nil {
						return err
					}
					return writeOut(c, c.String("out"), out)
				},
			},
		},
	}
}

func defaultRound() string {
	if r, err := buildinfo.Round(); err == nil {
		return r
	}
	return submission.DefaultRound
}

func writeOut(c *cli.Context, path string, b []byte) error {
	if path == "-" {
		_, err := c.App.Writer.Write(b)
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(c.App.ErrWriter, "wrote %s\n", path)
	return nil
}
