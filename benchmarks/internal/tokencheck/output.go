package tokencheck

import "fmt"

// OutputChecks are the checks of an Extra that the token-ID LLM benchmarks
// with a reference output cap share (llama2-70b, llama3.1-8b,
// deepseek-r1): outputs longer than the reference generates, empty
// outputs, and outputs TEST06's EOS check fails. A benchmark embeds a copy
// of its own in its Extra (whose Sample this is) and calls Warn from its
// Finish before adding its own notes. The zero counts are where a log
// starts.
type OutputChecks struct {
	// MaxTokens is the most output tokens the reference generates.
	MaxTokens int
	// EOS are the end-of-sequence token IDs (any counts); with exactly
	// one, the warning names it.
	EOS []int32
	// OverMax follows "N samples have more than MaxTokens output tokens"
	// in the warning: where the cap comes from, e.g. "; the reference
	// generates at most 1024 (SUT.py max_new_tokens)".
	OverMax string
	// Empty follows "N samples have an empty output" in the warning: why
	// the reference gives none.
	Empty string

	overMax, repeatedEOS int
}

// Sample counts a sample over MaxTokens or ending in repeated EOS.
func (c *OutputChecks) Sample(tokens []int32) {
	if len(tokens) > c.MaxTokens {
		c.overMax++
	}
	if EndsWithRepeatedEOS(tokens, c.EOS...) {
		c.repeatedEOS++
	}
}

// Warn adds r's warnings for the samples over MaxTokens, the empty
// outputs (r.Output.Empty) and the samples TEST06 would fail, in that
// order.
func (c *OutputChecks) Warn(r *Report) {
	if c.overMax > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d samples have more than %d output tokens%s", c.overMax, c.MaxTokens, c.OverMax))
	}
	if r.Output.Empty > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d samples have an empty output%s", r.Output.Empty, c.Empty))
	}
	if c.repeatedEOS > 0 {
		id := ""
		if len(c.EOS) == 1 {
			id = fmt.Sprintf(" (%d)", c.EOS[0])
		}
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d samples end with two or more EOS tokens%s; TEST06's EOS check fails on such output", c.repeatedEOS, id))
	}
}
