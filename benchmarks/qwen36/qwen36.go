// Package qwen36 is the qwen3.6-27b (edge agentic) benchmark of round
// v6.1: BFCL v4 single-turn function calling as mlcommons/endpoints runs
// it (examples/11_Edge_Agentic_Example, linked from mlcommons/inference's
// language/edge-agentic): the 995 samples its sampling takes from the
// data of the bfcl-eval 2026.3.23 wheel, sent as chat completions with
// tools and tool_choice "auto" (temperature 0, seed 42,
// max_completion_tokens 1024, streamed), answered with tool calls, and
// scored as its BFCLv4Scorer scores them (package score/bfcl). It
// registers itself with package benchmark. Runs cannot be filed (see
// NotFileableReason).
package qwen36

import (
	"encoding/json"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
)

// Name is the benchmark's LoadGen model name and the v6.1 checker's
// directory name. mlperf.conf has no entry for it: LoadGen's wildcards
// apply (SingleStream: 10 ms target latency, 600 s minimum, early
// stopping at the 90th percentile).
const Name = "qwen3.6-27b"

// Samples is the size of the accuracy set (and the checker's performance
// and accuracy sample counts).
const Samples = 995

// Model is the reference model on the Hugging Face hub; the reference
// serves a Q4_K_M GGUF of it with llama.cpp under the name
// "Qwen3.6-27B-Q4_K_M" (pass that with --model for such a server).
const Model = "Qwen/Qwen3.6-27B"

// NotFileableReason is why no run is filed (benchmark.Benchmark's
// NotFileable): the v6.1 checker would take a LoadGen-format
// qwen3.6-27b tree (it applies its SingleStream rules and reads
// accuracy.txt with ACC_PATTERN["mAP"]), but nothing a LoadGen run makes
// is the reference's result.
const NotFileableReason = "qwen3.6-27b (edge agentic) results are made with mlcommons/endpoints, not LoadGen: " +
	"its reference scores accuracy in endpoints' accuracy_results.json (no accuracy.txt line the v6.1 checker's " +
	"LoadGen pattern for it, YOLO's `mAP=`, would read), its performance phase replays recorded agentic-coding " +
	"conversations that LoadGen's SingleStream cannot issue in order, and the rules' gate (0.97 x 86.23 overall and " +
	"0.97 x 87.96 normalized; the policy's \"Offline (accuracy-only)\") differs from the checker's (0.99 x 86.23, SingleStream). " +
	"mlperf-go runs and scores it for tuning; submit it with mlcommons/endpoints (benchmark from-config, then " +
	"scripts/publish_submission.py)"

func init() {
	benchmark.Register(benchmark.Benchmark{
		Identity: benchmark.Identity{
			Name:          Name,
			SubmissionDir: Name,
			Description:   "edge agentic: BFCL v4 single-turn function calling, OpenAI chat completions with tools",
		},
		Data: benchmark.Data{
			Size:           Samples,
			AccuracySize:   Samples,
			Help:           "the bfcl-eval " + bfclVersion + " wheel (`pip download --no-deps bfcl-eval==" + bfclVersion + "`) or its bfcl_eval/data folder",
			InputDataTypes: "text",
			Scoring:        "BFCL v4 AST accuracy, overall and per category, gated at 97% of the reference's (endpoints' BFCLv4Scorer)",
			Open:           open,
			Synth:          Synth,
			Downloads:      downloads,
		},
		Serving: benchmark.Serving{
			API:    openaichat.ToolsProtocol,
			Model:  Model,
			Output: benchmark.Text,
			Sampling: map[protocol.Protocol]json.RawMessage{
				// online_edge_full_run.yaml's model_params: temperature 0,
				// seed 42, max_new_tokens 1024 (sent as max_completion_tokens).
				openaichat.ToolsProtocol: json.RawMessage(`{"temperature": 0.0, "max_completion_tokens": 1024, "seed": 42}`),
			},
			StreamRequests: true,
		},
		Submission: benchmark.Submission{Rounds: rounds, NotFileable: NotFileableReason},
		Fake:       benchmark.Fake{DefaultAnswer: fakeDefaultAnswer},
	})
}

func open(paths, _ []string) (benchmark.Dataset, error) {
	d, err := Open(paths)
	if err != nil {
		return nil, err
	}
	return d, nil
}
