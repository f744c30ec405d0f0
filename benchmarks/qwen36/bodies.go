package qwen36

import (
	"fmt"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/qsl"
)

// ToolChoice is what endpoints sends with every sample ("auto": the row's
// tool_choice column).
const ToolChoice = "auto"

// Bodies builds the requests as endpoints' msgspec adapter encodes them
// (openaichat.ToolsRequest): the sample's messages, the sampling fields,
// "stream": true when streaming, its tools and tool_choice "auto". Only
// the tools API carries them.
func (d *Dataset) Bodies(o benchmark.BodyOptions) (qsl.Builder, []byte, error) {
	if o.API != openaichat.ToolsProtocol {
		return nil, nil, fmt.Errorf("benchmark %s cannot be sent over the %s API: its requests carry tools and its answers are tool calls; use --api %s (the default)", o.Benchmark.Name, o.API.Name(), openaichat.ToolsProtocol.Name())
	}
	params, err := o.Params()
	if err != nil {
		return nil, nil, err
	}
	p, err := protocol.ParamsAs[openaichat.ToolParams](openaichat.ToolsProtocol.Name(), params)
	if err != nil {
		return nil, nil, err
	}
	q := openaichat.ToolsRequest{Model: o.Model, Params: *p, Stream: o.Stream}
	return qsl.BuilderFunc(func(i int) ([]byte, error) {
		if i < 0 || i >= len(d.rows) {
			return nil, fmt.Errorf("qwen3.6-27b: no sample %d (the set has %d)", i, len(d.rows))
		}
		r := &d.rows[i]
		return q.Append(nil, r.Messages, r.Tools, ToolChoice)
	}), nil, nil
}
