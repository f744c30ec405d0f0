package gptoss120b

import "github.com/mlperf-go/mlperf-go/benchmarks/internal/tokenset"

// VocabSize is the size of gpt-oss's o200k_harmony vocabulary
// (openai/gpt-oss-120b, config.json "vocab_size"); prompt token IDs must lie
// in [0, VocabSize).
const VocabSize = 201088

// Spec describes the benchmark's dataset files to the shared token reader.
var Spec = tokenset.Spec{
	Benchmark: Name,
	// language/gpt-oss-120b/utils/tokenization.py: "tok_input" before v4.0,
	// "input_tokens" since; the first present wins, as there.
	TokenColumns:    []string{"tok_input", "input_tokens"},
	ReferenceColumn: "ground_truth",
	MetaColumn:      "dataset",
	Vocab:           VocabSize,
	VocabName:       "gpt-oss (o200k_harmony)",
	PickleFix:       `python3 -c "import pandas as pd; pd.read_pickle(%[1]s).to_parquet(%[2]s)"`,
	PickleExt:       ".parquet",
}

// Open reads a gpt-oss-120b dataset: the reference's parquet files
// (perf/perf_eval_ref.parquet, the 6,396-sample performance set;
// acc/acc_eval_inputs.parquet, the 4,395-sample accuracy set;
// acc/acc_eval_compliance_gpqa.parquet for TEST07), read like
// language/gpt-oss-120b/utils/tokenization.py reads them: prompt token IDs
// from "tok_input" or else "input_tokens" (list<int64> or list<int32>), plus
// "ground_truth" (Reference) and "dataset" (Meta) that the accuracy evaluator
// needs. The same data exported to JSON (DataFrame.to_json, any orient the
// llama reader takes) is read too.
//
// The reference runs accuracy and performance from different files, each
// with its QSL's total and performance sample counts equal to the file's
// length (language/gpt-oss-120b/run_mlperf.py); LoadGen then uses
// mlperf.conf's counts (6,396 performance, 4,395 accuracy), so open the file
// matching the mode.
//
// A pickled DataFrame cannot be read from Go and gets an error with the
// one-line conversion:
//
//	python3 -c "import pandas as pd; pd.read_pickle('acc_eval_inputs.pkl').to_parquet('acc_eval_inputs.parquet')"
//
// Every row must have a non-empty token list of integers in
// [0, VocabSize); otherwise the error names the file and the row.
func Open(path string) (*tokenset.Dataset, error) {
	return tokenset.Open(path, &Spec)
}
