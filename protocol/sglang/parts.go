package sglang

import (
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jscan"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jsonwire"
)

var _ protocol.PartsReader = generate{}

// ReadParts reads an answer's or event's meta_info: prompt_tokens and
// reasoning_tokens, which SGLang counts with a reasoning parser on
// (/generate's text holds the reasoning and the answer together, so no
// reasoning text is told apart).
func (generate) ReadParts(data []byte) protocol.Parts {
	return jsonwire.PartsUnder(data, "meta_info", metaParts)
}

// metaParts reads a meta_info object (or null) into p.
func metaParts(s *jscan.Scanner, p *protocol.Parts) error {
	p.PromptTokens, p.ReasoningTokens = -1, -1
	if isNull, err := s.Null(); isNull || err != nil {
		return err
	}
	return s.Object(func(k []byte) error {
		switch string(k) {
		case "prompt_tokens":
			return jsonwire.ReadCount(s, &p.PromptTokens)
		case "reasoning_tokens":
			return jsonwire.ReadCount(s, &p.ReasoningTokens)
		}
		return s.Skip()
	})
}
