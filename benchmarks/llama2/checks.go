package llama2

import (
	"fmt"

	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
)

// checks are llama2-70b's own accuracy-log findings: outputs longer than
// the reference generates, outputs TEST06 would fail, empty outputs, and
// where the mean output length stands against the checker's
// tokens_per_sample limits.
type checks struct{ overMax, repeatedEOS int }

// NewChecks returns llama2-70b's checks for one log
// (tokencheck.DatasetInfo.Extra).
func NewChecks() tokencheck.Extra { return &checks{} }

func (c *checks) Sample(tokens []int32) {
	if len(tokens) > MaxTokens {
		c.overMax++
	}
	if tokencheck.EndsWithRepeatedEOS(tokens, EOS) {
		c.repeatedEOS++
	}
}

func (c *checks) Finish(r *tokencheck.Report, d tokencheck.DatasetInfo) {
	if c.overMax > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d samples have more than %d output tokens; the reference generates at most %d (SUT.py max_new_tokens)", c.overMax, MaxTokens, MaxTokens))
	}
	if r.Output.Empty > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d samples have an empty output; the reference generates at least one token (SUT.py min_new_tokens = 1), so requests were not sent like the reference's", r.Output.Empty))
	}
	if c.repeatedEOS > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d samples end with two or more EOS tokens (%d); TEST06's EOS check fails on such output", c.repeatedEOS, EOS))
	}
	if r.Output.Samples == 0 {
		return
	}
	lo, hi := TokensPerSample*0.9, TokensPerSample*1.1
	msg := fmt.Sprintf("tokens_per_sample, the mean output length, is %.1f; the checker wants %.3f to %.3f (±10%% of %g)", r.Output.Mean, lo, hi, TokensPerSample)
	if d.Samples != Samples {
		msg += fmt.Sprintf("; this log covers %d samples, not the full %d, so the run is not valid for submission", d.Samples, Samples)
	}
	r.Notes = append(r.Notes, msg)
}
