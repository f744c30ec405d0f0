// Package exactmatch computes the official accuracy of gpt-oss-120b and
// deepseek-r1 from decoded outputs and their dataset rows, and prints it
// as the reference evaluator does (the text that goes into accuracy.txt).
//
// gpt-oss-120b follows language/gpt-oss-120b/eval_mlperf_accuracy.py: every
// log entry counts (no de-duplication), entries are grouped by lower-cased
// dataset name, each dataset scores correct/repeats (aime25 8, gpqa_diamond
// 5, livecodebench_v6 3, others 1), and the final score is the sum of those
// over the sum of total/repeats, printed as 'exact_match' with three
// decimals. deepseek-r1 follows language/deepseek-r1/eval_accuracy.py: the
// first entry of each qsl_idx counts, exact_match is the mean of 100/0 per
// sample, and tokens_per_sample the mean output length, printed as a Python
// dict.
//
// Unlike the references, a sample that cannot be graded (a LiveCodeBench
// question without tests, a math answer without a grader, a failing test
// harness) is an error, never a wrong answer: the references' silent zero
// for an unloadable LiveCodeBench once scored gpt-oss-120b as 0.
package exactmatch
