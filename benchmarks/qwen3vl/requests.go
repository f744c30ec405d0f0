package qwen3vl

import (
	"errors"
	"fmt"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/round"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/qsl"
)

// Which reference Qwen3-VL requests follow depends on the round: v6.0's is
// the LoadGen harness of multimodal/qwen3-vl (bodies through the protocol's
// messages encoder, see Bodies), v6.1's mlcommons/endpoints (RequestV61,
// v61.go).

// requestsV60 reports whether the round named asks for v6.0's requests,
// and refuses a round it does not know ("" is v6.1).
func requestsV60(name string) (bool, error) {
	switch name {
	case round.V60:
		return true, nil
	case "", round.V61:
		return false, nil
	}
	return false, fmt.Errorf("round %q: Qwen3-VL requests are defined for %s and %s", name, round.V60, round.V61)
}

// bodiesV61 returns the builder of round v6.1's bodies and the prefix they
// share; params are the chat sampling parameters.
func (d *Dataset) bodiesV61(o benchmark.BodyOptions, params protocol.Params) (qsl.Builder, []byte, error) {
	if o.API != openaichat.Protocol {
		return nil, nil, fmt.Errorf("round v6.1's reference (mlcommons/endpoints) sends chat completions, not %s requests; use --api %s or --round v6.0", o.API.Name(), openaichat.Protocol.Name())
	}
	if o.Guided {
		return nil, nil, errors.New("guided decoding: round v6.1's reference (mlcommons/endpoints) sends no response_format; drop --guided-decoding or use --round v6.0")
	}
	chat, ok := params.(*openaichat.Params)
	if !ok {
		return nil, nil, fmt.Errorf("round v6.1's Qwen3-VL requests are chat completions; sampling parameters of type %T do not fit them", params)
	}
	p, err := paramsV61(*chat)
	if err != nil {
		return nil, nil, err
	}
	if o.Stream && o.Logger != nil {
		// endpoints counts output tokens with a tokenizer; mlperf-go takes
		// the count from the stream's usage, which a server sends only
		// when asked (stream_options) or configured to.
		o.Logger.Warn("round v6.1's streamed requests carry no stream_options (as endpoints' do): unless the server sends usage in its last chunk anyway, no completion_tokens arrive and LoadGen gets 0 tokens per sample, so TPOT is meaningless; use --round v6.0 for token latencies until then")
	}
	q := RequestV61{Model: o.Model, Params: p, Stream: o.Stream}
	return d.BuilderV61(q), q.Prefix(), nil
}

// paramsV61 maps the chat sampling parameters onto the fields endpoints'
// request has: max_tokens (--max-tokens) sets max_completion_tokens (which
// endpoints' max_new_tokens sets; 150 by default); min_p has no field there.
func paramsV61(c openaichat.Params) (ParamsV61, error) {
	if c.MinP != nil {
		return ParamsV61{}, errors.New("min_p: round v6.1's reference (mlcommons/endpoints) has no min_p field; drop --min-p (or min_p in --generation-config) or use --round v6.0")
	}
	if c.MaxTokens != nil && c.MaxCompletionTokens != nil && *c.MaxTokens != *c.MaxCompletionTokens {
		return ParamsV61{}, fmt.Errorf("max_tokens %d and max_completion_tokens %d: round v6.1's requests carry one limit, max_completion_tokens; set one of them", *c.MaxTokens, *c.MaxCompletionTokens)
	}
	p := DefaultParamsV61()
	switch {
	case c.MaxCompletionTokens != nil:
		p.MaxCompletionTokens = c.MaxCompletionTokens
	case c.MaxTokens != nil:
		p.MaxCompletionTokens = c.MaxTokens
	}
	p.Temperature = c.Temperature
	p.Seed = c.Seed
	p.TopP = c.TopP
	p.TopK = c.TopK
	p.RepetitionPenalty = c.RepetitionPenalty
	p.PresencePenalty = c.PresencePenalty
	p.FrequencyPenalty = c.FrequencyPenalty
	return p, nil
}

// requestReference implements benchmark.Serving.Requests: over chat
// completions the round decides whose requests are sent. Both references
// send chat completions, so over another API the bodies are neither's.
func requestReference(api protocol.Protocol, round string) (string, error) {
	v60, err := requestsV60(round)
	if err != nil {
		return "", err
	}
	if api != openaichat.Protocol {
		return "", nil
	}
	if v60 {
		return "round v6.0 reference: the LoadGen harness of mlcommons/inference multimodal/qwen3-vl (task.py)", nil
	}
	return "round v6.1 reference: mlcommons/endpoints (Shopify formatter, OpenAIMsgspecAdapter; max_completion_tokens 150)", nil
}
