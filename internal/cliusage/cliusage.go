// Package cliusage makes a urfave/cli v2 app read a command line and
// answer its mistakes as its users expect: a mistyped flag or command, a
// flag without its value or a required flag left out gets the error, the
// nearest name when one is close, and the command's usage line, not the
// whole help (Short); flags written after a command's positional
// arguments are read too (Positional).
package cliusage

import (
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// Short makes app and every command, at any depth, answer a
// usage error (an unknown flag, a flag without its value, a value that
// does not parse, a required flag missing) with the error, the nearest
// flag name if one is close, and the command's usage line. urfave/cli's
// default prints the whole help after the error (run's is 140 lines),
// which scrolls the error away.
func Short(app *cli.App) {
	app.OnUsageError = func(c *cli.Context, err error, _ bool) error { return usageError(c.Command, nil, err) }
	// A command name urfave/cli does not know gets "No help topic" and
	// exit 3 (README's code for LoadGen INVALID); the app and each command
	// that only groups others answer it like a mistyped flag instead.
	if app.Action == nil {
		app.Action = unknownCommand
	}
	// urfave/cli checks required flags itself and prints the whole help
	// before saying which is missing: each command checks its own
	// instead, in Before. The names are collected first, as commands may
	// share flag values.
	required := map[*cli.Command][]string{}
	var collect func([]*cli.Command)
	collect = func(cmds []*cli.Command) {
		for _, c := range cmds {
			for _, f := range c.Flags {
				if r, ok := f.(cli.RequiredFlag); ok && r.IsRequired() {
					required[c] = append(required[c], f.Names()[0])
				}
			}
			collect(c.Subcommands)
		}
	}
	collect(app.Commands)
	for c, names := range required {
		for _, f := range c.Flags {
			unrequire(f)
		}
		if c.Before != nil {
			panic("command " + c.Name + " has a Before hook: chain it with the required-flag check")
		}
		c.Before = func(ctx *cli.Context) error {
			for _, n := range names {
				if !ctx.IsSet(n) {
					return usageError(ctx.Command, names, fmt.Errorf("flag %s is required", dashed(n)))
				}
			}
			return nil
		}
	}
	var walk func([]*cli.Command)
	walk = func(cmds []*cli.Command) {
		for _, c := range cmds {
			names := required[c]
			c.OnUsageError = func(ctx *cli.Context, err error, _ bool) error { return usageError(ctx.Command, names, err) }
			if c.Action == nil && len(c.Subcommands) > 0 {
				c.Action = unknownCommand
			}
			walk(c.Subcommands)
		}
	}
	walk(app.Commands)
}

// unrequire turns off urfave/cli's own check of a required flag (the
// types the commands mark Required; the test of the usage errors fails on
// another).
func unrequire(f cli.Flag) {
	switch f := f.(type) {
	case *cli.StringFlag:
		f.Required = false
	case *cli.StringSliceFlag:
		f.Required = false
	}
}

// unknownCommand is the Action of the app and of each command that only
// groups others: without arguments it shows the help, as urfave/cli does;
// with one it is a command name not known.
func unknownCommand(c *cli.Context) error {
	if !c.Args().Present() {
		if c.Command.HelpName == c.App.HelpName {
			return cli.ShowAppHelp(c)
		}
		return cli.ShowSubcommandHelp(c)
	}
	typed := c.Args().First()
	var names []string
	for _, sub := range c.Command.Subcommands {
		if sub.Name != "help" && !sub.Hidden {
			names = append(names, sub.Names()...)
		}
	}
	msg := fmt.Sprintf("unknown command %q", typed)
	if near := nearest(names, typed); near != "" {
		msg += "; did you mean " + near + "?"
	} else if deeper := nestedCommands(c.Command.Subcommands, "", typed); len(deeper) > 0 {
		// A command one level down typed at this one ("compare" for
		// "bench compare").
		msg += "; did you mean " + strings.Join(deeper, " or ") + "?"
	}
	return fmt.Errorf("%s\nusage: %s\n(`%s --help` lists the commands)", msg, usageLine(c.Command, nil), c.Command.HelpName)
}

// nestedCommands are the paths ("bench compare") of the commands below
// cmds, at any depth past the first, named typed.
func nestedCommands(cmds []*cli.Command, prefix, typed string) []string {
	var out []string
	for _, c := range cmds {
		if c.Hidden || c.Name == "help" {
			continue
		}
		path := strings.TrimSpace(prefix + " " + c.Name)
		for _, sub := range c.Subcommands {
			if !sub.Hidden && slices.Contains(sub.Names(), typed) {
				out = append(out, path+" "+sub.Name)
			}
		}
		out = append(out, nestedCommands(c.Subcommands, path, typed)...)
	}
	return out
}

// usageError is the error for a command line of cmd that did not parse;
// required are cmd's required flags, for its usage line.
func usageError(cmd *cli.Command, required []string, err error) error {
	msg := err.Error()
	// The flag package names flags with one dash; the help shows two.
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		msg = "unknown flag " + dashed(name)
		if near := nearestFlag(cmd.Flags, name); near != "" {
			msg += "; did you mean " + dashed(near) + "?"
		}
	} else if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		msg = "flag " + dashed(name) + " needs a value"
	} else if m := flagInMessage.FindStringSubmatchIndex(msg); m != nil {
		msg = msg[:m[2]] + dashed(msg[m[2]+1:m[3]]) + msg[m[3]:]
	}
	return fmt.Errorf("%s\nusage: %s\n(`%s --help` lists every flag)", msg, usageLine(cmd, required), cmd.HelpName)
}

// flagInMessage finds the flag named in the flag package's other errors
// ("invalid value "x" for flag -concurrency: parse error").
var flagInMessage = regexp.MustCompile(`for flag (-[^:\s]+)`)

// dashed is a flag name as typed: -x for one letter, --name otherwise.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// nearestFlag is the name (or alias) among flags closest to typed, or ""
// when none is close enough to be what was meant: at most a third of the
// longer name's letters edited, and at least one kept.
func nearestFlag(flags []cli.Flag, typed string) string {
	var names []string
	for _, f := range flags {
		names = append(names, f.Names()...)
	}
	return nearest(names, typed)
}

// nearest is the name closest to typed by nearestFlag's measure, or "".
func nearest(names []string, typed string) string {
	best, bestDist := "", 0
	for _, n := range names {
		d := editDistance(n, typed)
		if d*3 <= max(len(n), len(typed)) && d < max(len(n), len(typed)) && (best == "" || d < bestDist) {
			best, bestDist = n, d
		}
	}
	return best
}

// editDistance is the edit distance between a and b counting a swap of
// two neighbouring letters as one edit (optimal string alignment; bytes:
// flag names are ASCII).
func editDistance(a, b string) int {
	pprev, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, sub)
			// Two letters swapped ("onyl") are one slip of the fingers.
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], pprev[j-2]+1)
			}
		}
		pprev, prev, cur = prev, cur, pprev
	}
	return prev[len(b)]
}

// usageLine is the command's synopsis: its required flags with their
// placeholders, then [options], its arguments and COMMAND if it has
// subcommands.
func usageLine(cmd *cli.Command, required []string) string {
	if cmd.UsageText != "" {
		return cmd.UsageText
	}
	parts := []string{cmd.HelpName}
	for _, f := range cmd.Flags {
		if slices.Contains(required, f.Names()[0]) {
			parts = append(parts, dashed(f.Names()[0])+" "+placeholder(f))
		}
	}
	if len(cmd.Flags) > 0 {
		parts = append(parts, "[options]")
	}
	if cmd.ArgsUsage != "" {
		parts = append(parts, cmd.ArgsUsage)
	}
	for _, sub := range cmd.Subcommands {
		// urfave/cli gives every command a help subcommand; only real
		// ones make COMMAND part of the synopsis.
		if sub.Name != "help" && !sub.Hidden {
			parts = append(parts, "COMMAND")
			break
		}
	}
	return strings.Join(parts, " ")
}

// placeholder is the word help shows for f's value: the first `quoted`
// word of its usage, else its name in capitals.
func placeholder(f cli.Flag) string {
	if d, ok := f.(cli.DocGenerationFlag); ok {
		if q := FirstQuoted(d.GetUsage()); q != "" {
			return q
		}
	}
	return strings.ToUpper(f.Names()[0])
}

// FirstQuoted is the text between the first two backquotes of usage, the
// placeholder urfave/cli shows for the flag's value ("" if none).
func FirstQuoted(usage string) string {
	_, rest, ok := strings.Cut(usage, "`")
	if !ok {
		return ""
	}
	q, _, ok := strings.Cut(rest, "`")
	if !ok {
		return ""
	}
	return q
}

// Positional returns c's positional arguments after reading any flags
// written among or after them, which urfave/cli v2 leaves unparsed (it stops
// at the first argument): `check OUT --round v6.1` then means
// `check --round v6.1 OUT`. "--" ends the flags.
func Positional(c *cli.Context) ([]string, error) {
	var pos []string
	rest := c.Args().Slice()
	for len(rest) > 0 {
		switch a := rest[0]; {
		case a == "--":
			return append(pos, rest[1:]...), nil
		case a == "-" || !strings.HasPrefix(a, "-"):
			pos = append(pos, a)
			rest = rest[1:]
			continue
		}
		fs := flag.NewFlagSet(c.Command.Name, flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		for _, f := range c.Command.Flags {
			if err := f.Apply(fs); err != nil {
				return nil, err
			}
		}
		if err := fs.Parse(rest); err != nil {
			return nil, fmt.Errorf("%s: %w (see `%s %s --help`)", c.Command.FullName(), err, c.App.Name, c.Command.FullName())
		}
		var err error
		fs.Visit(func(f *flag.Flag) {
			if err == nil {
				err = c.Set(f.Name, f.Value.String())
			}
		})
		if err != nil {
			return nil, err
		}
		rest = fs.Args()
	}
	return pos, nil
}
