package run

import (
	"errors"
	"fmt"
	"math"

	"github.com/mlperf-go/mlperf-go/internal/buildinfo"
	"github.com/mlperf-go/mlperf-go/loadgen"
)

// submissionMinDurationMS is the rules' minimum test duration
// (TEST_DURATION_MS of the submission checker).
const submissionMinDurationMS = 600000

// offlineSlack is LoadGen's kSlack: an Offline query carries
// 1.1 × min_duration × target_qps samples (test_settings_internal.cc).
const offlineSlack = 1.1

// checkSubmissionGrade refuses, before anything runs, settings that cannot
// make a run the submission checker accepts: a run filed into a results
// tree (Options.SubmissionGrade) must be one. Each refusal says the fix.
// Short runs without it stay allowed. total is the number of samples the
// run's library holds, dataset the number the dataset holds.
func checkSubmissionGrade(o Options, s loadgen.TestSettings, total, dataset int) error {
	round := o.Round
	if round == "" {
		round, _ = buildinfo.Round()
	}
	if o.Benchmark.Submission.NotFileable != "" {
		return fmt.Errorf("--results-dir: %s", o.Benchmark.Submission.NotFileable)
	}
	rules := o.Benchmark.Submission.Rounds[round]
	if rules == nil {
		return fmt.Errorf("--results-dir: %s has no submission rules for round %q; pass --round with a round it has", o.Benchmark.Name, round)
	}
	var errs []error
	refuse := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("--results-dir: "+format, args...))
	}
	scen := o.SubmissionScenario()
	if o.Benchmark.Data.Size > 0 && dataset > o.Benchmark.Data.Size {
		// The run would take the first DatasetSize samples: a run of the
		// Interactive variant over the whole qwen3-vl catalogue would
		// silently be a run over its first 8,000 rows, not the 8k dataset.
		refuse("the dataset holds %d samples, more than %s's official %d: pass its official dataset (%s)", dataset, o.Benchmark.Name, o.Benchmark.Data.Size, o.Benchmark.Data.Help)
	}
	if s.Mode == loadgen.AccuracyOnly {
		want := rules.AccuracySampleCount[scen]
		if want == 0 {
			want = rules.AccuracySampleCount[""]
		}
		if want > 0 && int64(total) < want {
			// Name the cause: --total-sample-count only where it was
			// passed and capped the run, else the dataset itself.
			fix := fmt.Sprintf("the dataset holds %d: pass the whole one (%s)", dataset, o.Benchmark.Data.Help)
			if o.TotalSampleCount > 0 && o.TotalSampleCount < dataset {
				fix = "drop --total-sample-count and use the whole dataset"
			}
			refuse("an accuracy run over %d samples cannot be submitted: the rules want all %d; %s", total, want, fix)
		}
		if s.AccuracySampleCountOverride > 0 && int64(s.AccuracySampleCountOverride) < want {
			refuse("accuracy_sample_count_override = %d covers a subset; the rules want all %d samples: remove the override", s.AccuracySampleCountOverride, want)
		}
		return refusal(errs)
	}
	if limit := rules.LatencyConstraintNS[scen]; o.Scenario == loadgen.Server && limit > 0 && int64(s.ServerTargetLatencyNs) > limit {
		refuse("target_latency %d ms is above the %s limit of %d ms: drop the target_latency setting", s.ServerTargetLatencyNs/1e6, scen, limit/1e6)
	}
	if s.MinDurationMs < submissionMinDurationMS {
		refuse("min_duration %d ms is below the rules' %d ms: drop --min-duration (or the min_duration setting) or set it to %d", s.MinDurationMs, submissionMinDurationMS, submissionMinDurationMS)
	}
	if want := rules.PerformanceSampleCount; want > 0 {
		if s.PerformanceSampleCountOverride > 0 && int64(s.PerformanceSampleCountOverride) != want {
			refuse("performance_sample_count_override = %d; the official performance sample count is %d: remove the override", s.PerformanceSampleCountOverride, want)
		} else if s.PerformanceSampleCountOverride == 0 && o.PerformanceSampleCount > 0 && int64(o.PerformanceSampleCount) != want {
			refuse("--performance-sample-count %d; the official count is %d: drop the flag", o.PerformanceSampleCount, want)
		}
	}
	if o.Scenario == loadgen.Offline && rules.OfflineMinSamplesPerQuery > 0 {
		spq := max(s.MinQueryCount, uint64(offlineSlack*float64(s.MinDurationMs)/1000*s.OfflineExpectedQPS))
		if int64(spq) < rules.OfflineMinSamplesPerQuery {
			qps := float64(rules.OfflineMinSamplesPerQuery) / (offlineSlack * float64(max(s.MinDurationMs, submissionMinDurationMS)) / 1000)
			refuse("the Offline query would carry %d samples (1.1 × min_duration × target_qps %g); the rules want at least %d: raise --target-qps to %g or more", spq, s.OfflineExpectedQPS, rules.OfflineMinSamplesPerQuery, math.Ceil(qps*100)/100)
		}
	}
	return refusal(errs)
}

// refusal joins the grade check's refusals and, when there are any, says
// how a rehearsal files such a run anyway.
func refusal(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	return errors.Join(append(errs, errors.New("(to file such a run anyway, to rehearse the workflow, add --allow-unofficial-settings: "+
		"mlperf-go submission check will still refuse it)"))...)
}
