package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// errStopped is what every command's Action returns in TestDocCommandsRun:
// the command line got past parsing, its values and its required flags.
var errStopped = errors.New("stopped before the action")

// cheapCommands are the commands TestDocCommandsRun runs for real, in a
// folder of its own and in the order the docs give them: they need no
// server, data from outside or long work.
var cheapCommands = []string{"dataset synth", "submission system-template", "submission measurements-template", "version"}

// TestDocCommandsRun: every `mlperf-go …` command in the code blocks of
// README.md and docs/*.md that is written out whole (no "…", [optional]
// parts or shell substitutions) gets as far as its action as written:
// its flag values parse and its required flags are there (the actions
// are stopped; TestReadmeCommandsParse checks the names of the rest). The
// cheap ones (cheapCommands) run for real, each document's in its own
// folder, in order, and succeed.
func TestDocCommandsRun(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs = append([]string{filepath.Join("..", "..", "README.md")}, docs...)
	for i, d := range docs {
		if docs[i], err = filepath.Abs(d); err != nil {
			t.Fatal(err)
		}
	}
	// The cheap commands write relative to the working directory, as a
	// reader's shell would: one folder per document.
	t.Chdir(t.TempDir())
	parsed, ran := 0, 0
	for _, doc := range docs {
		name := filepath.Base(doc)
		if err := os.Mkdir(name, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, line := range docCommands(t, doc) {
			args, ok := runnableCommand(line)
			if !ok {
				continue
			}
			parsed++
			if err := stoppedRun(args); !errors.Is(err, errStopped) {
				t.Errorf("%s: %q does not get to its action: %v", name, line, err)
				continue
			}
			if !isCheap(args) {
				continue
			}
			ran++
			wd, _ := os.Getwd()
			if err := os.Chdir(name); err != nil {
				t.Fatal(err)
			}
			out, err := runCLI(t, args...)
			if err := os.Chdir(wd); err != nil {
				t.Fatal(err)
			}
			if err != nil {
				t.Errorf("%s: %q failed: %v\n%s", name, line, err, out)
			}
		}
	}
	t.Logf("%d commands taken to their action, %d run", parsed, ran)
	if parsed < 30 || ran < 4 {
		t.Errorf("took %d commands to their action and ran %d: the docs' commands were not found", parsed, ran)
	}
}

// runnableCommand is line's mlperf-go arguments (after the program's name,
// up to a shell operator or comment), shell quoting undone; ok is false
// for a line that is a template rather than a command: "…", [optional]
// or <placeholder> parts, shell variables or substitutions.
func runnableCommand(line string) (args []string, ok bool) {
	if strings.ContainsAny(line, "…$[]<>|") || strings.Contains(line, "...") {
		return nil, false
	}
	words, ok := shellWords(line)
	if !ok {
		return nil, false
	}
	at := slices.IndexFunc(words, func(w string) bool { return w == "mlperf-go" || strings.HasSuffix(w, "/mlperf-go") })
	if at < 0 || (at > 0 && strings.HasPrefix(words[at-1], "-")) {
		return nil, false
	}
	for _, w := range words[at+1:] {
		if w == "&&" || w == ";" || w == "&" || strings.HasPrefix(w, "#") || strings.HasPrefix(w, ">") || strings.HasPrefix(w, "2>") {
			break
		}
		args = append(args, w)
	}
	return args, len(args) > 0
}

// shellWords splits line as a POSIX shell does words: blanks separate,
// quotes group, a backslash escapes; ok is false for an unclosed quote.
func shellWords(line string) (words []string, ok bool) {
	var w strings.Builder
	in, quote := false, rune(0)
	escaped := false
	for _, r := range line {
		switch {
		case escaped:
			w.WriteRune(r)
			escaped = false
		case quote != 0 && r == quote:
			quote = 0
		case quote == '\'':
			w.WriteRune(r)
		case r == '\\':
			escaped, in = true, true
		case quote == 0 && (r == '\'' || r == '"'):
			quote, in = r, true
		case quote == 0 && (r == ' ' || r == '\t'):
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, w.String())
	}
	return words, quote == 0
}

// stoppedRun runs args through the CLI with every command's action
// replaced by one returning errStopped; a command with subcommands given
// arguments keeps its own (an unknown subcommand is its error).
func stoppedRun(args []string) error {
	app := newApp()
	var stop func([]*cli.Command)
	stop = func(cmds []*cli.Command) {
		for _, c := range cmds {
			if orig := c.Action; len(c.Subcommands) > 0 && orig != nil {
				c.Action = func(ctx *cli.Context) error {
					if ctx.Args().Present() {
						return orig(ctx)
					}
					return errStopped
				}
			} else {
				c.Action = func(*cli.Context) error { return errStopped }
			}
			stop(c.Subcommands)
		}
	}
	stop(app.Commands)
	app.Writer, app.ErrWriter = &strings.Builder{}, &strings.Builder{}
	return runApp(context.Background(), app, append([]string{"mlperf-go"}, args...))
}

// isCheap reports whether args run one of cheapCommands.
func isCheap(args []string) bool {
	line := strings.Join(args, " ")
	for _, c := range cheapCommands {
		if line == c || strings.HasPrefix(line, c+" ") {
			return true
		}
	}
	return false
}

// TestShellWords: the doc test reads a command line as the shell does.
func TestShellWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line string
		want []string
	}{
		{`mlperf-go run -b x --engine-flag='--limit-mm-per-prompt={"image":1}'`, []string{"mlperf-go", "run", "-b", "x", `--engine-flag=--limit-mm-per-prompt={"image":1}`}},
		{`a "b c" d\ e`, []string{"a", "b c", "d e"}},
	} {
		if got, ok := shellWords(tc.line); !ok || !slices.Equal(got, tc.want) {
			t.Errorf("shellWords(%q) = %q, %v; want %q", tc.line, got, ok, tc.want)
		}
	}
	if _, ok := shellWords(`a "b`); ok {
		t.Error("an unclosed quote was accepted")
	}
	if _, ok := runnableCommand("mlperf-go run … -d DIR"); ok {
		t.Error("a template with … was taken as a command")
	}
}

// TestDocScriptsAndTargets: what README.md and docs/*.md tell readers to
// run besides mlperf-go is there as written. Every scripts/… a code block
// or an inline code span runs (with arguments or settings, inline) is in
// the checkout and executable, and a
// file it is given in an environment variable (TOKENIZER=…) is in the
// checkout or under build/, where the build puts what it makes; every make
// target named is the Makefile's; and every Slurm submission
// (scripts/slurm/submit.sh) passes submit.sh's own checks (--dry-run).
func TestDocScriptsAndTargets(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^([A-Za-z0-9_.-]+):`).FindAllStringSubmatch(string(makefile), -1) {
		targets[m[1]] = true
	}
	stub := filepath.Join(t.TempDir(), "mlperf-go")
	if err := os.WriteFile(stub, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	scripts, submits := 0, 0
	for _, doc := range append([]string{filepath.Join(root, "README.md")}, docs...) {
		name := filepath.Base(doc)
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		lines := docCodeLines(t, doc)
		// An inline code span is a command when it has arguments or
		// settings; alone, a script's name is a reference to it.
		for _, l := range strings.Split(regexp.MustCompile("(?s)```.*?```").ReplaceAllString(string(text), ""), "\n") {
			for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(l, -1) {
				if strings.Contains(strings.TrimSpace(m[1]), " ") {
					lines = append(lines, m[1])
				}
			}
		}
		for _, line := range lines {
			words, ok := shellWords(line)
			if !ok || len(words) == 0 {
				continue
			}
			var env []string
			for len(words) > 0 && regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=`).MatchString(words[0]) {
				env, words = append(env, words[0]), words[1:]
			}
			if len(words) == 0 {
				continue
			}
			prog := strings.TrimPrefix(words[0], "./")
			switch {
			case prog == "make":
				for _, w := range words[1:] {
					if w == "#" || strings.HasPrefix(w, "#") {
						break
					}
					if !strings.Contains(w, "=") && !strings.HasPrefix(w, "-") && !targets[w] {
						t.Errorf("%s: %q: the Makefile has no target %s", name, line, w)
					}
				}
			case strings.HasPrefix(prog, "scripts/"):
				scripts++
				if st, err := os.Stat(filepath.Join(root, prog)); err != nil || st.Mode()&0o111 == 0 {
					t.Errorf("%s: %q: %s is not an executable script of the checkout (%v)", name, line, prog, err)
				}
				for _, e := range env {
					v := e[strings.IndexByte(e, '=')+1:]
					if !strings.Contains(v, "/") || strings.ContainsAny(v, "$<>…") || strings.Contains(v, "://") || filepath.IsAbs(v) || strings.HasPrefix(v, "build/") {
						continue
					}
					if _, err := os.Stat(filepath.Join(root, v)); err != nil {
						t.Errorf("%s: %q: %s names no file of the checkout (nor one the build makes under build/)", name, line, e)
					}
				}
				if prog != "scripts/slurm/submit.sh" || strings.ContainsAny(line, "$…") {
					continue
				}
				submits++
				cmd := exec.Command(filepath.Join(root, prog), append([]string{"--dry-run"}, words[1:]...)...)
				cmd.Env = append(os.Environ(), "MLPERF_GO_BIN="+stub)
				cmd.Dir = t.TempDir()
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("%s: %q does not pass submit.sh's checks: %v\n%s", name, line, err, out)
				}
			}
		}
	}
	if scripts < 5 || submits < 1 {
		t.Errorf("found %d script commands and %d Slurm submissions in the docs", scripts, submits)
	}
}
