// Package bench is mlperf-go's everyday serving benchmark (mlperf-go
// bench): it sends one request set to one or more endpoints (targets) at
// given concurrencies, arrival rates or intervals, without LoadGen's
// validity rules, and measures what engine tuners read: request and token
// throughput, goodput against latency objectives, and streaming TTFT,
// TPOT, inter-token and end-to-end latency percentiles.
//
// A Workload is a list of conversations, each one or more turns. The
// sources are DashInfer-VLM's conversation JSONL with an image folder
// (dashinfer.go), synthetic text and image requests (synthetic.go), a
// registered benchmark's dataset (dataset.go) and mlcommons/endpoints'
// multi-turn agentic replay format (agentic.go). A turn either carries the
// model's own earlier replies (DashInfer's --multi-turn) or replays the
// dataset's recorded ones (agentic replay); a conversation has at most one
// turn in flight. Requests go through package sut's HTTP pool, the one
// mlperf-go run uses, and its Tracer gives each event's time.
package bench

import (
	"encoding/json"
	"time"
)

// Workload is the request set every target and load point is sent.
type Workload struct {
	// Kind names the source: "dashinfer", "synthetic",
	// "prefix-repetition", "benchmark", "agentic".
	Kind string `json:"kind"`
	// Source is the file or dataset it came from ("" when synthetic).
	Source string `json:"source,omitempty"`
	// Replay is set when later turns carry the dataset's recorded replies
	// (Turn.Recorded) rather than the model's own (agentic replay).
	Replay bool `json:"replay"`
	// MultiTurn is how many earlier turns the last turn of a conversation
	// carries, as DashInfer's --multi-turn (the table's "previous turns");
	// -1 when conversations differ (agentic replay).
	MultiTurn int `json:"multi_turn"`
	// Conversations are sent in order.
	Conversations []Conversation `json:"-"`
	// Sampling is a JSON object of sampling parameters (wire names) every
	// request carries, under the output length (nil: none).
	Sampling json.RawMessage `json:"sampling,omitempty"`
	// Facts describe how the workload was drawn, for the results.
	Facts map[string]any `json:"facts,omitempty"`
	// AskedPrompt is the length of text each prompt was drawn to, where
	// the workload draws it (nil: a dataset's prompts), so the output can
	// set it beside the server's count, which the API's wrapping adds to.
	AskedPrompt *AskedPrompt `json:"asked_prompt,omitempty"`
}

// AskedPrompt is the length of a prompt's text as asked: Length of Unit
// ("tokens" of --tokenizer, or "words", about a token each), given by
// Flags. It is the mean of a turn's own text: earlier turns a later one
// carries, images, and the API's wrapping (a chat template) come on top.
type AskedPrompt struct {
	Length int    `json:"length"`
	Unit   string `json:"unit"`
	Flags  string `json:"flags"`
}

// Conversation is one session: its turns go one at a time, each after the
// previous one's answer (and the turn's Delay).
type Conversation struct {
	// ID identifies the conversation; it is the session header's value.
	ID string
	// Tools are the tool definitions sent with every turn (nil: none).
	Tools json.RawMessage
	// Turns are the requests, in order.
	Turns []Turn
}

// Turn is one request of a conversation.
type Turn struct {
	// Messages are the client messages this turn adds (a user message, or
	// tool results), each one JSON object in the chat wire format.
	Messages []json.RawMessage
	// Recorded are the messages the dataset records after this turn (the
	// assistant's reply), which later turns carry when Workload.Replay.
	Recorded []json.RawMessage
	// MaxTokens is the turn's output length (0: the server's default).
	MaxTokens int
	// Delay is how long the client waits before sending the turn, after
	// the previous turn's answer (a tool's run time).
	Delay time.Duration
	// Images counts the image parts of Messages.
	Images int
	// Body, when set, is the whole request body, prebuilt by a
	// benchmark's encoder; Messages are then unused.
	Body []byte
	// PromptTokens is the prompt's token count where the workload knows
	// it (a dataset of token IDs), counted for a request whose answer
	// does not say (0: unknown).
	PromptTokens int
	// PrefixGroup names the prefix the turn shares with others
	// (prefix-repetition), PrefixShare the fraction of the turn's prompt
	// it is, by the workload's own count (tokens or words): an engine
	// with a prefix cache can find it after the group's first request
	// ("": none).
	PrefixGroup string
	PrefixShare float64
}

// Requests is the number of requests (turns) in the workload.
func (w *Workload) Requests() int {
	n := 0
	for i := range w.Conversations {
		n += len(w.Conversations[i].Turns)
	}
	return n
}

// askedPrompt is w's AskedPrompt (nil for a nil w: results of an unknown
// workload).
func (w *Workload) askedPrompt() *AskedPrompt {
	if w == nil {
		return nil
	}
	return w.AskedPrompt
}
