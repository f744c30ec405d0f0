package qwen3vl

import (
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/benchmarks/qwen3vl/synth"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
)

func TestParamsV61(t *testing.T) {
	f, n := 0.5, 64
	m := 32
	p, err := paramsV61(openaichat.Params{})
	if err != nil || *p.MaxCompletionTokens != 150 || p.Temperature != nil {
		t.Errorf("defaults: %+v, %v; want max_completion_tokens 150 and nothing else", p, err)
	}
	p, err = paramsV61(openaichat.Params{Temperature: &f, MaxTokens: &n})
	if err != nil || *p.MaxCompletionTokens != 64 || *p.Temperature != 0.5 {
		t.Errorf("--max-tokens 64 --temperature 0.5: %+v, %v", p, err)
	}
	for _, bad := range []openaichat.Params{{MinP: &f}, {MaxTokens: &n, MaxCompletionTokens: &m}} {
		if _, err := paramsV61(bad); err == nil || !strings.Contains(err.Error(), "v6.1") {
			t.Errorf("%+v: error %v, want one naming round v6.1", bad, err)
		}
	}
	dir := t.TempDir()
	if _, err := synth.Write(dir, 6, synth.Options{Seed: 7}); err != nil {
		t.Fatal(err)
	}
	d, err := Open([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, _, err := d.Bodies(benchmark.BodyOptions{API: openaichat.Protocol, Model: "m", Guided: true}); err == nil || !strings.Contains(err.Error(), "--round v6.0") {
		t.Errorf("guided decoding in v6.1: error %v", err)
	}
	if _, err := requestsV60("v7"); err == nil {
		t.Error("unknown round accepted")
	}

	// Another API that carries chat messages gets v6.0's bodies through
	// its encoder, but not v6.1's, which are chat completions.
	other := otherMessagesAPI{openaichat.Protocol, openaichat.Protocol.(protocol.MessagesEncoder)}
	if _, _, err := d.Bodies(benchmark.BodyOptions{API: other, Model: "m"}); err == nil || !strings.Contains(err.Error(), "--round v6.0") {
		t.Errorf("v6.1 over another messages API: error %v", err)
	}
	if _, _, err := d.Bodies(benchmark.BodyOptions{API: other, Model: "m", Round: "v6.0"}); err != nil {
		t.Errorf("v6.0 over another messages API: %v", err)
	}
	for _, round := range []string{"v6.0", "v6.1"} {
		if ref, err := requestReference(other, round); ref != "" || err != nil {
			t.Errorf("round %s over another messages API: reference %q, %v; want none", round, ref, err)
		}
		if ref, err := requestReference(openaichat.Protocol, round); ref == "" || err != nil {
			t.Errorf("round %s over chat: reference %q, %v", round, ref, err)
		}
	}
}

// otherMessagesAPI is an API other than chat completions whose requests
// carry chat messages.
type otherMessagesAPI struct {
	protocol.Protocol
	protocol.MessagesEncoder
}

func (otherMessagesAPI) Name() string { return "other-messages" }
