// Package mmlu evaluates a model served behind an OpenAI-compatible
// endpoint on MMLU (Hendrycks et al., "Measuring Massive Multitask
// Language Understanding", ICLR 2021), a quality check beyond MLPerf:
// `mlperf-go eval mmlu`.
//
// It reads a local copy of the Hugging Face data set cais/mmlu (parquet:
// question, subject, choices, answer), picks the questions (optionally a
// seeded subset stratified by subject), writes each prompt exactly as
// lm-evaluation-harness does (zero- or k-shot from the dev split; proven
// byte for byte against its own code by testdata/prompts.jsonl), asks the
// endpoint through package ask, reads the letter each answer chooses
// (Extract: its rules are stated there; an answer without one is
// unparseable and wrong), and reports the accuracy per subject, per
// category (STEM, humanities, social sciences, other: the original MMLU
// code's mapping) and overall, as a per-sample CSV, a results JSON, a
// console table and an HTML page with bar charts.
package mmlu
