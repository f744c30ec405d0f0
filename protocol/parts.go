package protocol

// Parts is what one streamed event, or a whole answer, says of itself
// beyond the output LoadGen is told: the reasoning it carries apart from
// the answer, and the token counts its usage reports. A serving benchmark
// (package bench) counts reasoning and answer tokens apart with it; a
// LoadGen run needs none of it.
type Parts struct {
	// Reasoning is how many bytes of reasoning text the event or answer
	// carries, decoded: what a server's reasoning parser puts apart from
	// the content (vLLM's reasoning, formerly reasoning_content; SGLang's
	// reasoning_content).
	Reasoning int
	// Answer is how many bytes of answer text (a chat's content) the
	// event or answer carries, decoded; -1 where the protocol does not
	// tell its answer from its reasoning, or the event carries no
	// reasoning (the output LoadGen is told is then the answer).
	Answer int
	// PromptTokens is the prompt's token count the usage reports (SGLang:
	// meta_info.prompt_tokens), -1 when the event or answer says none.
	PromptTokens int64
	// ReasoningTokens is the reasoning token count the usage reports
	// (usage.completion_tokens_details.reasoning_tokens; SGLang:
	// meta_info.reasoning_tokens), -1 when it says none.
	ReasoningTokens int64
}

// NoParts are the Parts of an event that says nothing of them.
var NoParts = Parts{Answer: -1, PromptTokens: -1, ReasoningTokens: -1}

// PartsReader is a Protocol that reads Parts.
type PartsReader interface {
	// ReadParts reads the Parts of data: one streamed event's payload
	// (never the "[DONE]" marker) or a whole non-streamed body. It is
	// lenient: what it cannot read is not said (the stream decoder or
	// DecodeResponse, which see the same bytes, report malformed ones).
	ReadParts(data []byte) Parts
}
