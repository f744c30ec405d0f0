package qwen3vl

import (
	"github.com/mlperf-go/mlperf-go/download"
	"github.com/mlperf-go/mlperf-go/internal/round"
)

// The files `mlperf-go dataset download` fetches, as the reference
// (mlcommons/inference multimodal/qwen3-vl/README.md at b66003e) names them:
// the datasets on the Hugging Face hub at their commits, and the model's
// tokenizer at the model's commit. Each file is verified against the hub's
// tree API at that commit (LFS sha256 or git blob id); the commit pins the
// bytes.
var (
	// catalogue is Shopify/product-catalogue, train and test splits
	// (48,289 samples): README.md:130-131 (v6.1), :480-481 (v6.0), and
	// src/mlperf_inf_mm_q3vl/schema.py:628-634.
	catalogue = download.Pin{
		Role: download.RoleDataset, Dir: "dataset",
		Ref: "mlcommons/inference multimodal/qwen3-vl/README.md:130-131 (v6.1), :480-481 (v6.0)",
		HF: &download.HF{
			Repo: "Shopify/product-catalogue", Type: download.Dataset, Revision: "d5c517c509f5aca99053897ef1de797d6d7e5aa5",
			Include:  []string{"data/train-*.parquet", "data/test-*.parquet"},
			Optional: []string{"README.md", "LICENSE*"},
		},
	}
	// catalogue8k is nvidia/Shopify-product-catalogue-8k, the Interactive
	// scenario's 8,000 samples (one train split): README.md:135-136.
	catalogue8k = download.Pin{
		Role: download.RoleDataset, Dir: "dataset",
		Ref: "mlcommons/inference multimodal/qwen3-vl/README.md:135-136 (v6.1 Interactive)",
		HF: &download.HF{
			Repo: "nvidia/Shopify-product-catalogue-8k", Type: download.Dataset, Revision: "2bc8c6c4b6ebd27b880b0cba519cb45d09867045",
			Include:  []string{"data/train-*.parquet"},
			Optional: []string{"README.md", "LICENSE*"},
		},
	}
	// tokenizer is Qwen/Qwen3-VL-235B-A22B-Instruct's, at the model commit
	// of README.md:126-127 (v6.1), :477-478 (v6.0) and schema.py:621.
	tokenizer = download.TokenizerPin("Qwen/Qwen3-VL-235B-A22B-Instruct", "710c13861be6c466e66de3f484069440b8f31389",
		"mlcommons/inference multimodal/qwen3-vl/README.md:126-127 (v6.1), :477-478 (v6.0)")

	downloads = map[string][]download.Pin{
		round.V60: {catalogue, tokenizer},
		round.V61: {catalogue, tokenizer},
	}
	// interactiveDownloads: the Interactive scenario exists from v6.1.
	interactiveDownloads = map[string][]download.Pin{
		round.V61: {catalogue8k, tokenizer},
	}
)
