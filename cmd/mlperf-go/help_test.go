package main

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/cliusage"
)

// walkFlags calls fn with every flag of app and of its commands, at any
// depth, and the command path that takes it.
func walkFlags(app *cli.App, fn func(path string, f cli.Flag)) {
	for _, f := range app.Flags {
		fn(app.Name, f)
	}
	var walk func(path string, cmds []*cli.Command)
	walk = func(path string, cmds []*cli.Command) {
		for _, c := range cmds {
			p := path + " " + c.Name
			for _, f := range c.Flags {
				fn(p, f)
			}
			walk(p, c.Subcommands)
		}
	}
	walk(app.Name, app.Commands)
}

// TestFlagHelpLines checks every flag as --help renders it: the value
// placeholder (the first `quoted` word of its usage) is one word, a flag
// that takes no value shows none, and a default is stated once (by Value
// or DefaultText, not also in the usage text).
func TestFlagHelpLines(t *testing.T) {
	t.Parallel()
	n := 0
	walkFlags(newApp(), func(path string, f cli.Flag) {
		n++
		df, ok := f.(cli.DocGenerationFlag)
		if !ok {
			t.Errorf("%s --%s: %T has no usage text", path, f.Names()[0], f)
			return
		}
		placeholder := cliusage.FirstQuoted(df.GetUsage())
		name, line := f.Names()[0], f.String()
		switch {
		case !df.TakesValue() && placeholder != "":
			t.Errorf("%s --%s takes no value but help shows %q as one (backquotes in its usage): %s", path, name, placeholder, line)
		case strings.ContainsAny(placeholder, " \t"):
			t.Errorf("%s --%s: placeholder %q is not one word: %s", path, name, placeholder, line)
		}
		if strings.Count(line, "default:") > 1 {
			t.Errorf("%s --%s: two defaults (one in the usage text: give it as DefaultText): %s", path, name, line)
		}
	})
	if n < 100 {
		t.Fatalf("walked %d flags: the walk missed commands", n)
	}
}

// TestMistypedFlag: a flag the command does not know gets the error, the
// nearest flag when one is close, and the command's usage line, not the
// whole help; so do a flag without its value, a value that does not parse
// and a required flag left out.
func TestMistypedFlag(t *testing.T) {
	// Not parallel: runCLI runs the app, and urfave/cli's global help
	// flag is written by every run.
	walkFlags(newApp(), func(path string, f cli.Flag) {
		if r, ok := f.(cli.RequiredFlag); ok && r.IsRequired() {
			t.Errorf("%s --%s: urfave/cli checks this required flag itself, printing the whole help (%T: teach unrequire its type)", path, f.Names()[0], f)
		}
	})
	for _, tc := range []struct {
		args []string
		want []string
		not  string
	}{
		{[]string{"run", "-b", "llama3_1-8b", "--dataste", "x"}, []string{"unknown flag --dataste; did you mean --dataset?", "usage: mlperf-go run --benchmark BENCHMARK --dataset PATH [options]\n", "mlperf-go run --help"}, ""},
		{[]string{"run", "--bogus"}, []string{"unknown flag --bogus\n", "usage: mlperf-go run "}, "did you mean"},
		{[]string{"run", "-enpoint", "x"}, []string{"did you mean --endpoint?"}, ""},
		{[]string{"dataset", "download", "--onyl", "tokenizer"}, []string{"did you mean --only?", "usage: mlperf-go dataset download --out DIR [options]\n"}, ""},
		{[]string{"bench", "--targt", "a=http://h"}, []string{"did you mean --target?", "usage: mlperf-go bench [options] COMMAND\n"}, ""},
		{[]string{"--log-levle", "debug", "version"}, []string{"did you mean --log-level?", "usage: mlperf-go [options] COMMAND\n"}, ""},
		{[]string{"run", "-o"}, []string{"flag -o needs a value", "usage: mlperf-go run "}, ""},
		{[]string{"run", "--concurrency", "many"}, []string{`invalid value "many" for flag --concurrency`, "usage: mlperf-go run "}, ""},
		{[]string{"run", "-b", "llama3_1-8b"}, []string{"flag --dataset is required\n", "usage: mlperf-go run --benchmark BENCHMARK --dataset PATH [options]\n"}, ""},
		{[]string{"dataset", "download", "-b", "llama3_1-8b"}, []string{"flag --out is required\n", "usage: mlperf-go dataset download --out DIR [options]\n"}, ""},
		// A mistyped command, not "No help topic" and exit 3.
		{[]string{"rnu", "-b", "x"}, []string{`unknown command "rnu"; did you mean run?`, "usage: mlperf-go [options] COMMAND\n"}, ""},
		{[]string{"dataset", "downlod"}, []string{`unknown command "downlod"; did you mean download?`, "usage: mlperf-go dataset [options] COMMAND\n"}, ""},
		{[]string{"xyzzy"}, []string{"unknown command \"xyzzy\"\n"}, "did you mean"},
		// A subcommand typed at the top: bench's compare, submission's check.
		{[]string{"compare", "a.json", "b.json"}, []string{`unknown command "compare"; did you mean bench compare?`}, ""},
		{[]string{"check", "sub"}, []string{`unknown command "check"; did you mean submission check?`}, ""},
	} {
		out, err := runCLI(t, tc.args...)
		if err == nil {
			t.Errorf("%q passed", tc.args)
			continue
		}
		if out != "" {
			t.Errorf("%q printed %d lines besides the error, want none:\n%s", tc.args, strings.Count(out, "\n"), out)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: error %q does not say %q", tc.args, err, w)
			}
		}
		if tc.not != "" && strings.Contains(err.Error(), tc.not) {
			t.Errorf("%q: error %q says %q", tc.args, err, tc.not)
		}
		var ee exitError
		if errors.As(err, &ee) {
			t.Errorf("%q: exit code %d, want 1", tc.args, ee.code)
		}
	}
	// A command that groups others, given none, still shows its help.
	if out, err := runCLI(t, "dataset"); err != nil || !strings.Contains(out, "COMMANDS:") {
		t.Errorf("dataset alone: %v\n%s", err, out)
	}
}

// TestDefaultOutputFoldersIgnored: the folders the commands write below
// the current one by default (every --runs-dir, bench's --out) are in the
// checkout's .gitignore, so a run from a checkout leaves git status clean.
func TestDefaultOutputFoldersIgnored(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "..", ".gitignore"))
	if err != nil {
		t.Fatal(err)
	}
	ignored := strings.Split(string(b), "\n")
	dirs := []string{benchRunsDir}
	walkFlags(newApp(), func(path string, f cli.Flag) {
		if sf, ok := f.(*cli.StringFlag); ok && sf.Name == "runs-dir" {
			dirs = append(dirs, sf.Value)
		}
	})
	if len(dirs) < 3 {
		t.Fatalf("found the default folders %q: the walk missed --runs-dir", dirs)
	}
	for _, d := range dirs {
		if !slices.Contains(ignored, "/"+d+"/") {
			t.Errorf(".gitignore lacks /%s/", d)
		}
	}
}

// TestModeErrorListsBoth: the refusal of an unknown --mode lists every
// mode run takes, both included.
func TestModeErrorListsBoth(t *testing.T) {
	// Not parallel: see TestMistypedFlag.
	_, err := runCLI(t, "run", "-b", "llama3_1-8b", "-d", t.TempDir(), "-m", "perf")
	if err == nil {
		t.Fatal("--mode perf was accepted")
	}
	for _, m := range []string{"performance", "accuracy", "both", "find-peak-performance", "submission"} {
		if !strings.Contains(err.Error(), m) {
			t.Errorf("error %q does not list %s", err, m)
		}
	}
}

// TestHelpNamesEveryBenchmark: the help of evaluate and run is generated
// from the registry, so every registered benchmark appears in it with what
// it registered (what evaluate scores, what --dataset takes, its compliance
// tests), and every LoadGen name, variants included, in --benchmark's list.
func TestHelpNamesEveryBenchmark(t *testing.T) {
	// Not parallel: runCLI runs the app, and urfave/cli's global help
	// flag is written by every run.
	evaluate, err := runCLI(t, "evaluate", "--help")
	if err != nil {
		t.Fatal(err)
	}
	run, err := runCLI(t, "run", "--help")
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(evaluate), " ")
	for _, b := range benchmark.All() {
		if row := b.Name + " " + strings.Join(strings.Fields(b.Data.Scoring), " "); !strings.Contains(flat, row) {
			t.Errorf("evaluate --help has no row %q", row)
		}
		if want := b.Name + ": " + b.Data.Help; !strings.Contains(run, want) {
			t.Errorf("run --help does not say what --dataset takes for %s (%q)", b.Name, want)
		}
		if tests := b.Submission.ComplianceTests(); len(tests) > 0 {
			if want := strings.Join(tests, " or ") + " (" + b.Name + ")"; !strings.Contains(run, want) {
				t.Errorf("run --help does not list %s's compliance tests (%q)", b.Name, want)
			}
		}
	}
	for _, name := range benchmark.Names() {
		if b, err := benchmark.Lookup(name); err != nil || !strings.Contains(run, b.Data.Help) {
			t.Errorf("run --help does not say what --dataset takes for %s (%v)", name, err)
		}
		for cmd, out := range map[string]string{"evaluate": evaluate, "run": run} {
			if !strings.Contains(out, name) {
				t.Errorf("%s --help does not name %s", cmd, name)
			}
		}
	}
	table := benchmarkTable(func(b benchmark.Benchmark) string { return b.Data.Scoring })
	for _, line := range strings.Split(table, "\n") {
		if utf8.RuneCountInString(line) > helpWidth && strings.Contains(strings.TrimSpace(line), " ") {
			t.Errorf("help table line wider than %d columns: %q", helpWidth, line)
		}
	}
}
