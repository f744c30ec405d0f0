//go:build cgo

package loadgen

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/internal/buildinfo"
)

func writeConf(t testing.TB, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "user.conf")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Seeds per round: v6.1 from the submission checker's constants (shared
// SUBMISSION.md); v6.0 from mlcommons-loadgen 6.0.15's mlperf.conf.
var roundSeeds = map[string][3]uint64{
	"v6.0": {2465351861681999779, 14276810075590677512, 3936089224930324775},
	"v6.1": {2085463073848966840, 2747215439041700203, 16159082839903944936},
}

func TestOfficialConfSeedsMatchRound(t *testing.T) {
	round, err := buildinfo.RoundOf(Version())
	if err != nil {
		t.Fatal(err)
	}
	s, err := SettingsFromConfig("llama3_1-8b", Server, PerformanceOnly, "")
	if err != nil {
		t.Fatal(err)
	}
	got := [3]uint64{s.QSLRNGSeed, s.SampleIndexRNGSeed, s.ScheduleRNGSeed}
	if got != roundSeeds[round] {
		t.Errorf("LoadGen %s (round %s) seeds %v, want %v", Version(), round, got, roundSeeds[round])
	}
	// The same seeds are in the conf text MLPerfConf returns.
	conf := MLPerfConf()
	for i, key := range []string{"qsl_rng_seed", "sample_index_rng_seed", "schedule_rng_seed"} {
		m := regexp.MustCompile(`(?m)^\*\.\*\.` + key + ` = (\d+)`).FindStringSubmatch(conf)
		if m == nil {
			t.Fatalf("MLPerfConf has no %s", key)
		}
		if v, _ := strconv.ParseUint(m[1], 10, 64); v != got[i] {
			t.Errorf("%s: conf %d, settings %d", key, v, got[i])
		}
	}
	// llama3.1-8b's Server bounds from the official conf (SUBMISSION.md:
	// p99 TTFT 2 s, TPOT 100 ms, token latencies on).
	if !s.UseTokenLatencies || s.ServerTTFTLatencyNs != 2e9 || s.ServerTPOTLatencyNs != 1e8 || s.MinDurationMs != 600000 {
		t.Errorf("use_token_latencies %v, TTFT %d ns, TPOT %d ns, min duration %d ms; want true, 2e9, 1e8, 600000",
			s.UseTokenLatencies, s.ServerTTFTLatencyNs, s.ServerTPOTLatencyNs, s.MinDurationMs)
	}
}

func TestUserConfOverridesReachTheDetailLog(t *testing.T) {
	conf := writeConf(t, "# test\n"+
		"*.Offline.min_duration = 321\n"+
		"mymodel.Offline.target_qps = 1234.5\n"+
		"othermodel.Offline.min_query_count = 7\n"+
		"*.*.performance_sample_count_override = 12\n")
	s, err := SettingsFromConfig("mymodel", Offline, AccuracyOnly, conf)
	if err != nil {
		t.Fatal(err)
	}
	if s.MinDurationMs != 321 || s.OfflineExpectedQPS != 1234.5 || s.PerformanceSampleCountOverride != 12 {
		t.Errorf("settings = %+v", s)
	}
	if s.MinQueryCount == 7 {
		t.Error("a line for another model was applied")
	}
	log := quickLog(t)
	sut := &echoSUT{c: Native()}
	if err := StartTest(sut, newTestQSL(20, 20), s, log, ""); err != nil {
		t.Fatal(err)
	}
	sut.check(t)
	detail := readLog(t, log.OutDir, "detail.txt")
	for key, want := range map[string]string{
		"requested_min_duration_ms":                   "321",
		"requested_offline_expected_qps":              "1234.5",
		"requested_performance_sample_count_override": "12",
		"effective_performance_sample_count":          "12",
	} {
		if got := detailValue(t, detail, key); got != want {
			t.Errorf("%s = %s, want %s", key, got, want)
		}
	}
	if errs := detailErrors(detail); len(errs) != 0 {
		t.Errorf("LoadGen logged errors:\n%s", strings.Join(errs, "\n"))
	}
}

func TestSettingsFromConfigErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "user.conf")
	if _, err := SettingsFromConfig("m", Offline, PerformanceOnly, missing); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: err = %v", err)
	}
	bad := writeConf(t, "*.Offline.min_duration = 10\n*.Offline.target_qps=5\n")
	_, err := SettingsFromConfig("m", Offline, PerformanceOnly, bad)
	var ce *ConfError
	if !errors.As(err, &ce) || ce.File != bad || ce.Line != 2 {
		t.Errorf("malformed file: err = %v, want ConfError at %s:2", err, bad)
	}
	if _, err := SettingsFromConfig("", Offline, PerformanceOnly, ""); err == nil {
		t.Error("empty model accepted")
	}
	// A user.conf that switches to FindPeakPerformance outside Server.
	peak := writeConf(t, "*.*.mode = 3\n")
	if _, err := SettingsFromConfig("m", Offline, PerformanceOnly, peak); err == nil {
		t.Error("mode 3 for Offline accepted")
	}
}

// TestSettingsRoundTripThroughCPlusPlus gives every field a distinct value
// and passes the settings through the shim's C++ conversion both ways
// (FromConfig with an empty file changes nothing).
func TestSettingsRoundTripThroughCPlusPlus(t *testing.T) {
	want := TestSettings{
		Scenario: Server, Mode: FindPeakPerformance,
		SingleStreamExpectedLatencyNs: 1.5, SingleStreamTargetLatencyPercentile: 2.5,
		MultiStreamExpectedLatencyNs: 3.5, MultiStreamTargetLatencyPercentile: 4.5, MultiStreamSamplesPerQuery: 5,
		ServerTargetQPS: 6.5, ServerTargetLatencyNs: 7, ServerTargetLatencyPercentile: 8.5,
		ServerCoalesceQueries: true, ServerFindPeakQPSDecimalsOfPrecision: 9, ServerFindPeakQPSBoundaryStepSize: 10.5,
		ServerMaxAsyncQueries: 11, ServerNumIssueQueryThreads: 12,
		OfflineExpectedQPS: 13.5, SampleConcatenatePermutation: true,
		MinDurationMs: 14, MaxDurationMs: 15, MinQueryCount: 16, MaxQueryCount: 17,
		QSLRNGSeed: 18, SampleIndexRNGSeed: 19, ScheduleRNGSeed: 20, AccuracyLogRNGSeed: 21,
		AccuracyLogProbability: 22.5, AccuracyLogSamplingTarget: 23,
		Test05: true, Test05QSLRNGSeed: 24, Test05SampleIndexRNGSeed: 25, Test05ScheduleRNGSeed: 26,
		PrintTimestamps: true, PerformanceIssueUnique: true, PerformanceIssueSame: true,
		PerformanceIssueSameIndex: 27, PerformanceSampleCountOverride: 28, AccuracySampleCountOverride: 29,
		UseTokenLatencies: true, ServerTTFTLatencyNs: 30, ServerTPOTLatencyNs: 31,
		InferTokenLatencies: true, TokenLatencyScalingFactor: 32,
	}
	got := want
	if err := got.applyConfig(writeConf(t, ""), "m", confUser); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

// FuzzParseConf: ParseConf never panics, and whatever it accepts LoadGen's
// own FromConfig accepts too (it is only called then, so no LoadGen error
// is logged into later tests).
func FuzzParseConf(f *testing.F) {
	f.Add("*.Offline.min_duration = 600000\n# c\n\n*.Server.target_qps = 0.5\n")
	f.Add("m.Server.ttft_latency = 2000\r\nm.*.mode = 1\n")
	f.Add("*.*.min_duration=5\n")
	f.Add("#x y\n*.*.min_query_count = 0x10\n")
	f.Add("*.Offline.target_qps = 1e3\n*.*.min_query_count = 010\n")
	f.Fuzz(func(t *testing.T, text string) {
		if _, err := ParseConf("fuzz.conf", []byte(text)); err != nil {
			return
		}
		s := DefaultTestSettings()
		s.Scenario = Offline
		if err := s.applyConfig(writeConf(t, text), "m", confUser); err != nil {
			t.Fatalf("ParseConf accepted %q but LoadGen rejected it: %v", text, err)
		}
	})
}
