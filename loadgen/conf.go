package loadgen

import (
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
)

// ConfError is a problem in a LoadGen config file (user.conf), found before
// the file reaches LoadGen. LoadGen's own parser (TestSettings::FromConfig in
// test_settings_internal.cc) silently ignores lines without " = value",
// unknown keys, keys it reads for other scenarios only, and seeds in
// user.conf, and it reads "key = 1 2" as 2; each of those is a ConfError here.
type ConfError struct {
	// File is the config file's path as given.
	File string
	// Line is the 1-based line number.
	Line int
	// Msg says what is wrong and what to write instead.
	Msg string
}

// Error formats the problem as "file:line: msg".
func (e *ConfError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// ConfEntry is one "model.scenario.key = value" line of a config file.
type ConfEntry struct {
	// Line is the 1-based line number.
	Line int
	// Model is the model name or "*".
	Model string
	// Scenario is SingleStream, MultiStream, Server, Offline or "*".
	Scenario string
	// Key is the setting's name, e.g. "target_qps".
	Key string
	// Value is the value exactly as written.
	Value string
}

// confKey describes one key TestSettings::FromConfig reads.
type confKey struct {
	// float: LoadGen reads it with strtod; otherwise strtoull.
	float bool
	// scenarios are the only scenarios LoadGen looks the key up under;
	// nil means the scenario being run.
	scenarios []string
	// officialOnly keys are read only from the official mlperf.conf
	// (conf_type 0), never from user.conf.
	officialOnly bool
	// max bounds integer values where LoadGen treats anything else as an
	// error (mode) or a boolean; 0 means no bound.
	max uint64
}

var (
	serverOnly       = []string{"Server"}
	latencyScenarios = []string{"SingleStream", "MultiStream", "Server"}
)

// confKeys lists every key TestSettings::FromConfig of LoadGen 6.0 looks up.
var confKeys = map[string]confKey{
	"mode":                              {max: 3},
	"qsl_rng_seed":                      {officialOnly: true},
	"sample_index_rng_seed":             {officialOnly: true},
	"schedule_rng_seed":                 {officialOnly: true},
	"accuracy_log_probability":          {float: true, officialOnly: true},
	"test05":                            {officialOnly: true},
	"test05_qsl_rng_seed":               {officialOnly: true},
	"test05_sample_index_rng_seed":      {officialOnly: true},
	"test05_schedule_rng_seed":          {officialOnly: true},
	"use_token_latencies":               {},
	"ttft_latency":                      {scenarios: serverOnly},
	"tpot_latency":                      {scenarios: serverOnly},
	"infer_token_latencies":             {},
	"token_latency_scaling_factor":      {},
	"target_latency_percentile":         {float: true, scenarios: latencyScenarios},
	"samples_per_query":                 {scenarios: []string{"MultiStream"}},
	"target_latency":                    {float: true, scenarios: latencyScenarios},
	"performance_issue_unique":          {},
	"performance_issue_same":            {},
	"performance_issue_same_index":      {},
	"sample_concatenate_permutation":    {},
	"coalesce_queries":                  {scenarios: serverOnly},
	"max_async_queries":                 {scenarios: serverOnly},
	"min_duration":                      {},
	"max_duration":                      {},
	"min_query_count":                   {},
	"max_query_count":                   {},
	"performance_sample_count_override": {},
	"accuracy_sample_count_override":    {},
	"target_qps":                        {float: true, scenarios: []string{"Server", "Offline"}},
	"print_timestamps":                  {},
	"accuracy_log_rng_seed":             {},
	"accuracy_log_sampling_target":      {},
}

var confScenarios = []string{"SingleStream", "MultiStream", "Server", "Offline", "*"}

// ParseConfFile reads a user.conf and checks it as ParseConf does. A missing
// or unreadable file is an error naming it.
func ParseConfFile(path string) ([]ConfEntry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("loadgen: reading config %s: %w", path, err)
	}
	return ParseConf(path, data)
}

// ParseConf checks a user.conf's text line by line the way LoadGen's
// FromConfig splits it (whitespace-separated "key = value", a "#" token
// starting a comment) and returns its entries. It rejects, with a
// *ConfError naming name and the line, everything LoadGen would reject
// (FromConfig then returns -EINVAL) and everything LoadGen would silently
// ignore or misread. Lines for other models are accepted: one user.conf
// commonly serves several benchmarks.
func ParseConf(name string, data []byte) ([]ConfEntry, error) {
	var entries []ConfEntry
	lines := strings.Split(string(data), "\n")
	for i, line := range lines {
		lineNr := i + 1
		errf := func(format string, args ...any) error {
			return &ConfError{File: name, Line: lineNr, Msg: fmt.Sprintf(format, args...)}
		}
		// std::getline stops at '\n'; istream >> splits on isspace.
		toks := strings.FieldsFunc(line, isCSpace)
		if len(toks) == 0 || toks[0] == "#" {
			continue
		}
		if strings.HasPrefix(toks[0], "#") {
			if len(toks) == 1 {
				continue // LoadGen reads a lone "#word" as a key without value: ignored.
			}
			return nil, errf("comment %q: put a space after '#' (LoadGen reads %q as a key)", line, toks[0])
		}
		if strings.Contains(toks[0], "=") || (len(toks) > 1 && toks[1] != "=" && strings.HasPrefix(toks[1], "=")) {
			return nil, errf("%q: write 'key = value' with spaces around '=' (LoadGen ignores or rejects %q)", strings.TrimSpace(line), toks[0])
		}
		if len(toks) == 1 {
			return nil, errf("%q has no '= value' (LoadGen would silently ignore the line)", toks[0])
		}
		if toks[1] != "=" {
			return nil, errf("expected 'key = value', got %q (LoadGen: expected 'key=value')", strings.TrimSpace(line))
		}
		if len(toks) == 2 {
			return nil, errf("%q has no value after '=' (LoadGen would silently ignore the line)", toks[0])
		}
		if len(toks) > 3 {
			return nil, errf("%q: one value per line and no trailing comment (LoadGen rejects or keeps only the last of %q)", toks[0], strings.Join(toks[2:], " "))
		}
		key, value := toks[0], toks[2]
		parts := strings.Split(key, ".")
		if len(parts) < 3 || slicesHasEmpty(parts) {
			return nil, errf("key %q: want model.scenario.key, e.g. *.Offline.min_duration", key)
		}
		e := ConfEntry{
			Line:     lineNr,
			Model:    strings.Join(parts[:len(parts)-2], "."),
			Scenario: parts[len(parts)-2],
			Key:      parts[len(parts)-1],
			Value:    value,
		}
		if !contains(confScenarios, e.Scenario) {
			return nil, errf("key %q: scenario %q is not one of %s (LoadGen would never read it; Interactive is the Server scenario of a *-interactive model)", key, e.Scenario, strings.Join(confScenarios, ", "))
		}
		spec, ok := confKeys[e.Key]
		if !ok {
			return nil, errf("key %q: LoadGen has no setting %q, so it would silently ignore the line (known: %s)", key, e.Key, knownKeys())
		}
		if spec.officialOnly {
			return nil, errf("key %q: %s is read only from the official mlperf.conf built into LoadGen; LoadGen ignores it in user.conf", key, e.Key)
		}
		if spec.scenarios != nil && e.Scenario != "*" && !contains(spec.scenarios, e.Scenario) {
			return nil, errf("key %q: LoadGen reads %s only for %s, so this line would be ignored", key, e.Key, strings.Join(spec.scenarios, ", "))
		}
		if err := checkConfValue(value, spec); err != nil {
			return nil, errf("key %q: value %q: %v", key, value, err)
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// checkConfValue accepts what LoadGen accepts (a whole token that strtoul or
// strtod consume) minus what it would misread.
func checkConfValue(v string, spec confKey) error {
	if u, ok, err := parseCUint(v); ok {
		if err != nil {
			return err
		}
		if spec.max != 0 && u > spec.max {
			return fmt.Errorf("must be 0..%d", spec.max)
		}
		return nil
	}
	f, ok := parseCFloat(v)
	if !ok {
		return fmt.Errorf("not a number (LoadGen: value needs to be integer or double)")
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("must be finite")
	}
	if f < 0 {
		return fmt.Errorf("must not be negative")
	}
	if !spec.float {
		// LoadGen reads integer keys with strtoull, which stops at the '.'.
		if f != math.Trunc(f) || strings.ContainsAny(v, "eE") {
			return fmt.Errorf("must be a whole number (LoadGen reads it with strtoull and would truncate it)")
		}
	}
	return nil
}

// parseCUint reports whether v is a whole token strtoul(v, 0) consumes
// (optional sign, 0x hex, leading-0 octal, decimal). err is set for values
// LoadGen would misread: negatives wrap around, a leading zero means octal.
func parseCUint(v string) (u uint64, ok bool, err error) {
	s := v
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" {
		return 0, false, nil
	}
	base := 10
	digits := s
	switch {
	case len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X"):
		base, digits = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, digits = 8, s[1:]
	}
	for _, c := range digits {
		if !isDigitIn(c, base) {
			return 0, false, nil
		}
	}
	u, perr := strconv.ParseUint(digits, base, 64)
	if perr != nil {
		return 0, true, fmt.Errorf("out of range for a 64-bit unsigned integer")
	}
	if neg && u != 0 {
		return 0, true, fmt.Errorf("must not be negative (LoadGen's strtoull wraps it to a huge number)")
	}
	if base == 8 {
		if d, derr := strconv.ParseUint(s, 10, 64); derr != nil || d != u {
			return 0, true, fmt.Errorf("a leading zero makes LoadGen read it as octal (%d); drop the zero", u)
		}
	}
	return u, true, nil
}

// parseCFloat reports whether v is a whole token strtod consumes, in the
// decimal forms a config file uses (no hex floats).
func parseCFloat(v string) (float64, bool) {
	if strings.ContainsAny(v, "_xXpP") {
		return 0, false
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return f, true
		}
		return 0, false
	}
	return f, true
}

func isDigitIn(c rune, base int) bool {
	switch base {
	case 8:
		return c >= '0' && c <= '7'
	case 16:
		return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
	}
	return c >= '0' && c <= '9'
}

// isCSpace is C's isspace in the "C" locale.
func isCSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		return true
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func slicesHasEmpty(parts []string) bool {
	for _, p := range parts {
		if p == "" {
			return true
		}
	}
	return false
}

func knownKeys() string {
	var names []string
	for k, spec := range confKeys {
		if !spec.officialOnly {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
