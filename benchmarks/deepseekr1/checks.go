package deepseekr1

import (
	"fmt"

	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
)

// checks are deepseek-r1's own accuracy-log findings: outputs longer than
// max_new_tokens, outputs TEST06 would fail, empty outputs, and where the
// mean output length stands against the checker's tokens_per_sample
// limits.
type checks struct{ overMax, repeatedEOS int }

// NewChecks returns deepseek-r1's checks for one log
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
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d samples have more than %d output tokens, the rules' max_new_tokens", c.overMax, MaxTokens))
	}
	if r.Output.Empty > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d samples have an empty output; the rules set min_new_tokens = 1 (the reference SUT stops on an empty answer)", r.Output.Empty))
	}
	if c.repeatedEOS > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d samples end with two or more EOS tokens (%d); TEST06's EOS check fails on such output", c.repeatedEOS, EOS))
	}
	if r.Output.Samples == 0 {
		return
	}
	msg := fmt.Sprintf("tokens_per_sample, the mean output length, is %.4f; the checker wants %.4f to %.4f (±10%% of %g)",
		r.Output.Mean, TokensPerSample*0.9, TokensPerSample*1.1, TokensPerSample)
	if d.Samples != Samples {
		msg += fmt.Sprintf("; this log covers %d samples, not the full %d, so the run is not valid for submission", d.Samples, Samples)
	}
	r.Notes = append(r.Notes, msg)
}
