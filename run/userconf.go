package run

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/loadgen"
)

// settingKey matches the key of a LoadGen setting as user.conf spells it:
// lowercase words joined by underscores (LoadGen's own keys, e.g.
// "target_qps", "min_duration", "performance_sample_count_override").
var settingKey = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// confLine is the user.conf line setting key for model and scenario.
func confLine(model, scenario, key, value string) string {
	return fmt.Sprintf("%s.%s.%s = %s", model, scenario, key, value)
}

// composeUserConf returns the user.conf LoadGen will read: the settings the
// round requires that LoadGen's built-in mlperf.conf lacks (required, the
// benchmark's Settings), then the user's file (if any), then one line per
// --setting override, each scoped to this model and scenario so they win
// over wildcard lines. The required lines come first so that a trial run can
// still change them; checkSubmissionGrade refuses to file a run whose
// settings loosen the rules' limits. Writing overrides as user.conf lines,
// instead of poking fields after FromConfig, keeps every LoadGen
// setting reachable by its own name and leaves a file that says exactly how
// the run was configured (it is filed with the results).
//
// Both sources are checked here, before they are merged, so a malformed line
// is reported at the user's own file and line, or at the --setting that
// produced it, rather than at a line of the generated copy (which is shifted
// by the header and has another name).
// UserConfText is the user.conf a test with these options gives LoadGen
// (and files with its logs): the round's required settings, the user's
// user.conf and the --setting lines.
func (o Options) UserConfText() ([]byte, error) {
	return composeUserConf(o.UserConf, o.Benchmark.LoadGen.Settings, o.Settings, o.Benchmark.LoadGenModel(), o.Scenario.String())
}

func composeUserConf(userConf string, required []benchmark.Setting, overrides []string, model, scenario string) ([]byte, error) {
	var buf bytes.Buffer
	// The header also keeps the file from being empty when nothing is
	// overridden: the submission checker requires a non-empty user.conf.
	fmt.Fprintf(&buf, "# user.conf LoadGen read for %s %s, after its built-in mlperf.conf (written by mlperf-go).\n", model, scenario)
	for _, r := range required {
		line := confLine(model, scenario, r.Key, r.Value) + "\n"
		if !settingKey.MatchString(r.Key) {
			return nil, fmt.Errorf("benchmark setting %q: not a LoadGen user.conf key", r.Key)
		}
		if _, err := loadgen.ParseConf("benchmark setting "+r.Key, []byte(line)); err != nil {
			return nil, err
		}
		fmt.Fprintf(&buf, "# Required by the round, missing from LoadGen's built-in mlperf.conf: %s\n", r.Why)
		buf.WriteString(line)
	}
	if userConf != "" {
		b, err := os.ReadFile(userConf)
		if err != nil {
			return nil, fmt.Errorf("reading --user-conf: %w", err)
		}
		if _, err := loadgen.ParseConf(userConf, b); err != nil {
			return nil, fmt.Errorf("--user-conf: %w", err)
		}
		buf.Write(b)
		if len(b) > 0 && b[len(b)-1] != '\n' {
			buf.WriteByte('\n')
		}
	}
	if len(overrides) > 0 {
		buf.WriteString("# Overrides from the mlperf-go command line (--setting).\n")
	}
	for _, o := range overrides {
		k, v, ok := strings.Cut(o, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || v == "" || !settingKey.MatchString(k) {
			return nil, fmt.Errorf("--setting %q: want key=value with a LoadGen user.conf key, e.g. --setting target_qps=10", o)
		}
		if strings.ContainsAny(v, "\n#") {
			return nil, fmt.Errorf("--setting %q: value must be a single plain value", o)
		}
		line := confLine(model, scenario, k, v) + "\n"
		if _, err := loadgen.ParseConf(fmt.Sprintf("--setting %q", o), []byte(line)); err != nil {
			var ce *loadgen.ConfError
			if errors.As(err, &ce) {
				return nil, fmt.Errorf("--setting %q: %s", o, ce.Msg)
			}
			return nil, fmt.Errorf("--setting %q: %w", o, err)
		}
		buf.WriteString(line)
	}
	return buf.Bytes(), nil
}
