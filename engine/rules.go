package engine

import (
	"fmt"
	"strings"
)

// Rules are the engine flags a benchmark's rules require and forbid. They
// are data the caller passes (the benchmark registry owns the facts), so
// this package never switches on a benchmark.
type Rules struct {
	// Require lists flags the engine must run with, each "--flag" or
	// "--flag VALUE" (one space between the flag and its value). A required
	// flag missing from the arguments is added; present with another value,
	// it is an error.
	Require []string
	// Forbid lists flag names the engine must not run with, in any form
	// (--flag, --flag=VALUE, --flag VALUE).
	Forbid []string
	// Why names where the rules come from, for error messages (e.g.
	// "MLPerf Inference rules for qwen3-vl-235b-a22b on vllm").
	Why string
}

// Merge returns r with o's requirements and prohibitions added.
func (r Rules) Merge(o Rules) Rules {
	out := Rules{
		Require: append(append([]string(nil), r.Require...), o.Require...),
		Forbid:  append(append([]string(nil), r.Forbid...), o.Forbid...),
		Why:     r.Why,
	}
	if out.Why == "" {
		out.Why = o.Why
	}
	return out
}

// normalizeFlag spells a flag the way vLLM's and SGLang's parsers read it:
// both accept underscores for dashes in the name (vLLM rewrites them), so
// --enable_prefix_caching is --enable-prefix-caching.
func normalizeFlag(name string) string {
	if !strings.HasPrefix(name, "--") {
		return name
	}
	return "--" + strings.ReplaceAll(name[2:], "_", "-")
}

// Apply checks args against the rules and returns them with the missing
// required flags appended. It refuses a forbidden flag and a required flag
// given with another value, naming the argument and the fix.
func (r Rules) Apply(args []string) ([]string, error) {
	why := r.Why
	if why == "" {
		why = "the benchmark's rules"
	}
	forbidden := map[string]bool{}
	for _, f := range r.Forbid {
		forbidden[normalizeFlag(f)] = true
	}
	// Where each flag is, and the value that follows it (inline or next).
	type seen struct {
		value  string
		inline bool
		next   bool
	}
	given := map[string]seen{}
	for i, a := range args {
		if !strings.HasPrefix(a, "--") {
			continue
		}
		name, val, inline := strings.Cut(a, "=")
		name = normalizeFlag(name)
		if forbidden[name] {
			return nil, fmt.Errorf("engine argument %s is forbidden by %s: remove it", a, why)
		}
		s := seen{value: val, inline: inline}
		if !inline && i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") {
			s.value, s.next = args[i+1], true
		}
		given[name] = s
	}
	out := append([]string(nil), args...)
	for _, req := range r.Require {
		fields := strings.Fields(req)
		if len(fields) == 0 || len(fields) > 2 {
			return nil, fmt.Errorf("engine rule %q: want \"--flag\" or \"--flag VALUE\"", req)
		}
		name := normalizeFlag(fields[0])
		s, ok := given[name]
		if !ok {
			out = append(out, fields...)
			continue
		}
		if len(fields) == 2 && (s.inline || s.next) && s.value != fields[1] {
			return nil, fmt.Errorf("engine argument %s %s conflicts with %s, which require %s: remove it (the harness adds %s itself)", fields[0], s.value, why, req, req)
		}
		if len(fields) == 2 && !s.inline && !s.next {
			return nil, fmt.Errorf("engine argument %s has no value; %s require %s", fields[0], why, req)
		}
	}
	return out, nil
}
