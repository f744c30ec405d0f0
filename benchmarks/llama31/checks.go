package llama31

import (
	"fmt"

	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
)

// checks are llama3_1-8b's own accuracy-log findings: outputs longer than
// the reference generates, empty outputs, outputs TEST06 would fail, and the
// gen_len target that applies.
type checks struct{ tokencheck.OutputChecks }

// outputChecks are the reference's output-length rules and what the
// warnings cite for them.
var outputChecks = tokencheck.OutputChecks{
	MaxTokens: MaxTokens,
	EOS:       EndOfSequence,
	OverMax:   fmt.Sprintf("; the reference generates at most %d (SUT_VLLM.py max_tokens)", MaxTokens),
	Empty:     "; the reference sets min_tokens = 1 (SUT_VLLM.py), so requests were not sent like the reference's",
}

// NewChecks returns llama3_1-8b's checks for one log
// (tokencheck.DatasetInfo.Extra).
func NewChecks() tokencheck.Extra { return &checks{outputChecks} }

func (c *checks) Finish(r *tokencheck.Report, d tokencheck.DatasetInfo) {
	c.Warn(r)
	target := 0
	switch d.Samples {
	case Samples:
		target = GenLen
	case EdgeSamples:
		target = EdgeGenLen
	}
	if target > 0 {
		// gen_len counts characters, which only the evaluation knows:
		// the output tokens above are not comparable with it.
		r.Notes = append(r.Notes, fmt.Sprintf("gen_len, the characters of the decoded summaries (the evaluation counts them), must be within ±10%% of %d ([%d, %d])",
			target, target*9/10, target*11/10))
	} else {
		r.Notes = append(r.Notes, fmt.Sprintf("the set has %d samples, not the full %d (or %d edge): the gen_len target does not apply and the run is not valid for submission", d.Samples, Samples, EdgeSamples))
	}
}
