package benchmark

// Fake is what the fake endpoint (package fake) needs of a benchmark
// beyond the answers its dataset gives (FakeAnswerer, FakeTokenAnswerer).
type Fake struct {
	// DefaultAnswer is what the fake endpoint answers a request it has no
	// FakeAnswer for, in the benchmark's answer format ("": the fake's
	// own).
	DefaultAnswer string
}

// FakeAnswer is one sample the fake endpoint (package fake) can answer
// with its ground truth, in the benchmark's answer format: Keys are the
// exact request texts that identify the sample (the text of the last user
// message, once per way the rounds' requests write it), Right the right
// answer and Wrongs the plausible wrong ones. The fake hashes Keys[0] to
// decide whether the sample is answered right and, if not, which of
// Wrongs it gets, so a run's accuracy is predictable.
type FakeAnswer struct {
	Keys   []string
	Right  string
	Wrongs []string
}

// FakeAnswerer is implemented by datasets whose answers the fake endpoint
// must be told (chat answers keyed on the request text). Token-ID
// benchmarks need not (the fake derives their output from the prompt);
// they give reference answers through FakeTokenAnswerer.
type FakeAnswerer interface {
	FakeAnswers() []FakeAnswer
}

// FakeTokenAnswer is one sample of a token-ID benchmark the fake endpoint
// can answer with its ground truth: Prompt, the prompt's token IDs as the
// harness sends them, identifies the sample; Right and Wrongs are answer
// texts in the format the benchmark's evaluator extracts, which the
// fake's caller encodes with the model's tokenizer (so the evaluator,
// decoding the logged IDs, reads them back).
type FakeTokenAnswer struct {
	Prompt []int32
	Right  string
	Wrongs []string
	// Tokens, when > 0, is the length in tokens every encoded answer,
	// right or wrong, is brought to, for a checker that bounds the mean
	// output length (tokens_per_sample): cut there, or preceded by
	// Filler's tokens, over and over, until it is that long.
	Tokens int
	// Filler is what a short answer is preceded by ("": its own text and
	// a space; a reasoning benchmark's answer, read from its end, gives
	// the model's thinking).
	Filler string
}

// FakeTokenAnswerer is implemented by token-ID datasets whose reference
// answers the fake endpoint can give (with a tokenizer), so a run against
// the fake scores what its --accuracy says rather than random tokens.
type FakeTokenAnswerer interface {
	FakeTokenAnswers() []FakeTokenAnswer
}
