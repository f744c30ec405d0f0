package whisper

import (
	"github.com/mlperf-go/mlperf-go/download"
	"github.com/mlperf-go/mlperf-go/internal/round"
)

// datasetPin is the reference's preprocessed set on MLCommons' R2 storage
// (speech2text/README.md:162, whisper-dataset.uri): the manifest and the
// 1,633 repacked wav files of its listing (which also holds the LibriSpeech
// flac and the unpacked wav files the reference made them from, not
// needed). The listing is pinned by its sha256 (mlcommons/r2-infra
// inference/metadata/whisper-dataset.md5 at 5d77ea6, unchanged since
// 2025-06-30, before the v6.0 deadline; no blank md5 among these files).
var datasetPin = download.Pin{
	Role: download.RoleDataset, Dir: "dataset",
	Ref: "mlcommons/inference speech2text/README.md:162 (whisper-dataset.uri)",
	R2: &download.R2{Set: "whisper-dataset", Base: "https://inference.mlcommons-storage.org",
		Include:       []string{ManifestFile, "dev-all-repack/*.wav"},
		ListingSHA256: "6628326e8d3d3d6ead5d7b12e6e59489988c2b81b1f18e57211e1db5210c0ec9"},
	Open: []string{ManifestFile},
}

// tokenizerPin is openai/whisper-large-v3's tokenizer at the revision the
// reference names (speech2text/README.md:139-142). The harness itself
// needs none (vLLM's usage gives the token count and the evaluator reads
// characters); it is there to check or re-count answers offline.
var tokenizerPin = download.TokenizerPin("openai/whisper-large-v3", "06f233fe06e710322aca913c1bc4249a0d71fce1",
	"mlcommons/inference speech2text/README.md:139-142 (openai/whisper-large-v3 @ 06f233fe)")

// downloads are the files `mlperf-go dataset download -b whisper` fetches.
var downloads = map[string][]download.Pin{round.V60: {datasetPin, tokenizerPin}, round.V61: {datasetPin, tokenizerPin}}
