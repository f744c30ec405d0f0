package main

import (
	"encoding/json"
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/bench"
)

// vllmBenchPrefixCache runs bench's prefix-cache workloads against the
// real vLLM at base (TestVLLM's) with its prefix cache on: the hit rate bench reports is
// exactly the increase of vLLM's own counters over the run (read here
// too), and it comes near the rate the workload implies. The
// prefix_repetition prompts are token-exact (the model's tokenizer, text
// completions): 255 tokens of prefix and vLLM's <|begin_of_text|> make
// 256 shared tokens, whole blocks at vLLM's block sizes, and one request
// at a time each repeat finds them all.
func vllmBenchPrefixCache(t *testing.T, base, model string) {
	for _, tc := range []struct {
		name string
		args []string
		near float64 // how far the engine's rate may be from the workload's
	}{
		{"prefix repetition", []string{"--api", "openai-completions", "--tokenizer", filepath.Join(model, "tokenizer.json"),
			"--prefix-len", "255", "--suffix-len", "32", "--num-prefixes", "4", "--num-prompts", "24", "--output-len", "4", "-c", "1"}, 0.02},
		// The chat template's tokens are shared too, and the answer
		// comes back as text: nearness is looser.
		{"growing conversations", []string{"--api", "openai-chat", "--input-len", "96", "--output-len", "24", "--multi-turn", "3",
			"--num-prompts", "4", "-c", "2"}, 0.15},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "bench")
			before := scrapeMetrics(t, base)
			stdout, err := runCLI(t, append([]string{"bench", "--target", "vllm=" + base, "--model", vllmServedName, "--skip-preflight",
				"--out", out, "--progress-interval", "0"}, tc.args...)...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stdout)
			}
			after := scrapeMetrics(t, base)
			res, err := bench.ReadResults(out)
			if err != nil {
				t.Fatal(err)
			}
			r := res.Runs[0]
			c := r.PrefixCache
			if r.Failed != 0 || c == nil || c.HitTokens == nil || c.QueryTokens == nil || c.HitRate == nil {
				t.Fatalf("%d failed, prefix cache %+v\n%s", r.Failed, c, stdout)
			}
			hits, queries := after.delta(before, "vllm:prefix_cache_hits_total"), after.delta(before, "vllm:prefix_cache_queries_total")
			t.Logf("vLLM found %v of %v prompt tokens (bench: %.4f), the workload implies %d of %d (%.4f)",
				hits, queries, *c.HitRate, c.ImpliedHitTokens, c.PromptTokens, c.ImpliedHitRate)
			if *c.HitTokens != hits || *c.QueryTokens != queries || *c.HitRate != hits/queries {
				t.Errorf("bench reports %v hits of %v queries (%v), vLLM's counters rose by %v and %v", *c.HitTokens, *c.QueryTokens, *c.HitRate, hits, queries)
			}
			if int64(queries) != r.PromptTokens || c.PromptTokens != r.PromptTokens {
				t.Errorf("vLLM queried %v prompt tokens, bench counted %d (%d in the rate)", queries, r.PromptTokens, c.PromptTokens)
			}
			if math.Abs(*c.HitRate-c.ImpliedHitRate) > tc.near {
				t.Errorf("vLLM's hit rate %.4f is not within %v of the workload's %.4f", *c.HitRate, tc.near, c.ImpliedHitRate)
			}
		})
	}
}

// TestVLLMBenchReasoning runs bench against the real vLLM with its
// deepseek_r1 reasoning parser, serving a tiny model that reasons
// (scripts/engines/make_tiny_reasoner.py: "<think> eight words </think>
// six tokens of answer"): bench counts the reasoning tokens vLLM counts
// (its usage's completion_tokens_details, streamed or not), tells the
// answer's first token after the reasoning, and times each part.
func TestVLLMBenchReasoning(t *testing.T) {
	bin, model := requireVLLM(t)
	dir := t.TempDir()
	made, err := exec.Command(filepath.Join(filepath.Dir(bin), "python"), "../../scripts/engines/make_tiny_reasoner.py", model, dir).Output()
	if err != nil {
		t.Fatalf("make_tiny_reasoner.py: %v\n%s", err, made)
	}
	var shape struct{ Reasoning, Answer, Length int }
	if err := json.Unmarshal(made[strings.LastIndexByte(strings.TrimSpace(string(made)), '\n')+1:], &shape); err != nil || shape.Length == 0 {
		t.Fatalf("make_tiny_reasoner.py printed %q: %v", made, err)
	}
	base := serveVLLM(t, bin, dir, vllmServedName, append(slices.Clone(vllmArgs), "--reasoning-parser", "deepseek_r1"))
	const n = 6
	for _, stream := range []bool{true, false} {
		t.Run("stream="+strconv.FormatBool(stream), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "bench")
			args := []string{"bench", "--target", "vllm=" + base, "--model", vllmServedName, "--api", "openai-chat", "--num-prompts", strconv.Itoa(n),
				"--input-len", "16", "--output-len", strconv.Itoa(shape.Length), "-c", "3", "--out", out, "--progress-interval", "0"}
			if !stream {
				args = append(args, "--no-stream")
			}
			stdout, err := runCLI(t, args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stdout)
			}
			res, err := bench.ReadResults(out)
			if err != nil {
				t.Fatal(err)
			}
			r := res.Runs[0]
			t.Logf("%d reasoning tokens of %d, TTFT p50 %.1f ms, TTFAT %+v", r.ReasoningTokens, r.OutputTokens, r.TTFT.Median, r.TTFAT)
			if r.Completed != n || r.OutputTokens != int64(n*shape.Length) || r.ReasoningTokens != int64(n*shape.Reasoning) ||
				r.ReasoningRequests != n || r.ReasoningUncounted != 0 {
				t.Fatalf("%d completed, %d output and %d reasoning tokens in %d requests (%d uncounted); want %d of %d each\n%s",
					r.Completed, r.OutputTokens, r.ReasoningTokens, r.ReasoningRequests, r.ReasoningUncounted, shape.Reasoning, shape.Length, stdout)
			}
			if !stream {
				return
			}
			if r.TTFAT == nil || r.TTFAT.Count != n || r.ReasoningTPOT.Count != n || r.AnswerTPOT.Count != n || r.TTFAT.Median <= r.TTFT.Median {
				t.Errorf("TTFAT %+v, reasoning TPOT %+v, answer TPOT %+v: want each request's, the first answer token after the first token", r.TTFAT, r.ReasoningTPOT, r.AnswerTPOT)
			}
		})
	}
}
