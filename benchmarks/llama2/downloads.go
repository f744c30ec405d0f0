package llama2

import (
	"github.com/mlperf-go/mlperf-go/download"
	"github.com/mlperf-go/mlperf-go/internal/round"
)

// The files `mlperf-go dataset download` fetches. The dataset comes from
// MLCommons' R2 storage as the reference's README fetches it with
// mlc-r2-downloader.sh (llama-2-70b-open-orca-dataset.uri); its md5 is
// pinned from the set's .md5 listing (mlcommons/r2-infra
// inference/metadata at 5d77ea6, unchanged since 2025-10-08), and the
// storage's listing must agree with it. Only the 24,576-sample set is
// fetched, not the calibration set or the reference outputs. It is a
// gzip-compressed pickle: opening the download folder prints the one-line
// conversion to the JSON the reader takes.
var (
	dataPin = download.Pin{
		Role: download.RoleDataset, Dir: "dataset",
		Ref: "mlcommons/inference language/llama2-70b/README.md:124 (llama-2-70b-open-orca-dataset.uri)",
		R2: &download.R2{Set: "llama-2-70b-open-orca-dataset", Base: "https://inference.mlcommons-storage.org",
			Files: map[string]string{"open_orca_gpt4_tokenized_llama.sampled_24576.pkl.gz": "c247a315b9328365f66d2c2585b35cd4"}},
		Open: []string{"open_orca_gpt4_tokenized_llama.sampled_24576.pkl.gz"},
	}
	// tokenizerPin is meta-llama/Llama-2-70b-chat-hf's (gated: accept the
	// licence and set HF_TOKEN), which evaluate-accuracy.py decodes with.
	// The reference names the repository but no revision (README.md:82-84),
	// so mlperf-go pins e9149a12809580e8602995856f8098ce973d1080, the
	// commit public Hugging Face caches of the model name most often hold
	// (not checked against the hub from here). The ROUGE pipeline does not
	// depend on the revision's "legacy" setting: it only moves spaces next
	// to special tokens, which the decode skips, and leading spaces, which
	// the post-processing strips.
	tokenizerPin = download.TokenizerPin("meta-llama/Llama-2-70b-chat-hf", "e9149a12809580e8602995856f8098ce973d1080",
		"mlcommons/inference language/llama2-70b/README.md:82-84 (repository; revision pinned by mlperf-go)")

	downloads = map[string][]download.Pin{round.V60: {dataPin, tokenizerPin}, round.V61: {dataPin, tokenizerPin}}
	// downloads99 are llama2-70b-99's: v6.0 only.
	downloads99 = map[string][]download.Pin{round.V60: {dataPin, tokenizerPin}}
)
