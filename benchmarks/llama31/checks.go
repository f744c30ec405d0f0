package llama31

import (
	"fmt"

	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokencheck"
)

// checks are llama3_1-8b's own accuracy-log findings: outputs longer than
// the reference generates, empty outputs, outputs TEST06 would fail, and the
// gen_len target that applies.
type checks struct{ overMax, repeatedEOS int }

// NewChecks returns llama3_1-8b's checks for one log
// (tokencheck.DatasetInfo.Extra).
func NewChecks() tokencheck.Extra { return &checks{} }

func (c *checks) Sample(tokens []int32) {
	if len(tokens) > MaxTokens {
		c.overMax++
	}
	if endsWithRepeatedEOS(tokens) {
		c.repeatedEOS++
	}
}

// endsWithRepeatedEOS is TEST06's EOS check for one sample
// (compliance/TEST06/run_verification.py eos_check, which scans back from
// the last token down to index 1): true if the output ends with two or more
// EOS tokens. Any of EndOfSequence counts.
func endsWithRepeatedEOS(t []int32) bool {
	isEOS := func(x int32) bool {
		for _, e := range EndOfSequence {
			if x == e {
				return true
			}
		}
		return false
	}
	n := 0
	for i := len(t) - 1; i > 0; i-- {
		if !isEOS(t[i]) {
			break
		}
		n++
		if n >= 2 {
			return true
		}
	}
	return false
}

func (c *checks) Finish(r *tokencheck.Report, d tokencheck.DatasetInfo) {
	if c.overMax > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d samples have more than %d output tokens; the reference generates at most %d (SUT_VLLM.py max_tokens)", c.overMax, MaxTokens, MaxTokens))
	}
	if r.Output.Empty > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d samples have an empty output; the reference sets min_tokens = 1 (SUT_VLLM.py), so requests were not sent like the reference's", r.Output.Empty))
	}
	if c.repeatedEOS > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d samples end with two or more EOS tokens; TEST06's EOS check fails on such output", c.repeatedEOS))
	}
	target := 0
	switch d.Samples {
	case Samples:
		target = GenLen
	case EdgeSamples:
		target = EdgeGenLen
	}
	if target > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("gen_len, the characters of the decoded summaries, must be within ±10%% of %d ([%d, %d]) (this log has %d output tokens)",
			target, target*9/10, target*11/10, r.Output.Total))
	} else {
		r.Notes = append(r.Notes, fmt.Sprintf("the set has %d samples, not the full %d (or %d edge): the gen_len target does not apply and the run is not valid for submission", d.Samples, Samples, EdgeSamples))
	}
}
