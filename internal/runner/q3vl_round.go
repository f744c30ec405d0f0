package runner

import (
	"errors"
	"fmt"

	"github.com/mlperf-go/mlperf-go/internal/eval/q3vl"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/qsl"
)

// Which reference Qwen3-VL requests follow depends on the round: v6.0's is
// the LoadGen harness of multimodal/qwen3-vl (bodies through openaichat.Append,
// see bodyBuilder), v6.1's mlcommons/endpoints (qsl.Q3VLRequestV61).

// q3vlRequestsV60 reports whether round asks for v6.0's requests, and
// refuses a round it does not know.
func q3vlRequestsV60(round string) (bool, error) {
	switch round {
	case q3vl.RoundV60:
		return true, nil
	case "", q3vl.RoundV61:
		return false, nil
	}
	return false, fmt.Errorf("round %q: Qwen3-VL requests are defined for %s and %s", round, q3vl.RoundV60, q3vl.RoundV61)
}

// q3vlBuilderV61 returns the builder of round v6.1's Qwen3-VL bodies and
// the prefix they share.
func q3vlBuilderV61(d *Dataset, model string, stream bool, o Options) (qsl.Builder, []byte, error) {
	if o.Guided {
		return nil, nil, errors.New("guided decoding: round v6.1's reference (mlcommons/endpoints) sends no response_format; drop --guided-decoding or use --round v6.0")
	}
	chat, ok := o.SamplingParams().(*openaichat.Params)
	if !ok {
		return nil, nil, fmt.Errorf("round v6.1's Qwen3-VL requests are chat completions; sampling parameters of type %T do not fit them", o.SamplingParams())
	}
	params, err := q3vlParamsV61(*chat)
	if err != nil {
		return nil, nil, err
	}
	if stream && o.Logger != nil {
		// endpoints counts output tokens with a tokenizer; mlperf-go takes
		// the count from the stream's usage, which a server sends only
		// when asked (stream_options) or configured to.
		o.Logger.Warn("round v6.1's streamed requests carry no stream_options (as endpoints' do): unless the server sends usage in its last chunk anyway, no completion_tokens arrive and LoadGen gets 0 tokens per sample, so TPOT is meaningless; use --round v6.0 for token latencies until then")
	}
	q := qsl.Q3VLRequestV61{Model: model, Params: params, Stream: stream}
	return d.Q3VL.BuilderV61(q), q.Prefix(), nil
}

// q3vlParamsV61 maps the chat sampling parameters onto the fields endpoints'
// request has: max_tokens (--max-tokens) sets max_completion_tokens (which
// endpoints' max_new_tokens sets; 150 by default); min_p has no field there.
func q3vlParamsV61(c openaichat.Params) (qsl.Q3VLParamsV61, error) {
	if c.MinP != nil {
		return qsl.Q3VLParamsV61{}, errors.New("min_p: round v6.1's reference (mlcommons/endpoints) has no min_p field; drop --min-p (or min_p in --generation-config) or use --round v6.0")
	}
	if c.MaxTokens != nil && c.MaxCompletionTokens != nil && *c.MaxTokens != *c.MaxCompletionTokens {
		return qsl.Q3VLParamsV61{}, fmt.Errorf("max_tokens %d and max_completion_tokens %d: round v6.1's requests carry one limit, max_completion_tokens; set one of them", *c.MaxTokens, *c.MaxCompletionTokens)
	}
	p := qsl.DefaultQ3VLParamsV61()
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

// RequestReference names the reference whose requests the run sends, where
// the round decides it (the Qwen3-VL dataset, in Data, over chat
// completions), for the run record and the submission README; "" otherwise.
func (o Options) RequestReference() string {
	if o.Data == nil || o.Data.Q3VL == nil || o.EndpointAPI() != openaichat.Protocol {
		return ""
	}
	if v60, err := q3vlRequestsV60(o.Round); err == nil && v60 {
		return "round v6.0 reference: the LoadGen harness of mlcommons/inference multimodal/qwen3-vl (task.py)"
	}
	return "round v6.1 reference: mlcommons/endpoints (Shopify formatter, OpenAIMsgspecAdapter; max_completion_tokens 150)"
}
