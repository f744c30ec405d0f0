package llama2

import (
	"fmt"

	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
)

// checks are llama2-70b's own accuracy-log findings: outputs longer than
// the reference generates, outputs TEST06 would fail, empty outputs, and
// where the mean output length stands against the checker's
// tokens_per_sample limits.
type checks struct{ tokencheck.OutputChecks }

// outputChecks are the reference's output-length rules and what the
// warnings cite for them.
var outputChecks = tokencheck.OutputChecks{
	MaxTokens: MaxTokens,
	EOS:       []int32{EOS},
	OverMax:   fmt.Sprintf("; the reference generates at most %d (SUT.py max_new_tokens)", MaxTokens),
	Empty:     "; the reference generates at least one token (SUT.py min_new_tokens = 1), so requests were not sent like the reference's",
}

// NewChecks returns llama2-70b's checks for one log
// (tokencheck.DatasetInfo.Extra).
func NewChecks() tokencheck.Extra { return &checks{outputChecks} }

func (c *checks) Finish(r *tokencheck.Report, d tokencheck.DatasetInfo) {
	c.Warn(r)
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
