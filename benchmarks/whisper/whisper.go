// Package whisper is the whisper benchmark: MLPerf's speech-to-text task
// (speech2text/ in mlcommons/inference) with Whisper large-v3 on the
// reference's LibriSpeech dev-clean + dev-other set, repacked into 1,633
// clips of at most 30 s (dev-all-repack.json and dev-all-repack/*.wav),
// each audio file sent to vLLM's OpenAI-compatible /v1/audio/transcriptions
// (protocol/openaiaudio) and its transcript returned to LoadGen as the
// reference SUT does: int64 indices of the 42-character alphabet, with the
// generated token count. Accuracy is the reference's word error rate
// (score/wer). Offline only, with compliance TEST01, as the checker rules.
// It registers itself with package benchmark.
//
// Serving whisper over HTTP is the harness's choice, not the reference's
// (its SUT runs vLLM in process): nothing in the rules or the checker
// requires or forbids it. The request asks for the reference's decoding
// (language en, so vLLM's decoder prompt is the reference's
// "<|startoftranscript|><|en|><|transcribe|><|notimestamps|>"; temperature
// 0, top_p 1, at most 200 tokens), and vLLM pads the audio to 30 s in its
// feature extractor, as the rules' FAQ requires.
package whisper

import (
	_ "embed"
	"encoding/json"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/round"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaiaudio"
)

// Name is LoadGen's model name (mlperf.conf) and the submission
// directory.
const Name = "whisper"

// Samples is the size of the repacked set (mlperf.conf's
// performance_sample_count_override and min_query_count; the checker's
// dataset size). The performance and accuracy sets are the same.
const Samples = 1633

// MaxDuration is the reference's MAX_DURATION default (QSL.py,
// accuracy_eval.py): manifest entries longer than this many seconds are
// dropped before samples are indexed.
const MaxDuration = 30.0

// ManifestFile is the reference's manifest name.
const ManifestFile = "dev-all-repack.json"

// sampling is the reference's SamplingParams (reference_SUT.py:
// temperature 0, top_p 1.0, max_tokens 200) in the transcription form's
// names, with language en for the reference's decoder prompt.
const sampling = `{"language": "en", "temperature": 0, "top_p": 1, "max_completion_tokens": 200}`

// test01 is compliance/TEST01/whisper/audit.config (mlcommons/inference at
// b66003e1, blob c861e2a3), byte for byte.
//
//go:embed TEST01.audit.config
var test01 []byte

func init() {
	benchmark.Register(benchmark.Benchmark{
		Identity: benchmark.Identity{
			Name:          Name,
			SubmissionDir: Name,
			Description:   "LibriSpeech dev speech to text, vLLM /v1/audio/transcriptions",
		},
		Data: benchmark.Data{
			Size:           Samples,
			AccuracySize:   Samples,
			Help:           "the folder holding " + ManifestFile + " and dev-all-repack/*.wav, or the manifest file",
			Scoring:        "word error rate and accuracy = 100 - WER over the transcripts, after whisper's English text normalizer (speech2text/accuracy_eval.py)",
			InputDataTypes: "int16 PCM audio (16 kHz wav files)",
			Open: func(paths, _ []string) (benchmark.Dataset, error) {
				return Open(paths)
			},
			Synth: func(dir string, n int, seed uint64) ([]string, error) {
				return Synth(dir, n, seed)
			},
			Downloads: downloads,
		},
		Serving: benchmark.Serving{
			API:      openaiaudio.Protocol,
			Model:    "openai/whisper-large-v3",
			Output:   benchmark.CharIndices,
			Sampling: map[protocol.Protocol]json.RawMessage{openaiaudio.Protocol: json.RawMessage(sampling)},
		},
		Submission: benchmark.Submission{
			Rounds:     map[string]*benchmark.Rules{round.V60: rules(), round.V61: rules()},
			Compliance: map[string]benchmark.Compliance{"TEST01": {AuditConfig: test01}},
		},
	})
}
