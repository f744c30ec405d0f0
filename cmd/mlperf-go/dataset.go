package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/download"
	"github.com/mlperf-go/mlperf-go/internal/buildinfo"
	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
	"github.com/mlperf-go/mlperf-go/internal/progress"
	"github.com/mlperf-go/mlperf-go/submission"
)

func datasetCommand() *cli.Command {
	return &cli.Command{
		Name:  "dataset",
		Usage: "work with benchmark datasets",
		Subcommands: []*cli.Command{{
			Name:  "synth",
			Usage: "write a small synthetic dataset in a benchmark's real format (for tests and demos)",
			Description: `Writes the files --dataset takes, in the benchmark's real on-disk format (parquet shards
named as on the hub with real JPEG/PNG images, or the reference's token-ID JSON or parquet),
and prints their paths. The same --seed gives the same bytes. --dataset takes the folder too
(` + benchmark.SynthManifestFile + ` lists its files, the benchmark, size and seed).

A folder holding another set (another benchmark's, size or seed), a downloaded dataset or
other files is refused, so that nothing is replaced unasked; --force replaces the set there.`,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "benchmark", Aliases: []string{"b"}, Required: true, Usage: "benchmark: " + strings.Join(benchmark.Names(), ", ")},
				&cli.IntFlag{Name: "samples", Aliases: []string{"n"}, Value: 100, Usage: "number of samples"},
				&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Required: true, Usage: "output `DIR` (the files are written in it)"},
				&cli.Uint64Flag{Name: "seed", Usage: "random seed"},
				&cli.BoolFlag{Name: "force", Usage: "write into --out even if it holds another synthetic set (removed first) or other files"},
			},
			Action: func(c *cli.Context) error {
				b, err := benchmark.Lookup(c.String("benchmark"))
				if err != nil {
					return err
				}
				n, out, seed := c.Int("samples"), c.String("out"), c.Uint64("seed")
				if n <= 0 {
					return fmt.Errorf("--samples must be positive, got %d", n)
				}
				if err := b.PrepareSynth(out, n, seed, c.Bool("force")); err != nil {
					return err
				}
				if err := dirwalk.MkdirAll(out, 0o755); err != nil {
					return err
				}
				start := time.Now()
				files, err := b.WriteSynth(out, n, seed)
				if err != nil {
					return err
				}
				fmt.Fprintf(c.App.ErrWriter, "wrote %d %s samples in %s\n", n, b.Name, time.Since(start).Round(time.Millisecond))
				for _, f := range files {
					fmt.Fprintln(c.App.Writer, f)
				}
				return nil
			},
		}, downloadCommand()},
	}
}

func downloadCommand() *cli.Command {
	return &cli.Command{
		Name:  "download",
		Usage: "download a benchmark's dataset and tokenizer, pinned per round, and verify every file",
		Description: `Fetches the files the round's reference names for the benchmark into --out: the dataset from
MLCommons' R2 storage (as mlc-r2-downloader.sh does), from the Hugging Face hub at a pinned
commit, or from PyPI (qwen3.6-27b's bfcl-eval wheel, as pip download fetches it), and the
model's tokenizer files from the hub at a pinned commit. Every file is verified against what
its source publishes (the hub's LFS sha256 or git blob id at the commit; the md5 the registry
pins, which the storage's .md5 listing must repeat; the sha256 the registry pins, which PyPI's
JSON API must list) before it gets its name; partial files are kept as <name>.part and resumed (HTTP Range) by the next run. A
manifest (` + download.ManifestFile + `) records every file's size and sha256: a second run makes no
request, and ` + "`run -d DIR`" + ` opens the folder as it is.

Environment: HF_TOKEN (or HUGGING_FACE_HUB_TOKEN, or the token file huggingface-cli login
writes) for gated repositories such as meta-llama/*; HF_ENDPOINT for a hub mirror;
HF_HUB_OFFLINE=1 as --offline. PIP_INDEX_URL is not read: a simple index is not PyPI's JSON
API; give a PyPI mirror with --pypi-url.

Exit codes: 0 done; 1 failed (checksum mismatch, disk full, server down, ...; the message
says what to do); 2 access denied (a gated repository: accept its licence, set HF_TOKEN);
130 interrupted (partial files are kept and resumed).

Example:
  mlperf-go dataset download -b llama3_1-8b --out data/llama
  mlperf-go run -b llama3_1-8b -d data/llama ...`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "benchmark", Aliases: []string{"b"}, Usage: "benchmark whose files to fetch: " + strings.Join(benchmark.Names(), ", ")},
			&cli.StringFlag{Name: "extra", Usage: "fetch a set not tied to a benchmark instead: " + strings.Join(download.ExtraNames(), ", ")},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Required: true, Usage: "download `DIR` (created; one benchmark's dataset per folder)"},
			&cli.StringFlag{Name: "round", Value: defaultRound(), Usage: "MLPerf round `ROUND` whose pinned files to fetch: " + strings.Join(submission.RoundNames(), ", ")},
			&cli.StringSliceFlag{Name: "only", Usage: "fetch only these `ROLES`: dataset, tokenizer (default: all the benchmark pins)"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: 4, Usage: "files fetched at once"},
			&cli.StringFlag{Name: "storage-url", EnvVars: []string{"MLPERF_GO_STORAGE_URL"}, Usage: "`URL` of a mirror of MLCommons' R2 bucket, laid out as the bucket (default: the bucket each pin names, e.g. https://inference.mlcommons-storage.org)"},
			&cli.StringFlag{Name: "pypi-url", EnvVars: []string{"MLPERF_GO_PYPI_URL"}, Usage: "`URL` of a PyPI mirror serving PyPI's JSON API (URL/pypi/PROJECT/VERSION/json; not a simple index) (default: " + download.DefaultPyPIURL + ")"},
			&cli.BoolFlag{Name: "offline", Usage: "make no request: succeed only if --out already holds the files"},
			&cli.BoolFlag{Name: "verify", Usage: "afterwards, hash every file in --out again and compare it with the manifest"},
		},
		Action: downloadAction,
	}
}

// downloadRequest reads which pins the flags ask for.
func downloadRequest(c *cli.Context) (download.Request, error) {
	name, extra, round := c.String("benchmark"), c.String("extra"), c.String("round")
	switch {
	case (name == "") == (extra == ""):
		return download.Request{}, errors.New("give one of --benchmark and --extra")
	case extra != "":
		return download.ExtraRequest(extra)
	}
	b, err := benchmark.Lookup(name)
	if err != nil {
		return download.Request{}, err
	}
	pins, err := b.DownloadPins(round)
	if err != nil {
		return download.Request{}, err
	}
	return download.SelectRoles(b.Name, round, pins, c.StringSlice("only"))
}

func downloadAction(c *cli.Context) error {
	req, err := downloadRequest(c)
	if err != nil {
		return err
	}
	dir := c.String("out")
	ctx := c.Context
	fetched := &download.Progress{}
	o := download.Options{
		HF: download.ReadHFEnv(os.Getenv), StorageURL: c.String("storage-url"), PyPIURL: c.String("pypi-url"), Jobs: c.Int("jobs"),
		Offline: c.Bool("offline"), Progress: fetched, UserAgent: "mlperf-go/" + buildinfo.Version,
		OnRetry: func(what string, err error, wait time.Duration) {
			clear := ""
			if progress.IsTerminal(c.App.ErrWriter) {
				clear = "\r\x1b[K" // over the progress line, which the next redraw restores
			}
			fmt.Fprintf(c.App.ErrWriter, "%sretrying %s in %s: %v\n", clear, what, wait.Round(100*time.Millisecond), err)
		},
	}
	start := time.Now()
	stopBar := progress.Show(c.App.ErrWriter, 0, func() string {
		if s := fetched.Snapshot(); s.Files > 0 {
			return s.Line()
		}
		return "" // nothing started yet
	})
	res, err := download.Fetch(ctx, dir, req, o)
	stopBar(err == nil && len(res.Fetched) > 0)
	if err != nil {
		return downloadExit(ctx, err)
	}
	printDownload(c.App.ErrWriter, dir, res, time.Since(start))
	if c.Bool("verify") {
		sets, err := res.Manifest.VerifyRequest(dir, req)
		for _, s := range sets {
			fmt.Fprintf(c.App.ErrWriter, "verified %s: %d files, %s, sha256 as recorded\n", s.Pin.Role, len(s.Files), download.FormatBytes(s.Bytes()))
		}
		if err != nil {
			return exitError{1, err}
		}
	}
	fmt.Fprintln(c.App.Writer, dir)
	return nil
}

// downloadExit maps a failed download to its exit code: 2 for access
// denied, 130 for an interrupt, 1 otherwise.
func downloadExit(ctx context.Context, err error) error {
	var ae *download.AccessError
	switch {
	case errors.As(err, &ae):
		return exitError{2, err}
	case ctx.Err() != nil:
		return exitError{130, errors.New("interrupted: partial files are kept as *.part; run the same command again to resume")}
	default:
		return exitError{1, err}
	}
}

// printDownload says what the download did and how to use it.
func printDownload(w io.Writer, dir string, res download.Result, took time.Duration) {
	if len(res.Fetched) == 0 {
		fmt.Fprintf(w, "%s already holds %s (no request made)\n", dir, strings.Join(res.Reused, ", "))
	} else {
		fmt.Fprintf(w, "downloaded %d files (%s) in %s, kept %d already in place; all verified",
			res.Files, download.FormatBytes(res.Bytes), took.Round(time.Second), res.Kept)
		if n := len(res.Unverified); n > 0 {
			fmt.Fprintf(w, " except %d the source publishes no checksum for (%s)", n, strings.Join(res.Unverified, ", "))
		}
		fmt.Fprintln(w)
	}
	for _, s := range res.Manifest.Sets {
		fmt.Fprintf(w, "  %-9s %s, %d files, %s (%s)\n", s.Pin.Role, s.Pin.Source(), len(s.Files), download.FormatBytes(s.Bytes()), s.Pin.Ref)
	}
	fmt.Fprintf(w, "manifest: %s\n", filepath.Join(dir, download.ManifestFile))
}
