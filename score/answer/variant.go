package answer

// Variant selects which reference evaluator a parser follows: the two
// eval_accuracy.py files share function names but not bodies.
type Variant int

const (
	// GPTOSS is language/gpt-oss-120b/eval_accuracy.py: answers are read from
	// the harmony final channel first (ExtractFinalSection), with fallbacks.
	GPTOSS Variant = iota
	// DeepSeekR1 is language/deepseek-r1/eval_accuracy.py: answers are read
	// from the whole decoded text.
	DeepSeekR1
)

// String names the variant after its benchmark.
func (v Variant) String() string {
	if v == DeepSeekR1 {
		return "deepseek-r1"
	}
	return "gpt-oss-120b"
}
