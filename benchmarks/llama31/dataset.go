package llama31

import "github.com/mlperf-go/mlperf-go/benchmarks/internal/tokenset"

// VocabSize is the size of the Llama 3 tokenizer's vocabulary
// (meta-llama/Llama-3.1-8B-Instruct, config.json "vocab_size"); prompt token
// IDs must lie in [0, VocabSize).
const VocabSize = 128256

// Spec describes the benchmark's dataset files to the shared token reader.
var Spec = tokenset.Spec{
	Benchmark:       Name,
	TokenColumns:    []string{"tok_input"},
	ReferenceColumn: "output",
	Vocab:           VocabSize,
	VocabName:       "Llama 3",
	PickleFix:       tokenset.PickleToJSON,
	PickleExt:       ".json",
}

// Open reads the llama3_1-8b CNN/DailyMail evaluation set: cnn_eval.json
// (13,368 samples, datacenter) or sample_cnn_eval_5000.json (edge), as
// written by the reference's language/llama3.1-8b/download_cnndm.py — a JSON
// list of records {"instruction", "input", "tok_input", "output"}, of which
// tok_input (the prompt token IDs, sent as they are) and output (the target
// summary, Reference) are kept. The pandas DataFrame.to_json layouts
// (orient "records", "columns", "index", "split") and a parquet file with the
// same columns are read too.
//
// The reference ships JSON; a pickled DataFrame cannot be read from Go and
// gets an error with the one-line conversion:
//
//	python3 -c "import pandas as pd; pd.read_pickle('cnn_eval.pkl').to_json('cnn_eval.json', orient='records')"
//
// Every record must have a non-empty tok_input of integers in
// [0, VocabSize); otherwise the error names the file and the record.
// Apply a requested total sample count with Head, as the reference takes
// min(len(dataset), total_sample_count) (language/llama3.1-8b/dataset.py).
func Open(path string) (*tokenset.Dataset, error) {
	return tokenset.Open(path, &Spec)
}
