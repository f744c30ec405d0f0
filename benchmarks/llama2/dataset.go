package llama2

import "github.com/mlperf-go/mlperf-go/benchmarks/internal/tokenset"

// Spec describes the benchmark's dataset files to the shared token reader:
// the prompt token IDs in "tok_input" (language/llama2-70b/dataset.py) and
// the reference answer in "output" (evaluate-accuracy.py get_groundtruth).
var Spec = tokenset.Spec{
	Benchmark:       Name,
	TokenColumns:    []string{"tok_input"},
	ReferenceColumn: "output",
	Vocab:           VocabSize,
	VocabName:       "Llama 2",
	PickleFix:       tokenset.PickleToJSON,
	PickleExt:       ".json",
}

// Open reads the llama2-70b OpenOrca set. The reference ships it as a
// pickled pandas DataFrame, open_orca_gpt4_tokenized_llama.sampled_24576.pkl
// (gzip-compressed as .pkl.gz by the MLCommons download), built by
// language/llama2-70b/processorca.py with the columns id, system_prompt,
// question, output, input, tok_input, tok_output, origin, tok_input_length
// and tok_output_length. The reference reads only tok_input (the prompt's
// token IDs: the Llama 2 chat prompt with token 29871 appended) and output
// (the GPT-4 answer ROUGE compares against); so does Open.
//
// A pickle cannot be read from Go and gets an error with the one-line
// conversion, which works on the .pkl.gz too:
//
//	python3 -c "import pandas as pd; pd.read_pickle('open_orca_gpt4_tokenized_llama.sampled_24576.pkl').to_json('open_orca_gpt4_tokenized_llama.sampled_24576.json', orient='records')"
//
// Every DataFrame.to_json layout and a parquet file with the same columns
// are read too. Every record must have a non-empty tok_input of integers in
// [0, VocabSize); otherwise the error names the file and the record.
func Open(path string) (*tokenset.Dataset, error) {
	return tokenset.Open(path, &Spec)
}
