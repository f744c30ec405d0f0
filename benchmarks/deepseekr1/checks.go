package deepseekr1

import (
	"fmt"

	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
)

// checks are deepseek-r1's own accuracy-log findings: outputs longer than
// max_new_tokens, outputs TEST06 would fail, empty outputs, and where the
// mean output length stands against the checker's tokens_per_sample
// limits.
type checks struct{ tokencheck.OutputChecks }

// outputChecks are the reference's output-length rules and what the
// warnings cite for them.
var outputChecks = tokencheck.OutputChecks{
	MaxTokens: MaxTokens,
	EOS:       []int32{EOS},
	OverMax:   ", the rules' max_new_tokens",
	Empty:     "; the rules set min_new_tokens = 1 (the reference SUT stops on an empty answer)",
}

// NewChecks returns deepseek-r1's checks for one log
// (tokencheck.DatasetInfo.Extra).
func NewChecks() tokencheck.Extra { return &checks{outputChecks} }

func (c *checks) Finish(r *tokencheck.Report, d tokencheck.DatasetInfo) {
	c.Warn(r)
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
