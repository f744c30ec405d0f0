package loadgen

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseConfAcceptsOfficialStyle(t *testing.T) {
	// The shape of the reference's language/llama3.1-8b/user.conf and
	// compliance/TEST06/audit.config.
	in := "# The format of this config file is 'key = value'.\n" +
		"#\n" +
		"*.Offline.min_duration = 600000\n" +
		"\n" +
		"*.Server.target_qps = 0.5\n" +
		"llama3_1-8b.Server.ttft_latency = 2000\r\n" +
		"\tllama3.1-8b.*.performance_sample_count_override\t=\t13368  \n" +
		"*.*.mode = 2\n" +
		"*.*.accuracy_log_sampling_target = 0x64\n" +
		"#commented-out\n"
	got, err := ParseConf("user.conf", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []ConfEntry{
		{Line: 3, Model: "*", Scenario: "Offline", Key: "min_duration", Value: "600000"},
		{Line: 5, Model: "*", Scenario: "Server", Key: "target_qps", Value: "0.5"},
		{Line: 6, Model: "llama3_1-8b", Scenario: "Server", Key: "ttft_latency", Value: "2000"},
		{Line: 7, Model: "llama3.1-8b", Scenario: "*", Key: "performance_sample_count_override", Value: "13368"},
		{Line: 8, Model: "*", Scenario: "*", Key: "mode", Value: "2"},
		{Line: 9, Model: "*", Scenario: "*", Key: "accuracy_log_sampling_target", Value: "0x64"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
}

func TestParseConfRejects(t *testing.T) {
	tests := []struct {
		name, line, want string
	}{
		{"no spaces around =", "*.Offline.min_duration=600000", "with spaces"},
		{"no space after =", "*.Offline.min_duration =600000", "with spaces"},
		{"no value", "*.Offline.min_duration =", "no value"},
		{"key only", "*.Offline.min_duration", "no '= value'"},
		{"trailing comment", "*.Offline.min_duration = 600000 # ten minutes", "one value per line"},
		{"two values", "*.Offline.min_duration = 1 2", "one value per line"},
		{"comment without space", "#this is a comment", "space after '#'"},
		{"colon instead of =", "*.Offline.min_duration : 5", "expected 'key = value'"},
		{"not a number", "*.Offline.target_qps = fast", "not a number"},
		{"typo in key", "*.Offline.min_duraton = 5", `no setting "min_duraton"`},
		{"unknown key", "*.Server.performance_sample_count = 8313", "no setting"},
		{"two-part key", "Offline.min_duration = 5", "model.scenario.key"},
		{"empty model", ".Offline.min_duration = 5", "model.scenario.key"},
		{"bad scenario", "*.Interactive.target_qps = 5", "Interactive is the Server scenario"},
		{"lowercase scenario", "*.offline.target_qps = 5", "scenario"},
		{"seed in user.conf", "*.*.qsl_rng_seed = 1", "official mlperf.conf"},
		{"accuracy_log_probability", "*.*.accuracy_log_probability = 10", "official mlperf.conf"},
		{"key for other scenario", "*.Offline.target_latency = 100", "only for SingleStream, MultiStream, Server"},
		{"ttft outside Server", "*.Offline.ttft_latency = 100", "only for Server"},
		{"negative", "*.*.min_query_count = -1", "negative"},
		{"negative float", "*.Server.target_qps = -2.5", "negative"},
		{"fraction for integer", "*.*.min_duration = 1.5", "whole number"},
		{"exponent for integer", "*.*.min_duration = 6e5", "whole number"},
		{"octal", "*.*.min_duration = 0600000", "octal"},
		{"mode out of range", "*.*.mode = 4", "0..3"},
		{"infinite", "*.Server.target_qps = inf", "finite"},
		{"nan", "*.Server.target_qps = nan", "finite"},
		{"overflow", "*.*.min_query_count = 18446744073709551616", "out of range"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := "# header\n\n" + tc.line + "\n*.Offline.min_duration = 5\n"
			_, err := ParseConf("my/user.conf", []byte(in))
			var ce *ConfError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v, want *ConfError", err)
			}
			if ce.File != "my/user.conf" || ce.Line != 3 {
				t.Errorf("error at %s:%d, want my/user.conf:3", ce.File, ce.Line)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "my/user.conf:3: ") {
				t.Errorf("err = %q, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestParseConfFileMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.conf")
	_, err := ParseConfFile(path)
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), path) {
		t.Errorf("err = %v, want not-exist naming %s", err, path)
	}
}
