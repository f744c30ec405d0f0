package llama31

import (
	"github.com/mlperf-go/mlperf-go/download"
	"github.com/mlperf-go/mlperf-go/internal/round"
)

// storage is MLCommons' public inference bucket, where the reference's
// datasets are (language/llama3.1-8b/README.md:146-147, 160-161).
const storage = "https://inference.mlcommons-storage.org"

// The files `mlperf-go dataset download` fetches. The datasets come from
// MLCommons' R2 storage as the reference's README fetches them with
// mlc-r2-downloader.sh; each file's md5 is pinned from the round's .md5
// listing (mlcommons/r2-infra inference/metadata at 5d77ea6, unchanged
// since 2025-08-01, before the v6.0 deadline), and the storage's listing
// must agree with it.
var (
	// cnnEval is cnn_eval.json, the 13,368-sample datacenter set.
	cnnEval = download.Pin{
		Role: download.RoleDataset, Dir: "dataset",
		Ref: "mlcommons/inference language/llama3.1-8b/README.md:146-147 (llama3-1-8b-cnn-eval.uri)",
		R2: &download.R2{Set: "llama3-1-8b-cnn-eval", Base: storage,
			Files: map[string]string{"cnn_eval.json": "c41c613c17794d117899fdcdeeadbe3c"}},
		Open: []string{"cnn_eval.json"},
	}
	// cnnEvalEdge is sample_cnn_eval_5000.json, the 5,000-sample edge set.
	cnnEvalEdge = download.Pin{
		Role: download.RoleDataset, Dir: "dataset",
		Ref: "mlcommons/inference language/llama3.1-8b/README.md:160-161 (llama3-1-8b-sample-cnn-eval-5000.uri)",
		R2: &download.R2{Set: "llama3-1-8b-sample-cnn-eval-5000", Base: storage,
			Files: map[string]string{"sample_cnn_eval_5000.json": "b9d994f8a8431c89f57b38d33b94a00d"}},
		Open: []string{"sample_cnn_eval_5000.json"},
	}
	// tokenizerPin is meta-llama/Llama-3.1-8B-Instruct's (gated: accept the
	// licence and set HF_TOKEN), which evaluation.py decodes with. The
	// reference names the repository but no revision (README.md:115-129,
	// evaluation.py:39), so mlperf-go pins 0e9e39f249a1, the 2024 commit
	// public Hugging Face caches of the model name (not checked against the
	// hub from here): it predates the 2026 fix PRs that would turn
	// clean_up_tokenization_spaces off, as the round's targets assume.
	tokenizerPin = download.TokenizerPin("meta-llama/Llama-3.1-8B-Instruct", "0e9e39f249a16976918f6564b8830bc894c89659",
		"mlcommons/inference language/llama3.1-8b/README.md:115-129 (repository; revision pinned by mlperf-go)")

	downloads     = map[string][]download.Pin{round.V60: {cnnEval, tokenizerPin}, round.V61: {cnnEval, tokenizerPin}}
	edgeDownloads = map[string][]download.Pin{round.V60: {cnnEvalEdge, tokenizerPin}, round.V61: {cnnEvalEdge, tokenizerPin}}
)
