package deepseekr1

import (
	"github.com/mlperf-go/mlperf-go/download"
	"github.com/mlperf-go/mlperf-go/internal/round"
)

// The files `mlperf-go dataset download` fetches. The dataset comes from
// MLCommons' R2 storage as the reference's README fetches it with
// mlc-r2-downloader.sh (deepseek-r1-datasets-fp8-eval.uri); its md5 is
// pinned from the set's .md5 listing (mlcommons/r2-infra
// inference/metadata at 5d77ea6, unchanged since 2025-07-25), and the
// storage's listing must agree with it. Only the 4,388-sample set is
// fetched, not the calibration set. It is a pickle: opening the download
// folder prints the one-line conversion to the JSON the reader takes.
var (
	dataPin = download.Pin{
		Role: download.RoleDataset, Dir: "dataset",
		Ref: "mlcommons/inference language/deepseek-r1/README.md:57-62 (deepseek-r1-datasets-fp8-eval.uri)",
		R2: &download.R2{Set: "deepseek-r1-datasets-fp8-eval", Base: "https://inference.mlcommons-storage.org",
			Files: map[string]string{"mlperf_deepseek_r1_dataset_4388_fp8_eval.pkl": "994a30e4787831b8c8f6e44da7de67fe"}},
		Open: []string{"mlperf_deepseek_r1_dataset_4388_fp8_eval.pkl"},
	}
	// tokenizerPin is deepseek-ai/DeepSeek-R1's at the revision the
	// reference pins, which eval_accuracy.py decodes with.
	tokenizerPin = download.TokenizerPin("deepseek-ai/DeepSeek-R1", "56d4cbbb4d29f4355bab4b9a39ccb717a14ad5ad",
		"mlcommons/inference language/deepseek-r1/README.md:11, utils/backend_registry.py:10")

	downloads = map[string][]download.Pin{round.V60: {dataPin, tokenizerPin}, round.V61: {dataPin, tokenizerPin}}
)
