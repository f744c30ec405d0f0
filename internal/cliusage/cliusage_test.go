package cliusage

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestNearest: a name is suggested when at most a third of the longer
// name's letters are edited and one is kept; two letters swapped are one
// edit ("onyl" is "only").
func TestNearest(t *testing.T) {
	t.Parallel()
	names := []string{"only", "out", "offline", "jobs"}
	for typed, want := range map[string]string{"onyl": "only", "offlne": "offline", "job": "jobs", "xyz": "", "": ""} {
		if got := nearest(names, typed); got != want {
			t.Errorf("nearest(%q) = %q, want %q", typed, got, want)
		}
	}
	for _, c := range []struct {
		a, b string
		d    int
	}{{"onyl", "only", 1}, {"kitten", "sitting", 3}, {"", "abc", 3}, {"ca", "abc", 3}} {
		if got := editDistance(c.a, c.b); got != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

// app is an app with one command, check, taking OUT and --round (required
// when required is set), whose action stores the positional arguments
// Positional reads.
func app(required bool, got *[]string) *cli.App {
	a := &cli.App{Name: "tool", Writer: io.Discard, ErrWriter: io.Discard, Commands: []*cli.Command{{
		Name: "check", ArgsUsage: "OUT",
		Flags: []cli.Flag{&cli.StringFlag{Name: "round", Required: required, Usage: "`ROUND` to check"}, &cli.BoolFlag{Name: "quiet"}},
		Action: func(c *cli.Context) (err error) {
			*got, err = Positional(c)
			if err == nil && c.String("round") != "" {
				*got = append(*got, "round="+c.String("round"))
			}
			return err
		},
	}}}
	Short(a)
	return a
}

// TestShortErrors: an unknown flag, a missing value, a missing required
// flag and an unknown command each get a short error with the nearest name
// and the usage line; flags after OUT are read.
func TestShortErrors(t *testing.T) {
	var got []string
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"check", "--rund", "v6.1", "out"}, []string{"unknown flag --rund; did you mean --round?", "usage: tool check --round ROUND [options] OUT"}},
		{[]string{"check", "--round"}, []string{"flag --round needs a value"}},
		{[]string{"check", "out"}, []string{"flag --round is required"}},
		{[]string{"chek"}, []string{`unknown command "chek"; did you mean check?`}},
	} {
		err := app(true, &got).Run(append([]string{"tool"}, c.args...))
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%v: %v, want it to say %q", c.args, err, w)
			}
		}
	}
	if err := app(false, &got).Run([]string{"tool", "check", "out", "--round", "v6.0", "more", "--", "-x"}); err != nil || !slices.Equal(got, []string{"out", "more", "-x", "round=v6.0"}) {
		t.Errorf("check out --round v6.0 more -- -x: %q, %v", got, err)
	}
	if err := app(false, &got).Run([]string{"tool", "check", "out", "--nope"}); err == nil || !strings.Contains(err.Error(), "see `tool check --help`") {
		t.Errorf("check out --nope: %v", err)
	}
}
