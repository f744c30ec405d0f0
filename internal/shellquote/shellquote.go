// Package shellquote writes arguments as a POSIX shell reads them back,
// for the commands the harness prints for the user to run (an engine's
// command line, how to file a run, how to score a log).
package shellquote

import "strings"

// safe are the characters an argument may hold and be written bare.
const safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=+@%,"

// Quote is s as one shell word: bare when it holds only safe characters,
// else in single quotes (a single quote inside closes them, is escaped
// and reopens them).
func Quote(s string) string {
	if s != "" && strings.Trim(s, safe) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Join is args as one command line, each quoted as it needs.
func Join(args ...string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = Quote(a)
	}
	return strings.Join(q, " ")
}
