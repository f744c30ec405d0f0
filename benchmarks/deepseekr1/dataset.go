package deepseekr1

import (
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmarks/internal/tokenset"
)

// Spec describes the benchmark's dataset files to the shared token reader.
// The column names are those the reference code reads (no copy of the
// dataset was at hand to list its columns):
//   - prompt token IDs: "tok_input" (mlcommons/endpoints' loader: "input_tokens
//     … (source tok_input)"), or "input_tokens" (endpoints' prepared
//     deepseek_r1_eval.parquet);
//   - ground truth: "gt_output", else "ground_truth" (eval_accuracy.py
//     process_mlperf_log_accuracy, in that order);
//   - sub-dataset: "dataset", else derived from "metric" as
//     metric.replace("_em", "").replace("_", "") (ditto).
var Spec = tokenset.Spec{
	Benchmark:        Name,
	TokenColumns:     []string{"tok_input", "input_tokens"},
	ReferenceColumns: []string{"gt_output", "ground_truth"},
	MetaColumns: []tokenset.MetaColumn{
		{Name: "dataset"},
		{Name: "metric", Derive: datasetFromMetric},
	},
	Vocab:     VocabSize,
	VocabName: "DeepSeek-R1",
	PickleFix: tokenset.PickleToJSON,
	PickleExt: ".json",
	TokensHelp: `the reference's PyTorch backend makes them from "text_input" with the model's chat template; do the same once with: ` +
		`python3 -c "import pandas as pd; from transformers import AutoTokenizer; ` +
		`t = AutoTokenizer.from_pretrained('deepseek-ai/DeepSeek-R1', revision='56d4cbbb4d29f4355bab4b9a39ccb717a14ad5ad'); ` +
		`df = pd.read_pickle('DATASET.pkl'); ` +
		`df['tok_input'] = [t.apply_chat_template([{'role': 'user', 'content': p}], add_generation_prompt=True, max_length=32768, truncation=True) for p in df['text_input']]; ` +
		`df.to_json('DATASET.json', orient='records')"`,
}

// datasetFromMetric is eval_accuracy.py's fallback for a file without a
// "dataset" column: metric.replace("_em", "").replace("_", ""). (It turns
// "mmlu_pro_em" into "mmlupro", which no evaluator key matches: the
// reference then stops with "No evaluator found", and so does mlperf-go.)
func datasetFromMetric(metric string) string {
	return strings.ReplaceAll(strings.ReplaceAll(metric, "_em", ""), "_", "")
}

// Open reads the deepseek-r1 dataset. The reference ships it as a pickled
// pandas DataFrame, mlperf_deepseek_r1_dataset_4388_fp8_eval.pkl (4,388
// rows; the MLCommons download of deepseek-r1-datasets-fp8-eval.uri),
// which cannot be read from Go: Open's error gives the one-line conversion
//
//	python3 -c "import pandas as pd; pd.read_pickle('mlperf_deepseek_r1_dataset_4388_fp8_eval.pkl').to_json('mlperf_deepseek_r1_dataset_4388_fp8_eval.json', orient='records')"
//
// (JSON, not parquet: a ground-truth column mixing AIME integers and text
// converts to JSON but not to a parquet column). mlcommons/endpoints'
// prepared deepseek_r1_eval.parquet (input_tokens, ground_truth, dataset,
// question) is read as it is, and every DataFrame.to_json layout too. The
// columns read are Spec's; "text_input" (the prompt text the reference's
// SGLang backend sends) and "question" are not needed. A file without token
// IDs gets an error with the command that makes them as the reference's
// PyTorch backend does.
//
// Every row must have a non-empty token list of integers in
// [0, VocabSize); otherwise the error names the file and the row. A row's
// ground truth reads as Python's str() of it (an AIME integer as its
// digits) and keeps its type: a float (42.0) is int()ed by the AIME grader
// as the reference's evaluate_aime does, and null is a missing ground
// truth, graded wrong as the reference grades it.
func Open(path string) (*tokenset.Dataset, error) {
	return tokenset.Open(path, &Spec)
}
