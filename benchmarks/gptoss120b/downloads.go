package gptoss120b

import (
	"github.com/mlperf-go/mlperf-go/download"
	"github.com/mlperf-go/mlperf-go/internal/round"
)

// The files `mlperf-go dataset download` fetches. The dataset comes from
// MLCommons' R2 storage (gpt-oss-data.uri, which the reference's mlcr
// command fetches: language/gpt-oss-120b/README.md:19-28); each file's md5
// is pinned from the set's .md5 listing (mlcommons/r2-infra
// inference/metadata at 5d77ea6; these three unchanged since the set was
// published on 2026-01-13), and the storage's listing must agree with it.
// Only the parquet files the harness reads are fetched, not the .npy
// copies or the calibration set.
var (
	// dataPin is the performance, accuracy and TEST07 sets.
	dataPin = download.Pin{
		Role: download.RoleDataset, Dir: "dataset",
		Ref: "mlcommons/inference language/gpt-oss-120b/README.md:19-28 (gpt-oss-data.uri)",
		R2: &download.R2{Set: "gpt-oss-data", Base: "https://inference.mlcommons-storage.org", Files: map[string]string{
			"perf/perf_eval_ref.parquet":           "e4cd6cef6dd975f3e50c85b3279b358b", // performance set, 6,396 samples
			"acc/acc_eval_ref.parquet":             "29d35424fc8d31461e73a7766446480e", // accuracy set, 4,395 samples
			"acc/acc_eval_compliance_gpqa.parquet": "e35e6bc6d7343df1930501bb61e61260", // TEST07
		}},
		Open:         []string{"perf/perf_eval_ref.parquet"},
		OpenAccuracy: []string{"acc/acc_eval_ref.parquet"},
	}
	// tokenizerPin is openai/gpt-oss-120b's at the reference's model commit
	// (README.md:27), which eval_mlperf_accuracy.py --tokenizer loads.
	tokenizerPin = download.TokenizerPin("openai/gpt-oss-120b", "b5c939de8f754692c1647ca79fbf85e8c1e70f8a",
		"mlcommons/inference language/gpt-oss-120b/README.md:27")

	downloads = map[string][]download.Pin{round.V60: {dataPin, tokenizerPin}, round.V61: {dataPin, tokenizerPin}}
)
