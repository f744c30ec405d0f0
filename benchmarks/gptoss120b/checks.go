package gptoss120b

import (
	"fmt"

	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
)

// checks are gpt-oss-120b's own accuracy-log findings: outputs longer than
// max_new_tokens and the mean output length against TEST09's bounds.
type checks struct{}

// NewChecks returns gpt-oss-120b's checks for one log
// (tokencheck.DatasetInfo.Extra).
func NewChecks() tokencheck.Extra { return checks{} }

func (checks) Sample([]int32) {}

func (checks) Finish(r *tokencheck.Report, d tokencheck.DatasetInfo) {
	r.WarnEmpty()
	if r.Output.Max > MaxNewTokens {
		r.Warnings = append(r.Warnings, fmt.Sprintf("the longest output has %d tokens, more than the reference's max_new_tokens %d (generation_config.json)", r.Output.Max, MaxNewTokens))
	}
	if r.Output.Samples == 0 {
		return
	}
	in := r.Output.Mean >= TEST09MinMeanTokens && r.Output.Mean <= TEST09MaxMeanTokens
	where := "inside"
	if !in {
		where = "outside"
	}
	msg := fmt.Sprintf("mean output length %.2f tokens is %s TEST09's bounds [%.2f, %.2f]", r.Output.Mean, where, TEST09MinMeanTokens, TEST09MaxMeanTokens)
	if d.Samples != PerformanceSamples {
		msg += fmt.Sprintf("; those bound performance-mode runs over the %d-sample performance set (reasoning_effort low), so for this %d-sample log it is only a rough comparison", PerformanceSamples, d.Samples)
	} else if !in {
		r.Warnings = append(r.Warnings, msg+"; TEST09 would fail")
		return
	}
	r.Notes = append(r.Notes, msg)
	if d.Samples != AccuracySamples {
		r.Notes = append(r.Notes, fmt.Sprintf("an accuracy run for submission covers the %d-sample accuracy set; this one covers %d", AccuracySamples, d.Samples))
	}
}
