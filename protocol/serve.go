package protocol

import (
	"strconv"
	"time"
)

// The server side of a protocol: how a server reads the protocol's requests
// and writes its answers. The fake endpoint (package fake) serves every
// registered Protocol that implements Serving at its Path and decides what
// to answer (which tokens, how many, when, which faults); the protocol
// only speaks the wire format. So a protocol's package is all a new API
// needs for the fake to serve it.

// Serving is a Protocol whose server side is written too.
type Serving interface {
	Protocol
	// AnswersTokenIDs reports whether the protocol's answers carry the
	// generated token IDs, so that a server leaving them out (the fake's
	// no-token-ids fault) breaks only such answers.
	AnswersTokenIDs() bool
	// ParseRequest decodes and validates a request body the way the
	// protocol's reference server does; the error is the message of the
	// 400 answer it gives.
	ParseRequest(body []byte) (Request, error)
}

// Request is one request a server read, with the protocol's way of writing
// its answer. The Append methods append to dst and return the result.
type Request interface {
	// Ask is what the request asks for.
	Ask() *Ask
	// AppendBody appends the whole answer to a request not streamed.
	AppendBody(dst []byte, r *Reply) []byte
	// AppendEvents appends the server-sent event(s) carrying tokens
	// [from, to) of the answer; the first call has from 0. last marks the
	// events that end the answer (with its finish reason); under a fault
	// that never ends the answer no call has it, and to passes
	// Reply.Tokens.
	AppendEvents(dst []byte, r *Reply, from, to int, last bool) []byte
	// AppendTail appends what a stream sends after the events of its last
	// token (a usage chunk, say), before the "data: [DONE]" that the
	// server appends (see Done).
	AppendTail(dst []byte, r *Reply) []byte
}

// NoLimit is Ask.MaxTokens when neither the request nor the protocol caps
// the answer's length.
const NoLimit = -1

// Ask is what a request asks of a server, in terms every protocol shares.
// One of Prompts, TextPrompts and Messages is set.
type Ask struct {
	// Model is the model the request names ("" when it names none).
	Model string
	// Stream is set when the answer is to be streamed as server-sent
	// events.
	Stream bool
	// MaxTokens caps each answer's tokens, the protocol's default applied
	// when the request sets none; NoLimit when there is no cap.
	MaxTokens int
	// Prompts are the token-ID prompts of a completion request, each
	// answered on its own (a batch has several).
	Prompts [][]int32
	// TextPrompts are the text prompts of a completion request, which the
	// server tokenizes.
	TextPrompts []string
	// Messages are the conversation of a chat request, answered once.
	Messages []Message
	// MinTokens is the least number of tokens each answer must have (the
	// request's min_tokens, SGLang's min_new_tokens; 0 when unset), and
	// IgnoreEOS asks the server not to stop at the end-of-sequence token,
	// so an answer runs to MaxTokens: what fixes output lengths.
	MinTokens int
	IgnoreEOS bool
}

// Message is one message of a chat request as a server reads it.
type Message struct {
	// Role is the message's author ("system", "user", …).
	Role string
	// Text is the message's text: its text parts, concatenated.
	Text string
	// Images counts its image parts.
	Images int
	// ImageHash tells its images apart without keeping them: a hash of
	// the URLs of its image_url parts, in order (0 without any), the same
	// within one process.
	ImageHash uint64
}

// Finish reasons of a complete answer, as OpenAI names them; the failed
// ones are those FinishFailed names.
const (
	// FinishStop: the answer ended of itself (a stop token).
	FinishStop = "stop"
	// FinishLength: the answer reached Ask.MaxTokens.
	FinishLength = "length"
)

// Reply is what a server generated for a Request, for the protocol to
// write.
type Reply struct {
	// Model is the name of the model served.
	Model string
	// Outputs are the answers, one per prompt (one for a chat), each
	// Tokens long when complete.
	Outputs []Output
	// Tokens is the length of each answer.
	Tokens int
	// Finish is why the answers end: FinishStop, FinishLength, or a failed
	// finish (FinishFailed).
	Finish string
	// FailMessage is what the server says of a failed finish, for
	// protocols that carry a message with it.
	FailMessage string
	// StopToken is the token that ended an answer that stopped (it is not
	// among the answer's tokens), for protocols that report it.
	StopToken int32
	// Prompts are the prompts' token IDs as the server read them (text
	// prompts tokenized); nil for a chat.
	Prompts [][]int32
	// PromptTokens is the request's prompt token count in all.
	PromptTokens int
	// Reasoning is how many of each answer's first tokens are reasoning,
	// as a server's reasoning parser tells them apart: a chat writes them
	// apart from its content and counts them in its usage, SGLang counts
	// them in meta_info (0: none, as from a server without a reasoning
	// parser). Tokens counts them too.
	Reasoning int
	// Cached are the tokens of each prompt the server found in its prefix
	// cache, for protocols that report them (nil: none).
	Cached []int
	// OmitTokenIDs is set when the server leaves the token IDs out of its
	// answer although they were asked for.
	OmitTokenIDs bool
	// Incremental asks for stream events that carry only their new tokens,
	// where the protocol lets the server choose (SGLang's
	// --incremental-streaming-output); otherwise a protocol streams its
	// own way.
	Incremental bool
	// Arrived is when the request came in, and Started when its
	// generation began.
	Arrived, Started time.Time
	// IDs makes the server's fresh request IDs.
	IDs IDMaker
}

// Output is one answer as a server generated it, which a protocol writes
// out. A chat's answer is text alone: its AppendIDs appends null.
type Output interface {
	// AppendText appends the text of tokens [from, to), escaped for a JSON
	// string, without quotes.
	AppendText(dst []byte, from, to int) []byte
	// AppendIDs appends the IDs of tokens [from, to) as a JSON array.
	AppendIDs(dst []byte, from, to int) []byte
}

// IDMaker makes a server's request IDs.
type IDMaker interface {
	// AppendID appends a fresh request ID: 32 lowercase hex digits, as
	// Python's uuid4().hex that vLLM and SGLang use.
	AppendID(dst []byte) []byte
}

// AppendTokenIDs appends ids as a JSON array, as servers write token IDs.
func AppendTokenIDs(dst []byte, ids []int32) []byte {
	dst = append(dst, '[')
	for i, id := range ids {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, int64(id), 10)
	}
	return append(dst, ']')
}
