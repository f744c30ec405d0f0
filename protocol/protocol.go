// Package protocol describes the wire protocols mlperf-go speaks to
// inference endpoints and keeps the registry of them. Each protocol lives in
// its own package (protocol/openaichat, protocol/openaicompletions,
// protocol/sglang) with its request structs and encoders, its sampling
// parameters, its response parsers and its server side (Serving: reading
// requests and writing answers, which the fake endpoint serves), and
// registers itself from its init function, as database/sql drivers do;
// protocol/all imports them all, so adding a protocol is one folder and
// one line there.
//
// The worker pool (package sut) talks only to the Protocol interface: it
// asks for the request path and the default timeout and hands each response,
// whole or event by event, to the protocol to decode into what LoadGen
// needs. Lookup is the one place an API name given by a user is parsed.
package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/openai/openai-go"
)

// Protocol is one endpoint wire protocol.
type Protocol interface {
	// Name is the protocol's canonical name, as --api takes it and run
	// records show it, e.g. "openai-chat".
	Name() string
	// Aliases are other names Lookup accepts, e.g. "chat".
	Aliases() []string
	// Path is the request path appended to an endpoint's base URL, e.g.
	// "/v1/chat/completions".
	Path() string
	// DefaultTimeout bounds a request when the user sets no timeout (the
	// reference client's value).
	DefaultTimeout() time.Duration
	// DefaultParams returns a fresh value of the protocol's sampling
	// parameters with nothing set, so nothing is sent and the server's
	// defaults apply. A benchmark's reference values are decoded over it
	// (benchmark.Benchmark.DefaultSampling), then a
	// generation-config file and the flags.
	DefaultParams() Params
	// DecodeResponse decodes a whole (non-streamed) 200 response body. It
	// appends what LoadGen is told to out (UTF-8 text, or int32
	// little-endian token IDs) and returns the output token count. A
	// *ServerError means the server answered with an error object; any
	// other error, a body that is malformed or lacks a needed field.
	DecodeResponse(out, body []byte) ([]byte, int64, error)
	// NewStream returns a decoder for streamed responses. The pool keeps
	// one per worker and resets it before each response.
	NewStream() Stream
}

// Stream decodes one server-sent-event response at a time.
type Stream interface {
	// Reset prepares the decoder for a new response.
	Reset()
	// Next decodes the payload of one "data:" line (never the "[DONE]"
	// marker, which the caller handles), appends the output it carries to
	// out and says what the event means for LoadGen. Errors are
	// classified as in Protocol.DecodeResponse.
	Next(out, data []byte) ([]byte, Event, error)
	// Tokens is the output token count of the response so far.
	Tokens() int64
	// End is called once the response is over: done is set when the
	// stream ended with "[DONE]" or an event with Event.Done, and clear
	// when the body simply ended. It returns nil when what was decoded is
	// a complete answer, and otherwise an error that says what was seen:
	// wrapping ErrTruncated for an answer cut short, a *ServerError for
	// one the server ended in error, any other for an answer that lacks
	// what LoadGen needs (token IDs, say), as DecodeResponse would.
	End(done bool) error
}

// ErrTruncated is wrapped by the error of a stream that ended before its
// answer did (no "[DONE]" and no finish reason).
var ErrTruncated = errors.New("stream ended before its answer did")

// ErrTooLarge is wrapped by the error of a response, or one of its
// server-sent-event lines, longer than the caller allows.
var ErrTooLarge = errors.New("response too large")

// Event is what one streamed event means for LoadGen.
type Event struct {
	// First is set on the event that carries the response's first token,
	// once per response: FirstData (a slice of the output, valid until the
	// next call) and FirstTokens are what FirstTokenComplete reports.
	First       bool
	FirstData   []byte
	FirstTokens int64
	// Done is set when the event itself ends the response (SGLang's
	// finish_reason), without waiting for "[DONE]".
	Done bool
}

// Params are one protocol's sampling parameters: a pointer to the
// protocol's own struct, whose JSON tags are the request's wire names, so a
// generation-config file holds the keys the server receives
// (DecodeGenerationConfig) and a run record shows them (json.Marshal).
type Params interface {
	// MaxTokensKey is the wire name of the output-length cap the
	// --max-tokens flag sets (max_tokens, or SGLang's max_new_tokens).
	MaxTokensKey() string
}

// ParamsAs returns params as protocol api's own sampling-parameter type
// *P, or an error naming both types. Encoders take Params through the
// TokenEncoder and MessagesEncoder interfaces, so a caller that mixes one
// protocol's parameters with another's request is caught here, with one
// message for every protocol.
func ParamsAs[P any, PP interface {
	*P
	Params
}](api string, params Params) (*P, error) {
	p, ok := params.(PP)
	if !ok || p == nil {
		return nil, fmt.Errorf("%s: sampling parameters of type %T, want %T", api, params, p)
	}
	return p, nil
}

// TokenEncoder is a Protocol whose requests carry a token-ID prompt.
type TokenEncoder interface {
	// EncodeTokens builds the request body for one prompt. model may be
	// empty where the protocol does not send one; params must be the
	// protocol's own type (DefaultParams).
	EncodeTokens(model string, prompt []int32, params Params, stream bool) ([]byte, error)
}

// TextEncoder is a Protocol whose requests can carry a plain-text prompt
// that the server tokenizes (vLLM's /v1/completions "prompt", SGLang's
// /generate "text"): what serving benchmarks send over these APIs, as
// vllm bench serve does.
type TextEncoder interface {
	// EncodeText builds the request body for one text prompt; as
	// EncodeTokens otherwise.
	EncodeText(model, prompt string, params Params, stream bool) ([]byte, error)
}

// MessagesEncoder is a Protocol whose requests carry chat messages.
type MessagesEncoder interface {
	// AppendMessages appends the request body for one conversation to
	// dst. responseFormat, when non-nil, is sent as the guided-decoding
	// response_format.
	AppendMessages(dst []byte, model string, messages []openai.ChatCompletionMessageParamUnion, responseFormat json.RawMessage, params Params, stream bool) ([]byte, error)
	// MessagesPrefix returns the bytes every AppendMessages body begins
	// with when its messages are first and then a user message whose
	// content starts with a text part: what a sample library can keep once.
	MessagesPrefix(model string, first openai.ChatCompletionMessageParamUnion, responseFormat json.RawMessage, params Params, stream bool) ([]byte, error)
}

// ServerError is an {"error": ...} object a server sent in place of a
// result, with a 200 status.
type ServerError struct {
	// Message is the error value as sent, clipped to a readable length.
	Message string
}

func (e *ServerError) Error() string { return "server error: " + e.Message }

// FinishFailed reports whether an OpenAI-style finish_reason says the
// server gave up on the answer rather than finishing it: vLLM's "error"
// (FinishReason.ERROR) and "abort" (FinishReason.ABORT, also what a request
// cancelled on the server's side ends with). Such answers are cut short,
// whatever their status, so they fail the sample.
func FinishFailed(reason string) bool { return reason == "error" || reason == "abort" }

// FinishError is the *ServerError for an answer that ended with a failed
// finish_reason (see FinishFailed) after tokens output tokens or events.
func FinishError(reason string, what string) *ServerError {
	return &ServerError{Message: fmt.Sprintf("the answer ended with finish_reason %q after %s", reason, what)}
}

// NoteFinish keeps a streamed chunk's finish_reason, when it has one, in
// *last (a stream's End looks at the last one seen), and returns the
// FinishError when it says the server gave up, so the stream fails at that
// chunk rather than at its end. seen says how far the stream got; it is
// called only for the error.
func NoteFinish(last *[]byte, reason []byte, seen func() string) error {
	if len(reason) == 0 {
		return nil
	}
	*last = append((*last)[:0], reason...)
	if FinishFailed(string(reason)) {
		return FinishError(string(reason), seen())
	}
	return nil
}

// registry holds the registered protocols by every name they answer to.
var registry struct {
	sync.RWMutex
	byName map[string]Protocol
	all    []Protocol
}

// Register makes a protocol available to Lookup under its name and
// aliases (case-insensitive). Protocol packages call it from init. It
// panics if a name is taken: two protocols answering to one name is a
// programming error.
func Register(p Protocol) {
	registry.Lock()
	defer registry.Unlock()
	if registry.byName == nil {
		registry.byName = map[string]Protocol{}
	}
	for _, n := range append([]string{p.Name()}, p.Aliases()...) {
		k := strings.ToLower(n)
		if _, dup := registry.byName[k]; dup {
			panic(fmt.Sprintf("protocol: name %q registered twice", n))
		}
		registry.byName[k] = p
	}
	registry.all = append(registry.all, p)
}

// Lookup returns the protocol named name (its canonical name or an alias,
// in any case). The error lists the names it accepts.
func Lookup(name string) (Protocol, error) {
	registry.RLock()
	p, ok := registry.byName[strings.ToLower(strings.TrimSpace(name))]
	registry.RUnlock()
	if !ok {
		return nil, fmt.Errorf("unknown API %q: use %s", name, strings.Join(Names(), ", "))
	}
	return p, nil
}

// Names lists the canonical names of the registered protocols, sorted.
func Names() []string {
	registry.RLock()
	defer registry.RUnlock()
	n := make([]string, 0, len(registry.all))
	for _, p := range registry.all {
		n = append(n, p.Name())
	}
	slices.Sort(n)
	return n
}

// All returns the registered protocols, sorted by name.
func All() []Protocol {
	registry.RLock()
	defer registry.RUnlock()
	all := slices.Clone(registry.all)
	slices.SortFunc(all, func(a, b Protocol) int { return strings.Compare(a.Name(), b.Name()) })
	return all
}

// ServerRoot returns the path of an inference server's root given the path
// of an endpoint URL as --endpoint takes it: with or without "/v1", trailing
// slashes ignored. The OpenAI routes are under ServerRoot+"/v1"; /health,
// /metrics and SGLang's native routes are at ServerRoot.
func ServerRoot(path string) string {
	return strings.TrimSuffix(strings.TrimRight(path, "/"), "/v1")
}
