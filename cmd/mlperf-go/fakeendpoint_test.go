package main

import (
	"strings"
	"testing"
)

// TestFakeAnswersDefault: without --dataset the fake answers chats with the
// default answer of --benchmark, or of the one benchmark with text answers
// when none is named (so `mlperf-go fake-endpoint` alone answers as that
// benchmark's server would); a token-ID benchmark has none (the fake's
// own applies) and takes no --dataset.
func TestFakeAnswersDefault(t *testing.T) {
	t.Parallel()
	text := textBenchmarks()
	if len(text) != 1 || text[0].FakeDefaultAnswer == "" {
		t.Fatalf("want one benchmark with text answers and a default answer, got %d", len(text))
	}
	answers, def, err := fakeAnswers("", nil, nil)
	if err != nil || answers != nil || def != text[0].FakeDefaultAnswer {
		t.Errorf("no flags: %d answers, default %q, %v; want %s's default", len(answers), def, err, text[0].Name)
	}
	if _, def, err := fakeAnswers("llama3_1-8b", nil, nil); err != nil || def != "" {
		t.Errorf("--benchmark llama3_1-8b: default %q, %v; want none", def, err)
	}
	if _, _, err := fakeAnswers("llama3_1-8b", []string{t.TempDir()}, nil); err == nil {
		t.Error("--benchmark llama3_1-8b --dataset: accepted")
	}
	if _, _, err := fakeAnswers("no-such", nil, nil); err == nil || !strings.Contains(err.Error(), "--benchmark") {
		t.Errorf("unknown --benchmark: error %v", err)
	}
}
