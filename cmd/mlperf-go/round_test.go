package main

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/fake/answers"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/run"
)

// TestRoundFlag: --round defaults to the linked LoadGen's round (v6.1 when
// the build does not say), takes v6.0, and refuses other names.
func TestRoundFlag(t *testing.T) {
	app := newApp()
	var got run.Options
	app.Commands[0].Action = func(c *cli.Context) error {
		var err error
		got, err = resolvedOptions(c)
		return err
	}
	base := []string{"mlperf-go", "run", "-b", "qwen3-vl-235b-a22b", "-d", "x"}
	if err := runApp(context.Background(), app, base); err != nil {
		t.Fatal(err)
	}
	if got.Round != defaultRound() || (defaultRound() != "v6.0" && defaultRound() != "v6.1") {
		t.Errorf("default round %q, want %q", got.Round, defaultRound())
	}
	if err := runApp(context.Background(), app, append(base, "--round", "v6.0")); err != nil || got.Round != "v6.0" {
		t.Errorf("--round v6.0: %q, %v", got.Round, err)
	}
	if err := runApp(context.Background(), app, append(base, "--round", "v7.0")); err == nil || !strings.Contains(err.Error(), `--round "v7.0"`) {
		t.Errorf("--round v7.0: error %v, want one naming the flag", err)
	}
}

// TestQ3VLRunRecordsRound: a Qwen3-VL accuracy run with --round v6.0 sends
// v6.0's requests (the fake answers them, so the score is perfect), is
// scored by the v6.0 evaluator, and records the round and the requests'
// reference in mlperf_go_run.json; the default run records v6.1's.
func TestQ3VLRunRecordsRound(t *testing.T) {
	loadgentest.Require(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if _, err := mustLookup(t, "qwen3-vl-235b-a22b").Data.Synth(data, 12, 5); err != nil {
		t.Fatal(err)
	}
	truth, def, err := answers.Chat("qwen3-vl-235b-a22b", []string{data}, nil)
	if err != nil {
		t.Fatal(err)
	}
	url := startFake(t, fake.Config{Answers: truth, DefaultAnswer: def, Accuracy: 1})
	for _, tc := range []struct {
		args           []string
		round, request string
	}{
		{[]string{"--round", "v6.0"}, "v6.0", "multimodal/qwen3-vl"},
		{nil, defaultRound(), "mlcommons/endpoints"},
	} {
		out := filepath.Join(dir, "acc"+tc.round)
		args := append([]string{"run", "-b", "qwen3-vl-235b-a22b", "-m", "accuracy", "-d", data, "-e", url, "-o", out,
			"--evaluate", "--progress-interval", "0"}, tc.args...)
		stdout, err := runCLI(t, args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", tc.args, err, stdout)
		}
		info, err := record.Read(out)
		if err != nil {
			t.Fatal(err)
		}
		if info.Round != tc.round || !strings.Contains(info.Requests, tc.request) || !strings.Contains(info.Requests, tc.round) {
			t.Errorf("%v: run record round %q requests %q, want %q and %q", tc.args, info.Round, info.Requests, tc.round, tc.request)
		}
		acc, err := os.ReadFile(filepath.Join(out, "accuracy.txt"))
		if err != nil || !strings.Contains(string(acc), `{"f1": 1.0}`) {
			t.Errorf("%v: accuracy.txt %q, %v; want a perfect f1 (the fake knows both rounds' texts)", tc.args, acc, err)
		}
	}
}

// TestCheckFlagsAfterDirectory: `submission check OUT --round R` reads the
// flag as `check --round R OUT` does, and a bad flag after OUT is an error.
func TestCheckFlagsAfterDirectory(t *testing.T) {
	out := t.TempDir()
	before, errBefore := runCLI(t, "submission", "check", "--round", "v6.0", out)
	after, errAfter := runCLI(t, "submission", "check", out, "--round", "v6.0")
	if before != after || exitCode(errBefore) != exitCode(errAfter) {
		t.Errorf("flag after the directory is not read like before it:\nbefore (%v):\n%s\nafter (%v):\n%s", errBefore, before, errAfter, after)
	}
	if _, err := runCLI(t, "submission", "check", out, "--round=v6.1", "--", "x"); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Errorf("two directories: error %v, want the usage", err)
	}
	if _, err := runCLI(t, "submission", "check", out, "--no-such-flag"); err == nil || !strings.Contains(err.Error(), "no-such-flag") {
		t.Errorf("unknown flag after the directory: error %v, want one naming it", err)
	}
	// The round really is read: an unknown one is refused whichever side
	// of the directory it is on.
	for _, args := range [][]string{{"--round", "v0.1", out}, {out, "--round", "v0.1"}} {
		o, err := runCLI(t, append([]string{"submission", "check"}, args...)...)
		if err == nil || !strings.Contains(o+err.Error(), "v0.1") {
			t.Errorf("check %v: %v\n%s; want the unknown round reported", args, err, o)
		}
	}
}

// TestReadmeCommandsParse: every `mlperf-go …` command in the code blocks
// of README.md and docs/*.md names subcommands and flags the CLI defines.
func TestReadmeCommandsParse(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for _, p := range append([]string{filepath.Join("..", "..", "README.md")}, docs...) {
		cmds = append(cmds, docCommands(t, p)...)
	}
	if len(cmds) < 10 {
		t.Fatalf("found only %d mlperf-go commands in README.md and docs/", len(cmds))
	}
	checkCommands(t, cmds)
}

// docCommands are the mlperf-go command lines in a Markdown file's code
// blocks, continuation lines joined.
func docCommands(t *testing.T, path string) []string {
	t.Helper()
	var cmds []string
	for _, line := range docCodeLines(t, path) {
		if regexp.MustCompile(`(^|[\s/])mlperf-go\s`).MatchString(line) && !strings.HasPrefix(strings.TrimSpace(line), "#") {
			cmds = append(cmds, line)
		}
	}
	return cmds
}

// docCodeLines are the lines of a Markdown file's code blocks,
// continuation lines joined.
func docCodeLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	inBlock, cont := false, ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			inBlock, cont = !inBlock, ""
			continue
		}
		if !inBlock {
			continue
		}
		if cont != "" {
			line = cont + " " + strings.TrimSpace(line)
			cont = ""
		}
		if strings.HasSuffix(line, `\`) {
			cont = strings.TrimSuffix(line, `\`)
			continue
		}
		lines = append(lines, line)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return lines
}

// checkCommands parses each command line with the CLI's own definitions.
func checkCommands(t *testing.T, cmds []string) {
	t.Helper()
	app := newApp()
	for _, line := range cmds {
		// Shell substitutions, such as $(… | head -1), are not mlperf-go's.
		words := strings.Fields(regexp.MustCompile(`\$\([^)]*\)`).ReplaceAllString(line, "X"))
		// The program is a word naming mlperf-go that is not a flag's value
		// (docker build -t mlperf-go names an image, not the program).
		at := -1
		for i, w := range words {
			if strings.HasSuffix(w, "mlperf-go") && (i == 0 || !strings.HasPrefix(words[i-1], "-")) {
				at = i
				break
			}
		}
		if at < 0 {
			continue
		}
		words = words[at+1:]
		flags := app.Flags
		var cmd *cli.Command
		subs := app.Commands
		for len(words) > 0 {
			var next *cli.Command
			for _, c := range subs {
				if c.HasName(words[0]) {
					next = c
				}
			}
			if next == nil {
				break
			}
			cmd, subs, words = next, next.Subcommands, words[1:]
			flags = append(append([]cli.Flag(nil), app.Flags...), cmd.Flags...)
		}
		if cmd == nil {
			t.Errorf("README command %q: no such subcommand", line)
			continue
		}
		for _, w := range words {
			w = strings.Trim(w, "[]")
			if !strings.HasPrefix(w, "-") || w == "-" || strings.HasPrefix(w, "$") {
				continue
			}
			name, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
			found := false
			for _, fl := range flags {
				for _, n := range fl.Names() {
					found = found || n == name
				}
			}
			if !found {
				t.Errorf("README command %q: %s has no flag %s", line, cmd.FullName(), w)
			}
		}
	}
}
