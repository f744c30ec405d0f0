package buildinfo

import (
	"strings"
	"testing"
)

func TestRoundOf(t *testing.T) {
	tests := []struct {
		version, want string
		wantErr       bool
	}{
		{"6.0.5", "", true},
		{"6.0.6", "v6.0", false},
		{"6.0.15", "v6.0", false},
		{"6.0.16", "v6.1", false},
		{"6.0.17", "v6.1", false},
		{" 6.0.17\n", "v6.1", false},
		{"6.1.0", "", true},
		{"5.1.2", "", true},
		{"6.0", "", true},
		{"6.0.x", "", true},
		{"", "", true},
	}
	for _, tc := range tests {
		got, err := RoundOf(tc.version)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("RoundOf(%q) = %q, %v; want %q, error %v", tc.version, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestStringNamesEverything(t *testing.T) {
	defer func(v, lv, src string) { Version, LoadGenVersion, LoadGenSource = v, lv, src }(Version, LoadGenVersion, LoadGenSource)
	Version, LoadGenVersion, LoadGenSource = "v1.2.3", "6.0.15", "LOADGEN_SRC /x/loadgen"
	s := String()
	for _, want := range []string{"mlperf-go v1.2.3", "LoadGen 6.0.15", "LOADGEN_SRC /x/loadgen", "round: v6.0"} {
		if !strings.Contains(s, want) {
			t.Errorf("String() = %q, lacks %q", s, want)
		}
	}
}
