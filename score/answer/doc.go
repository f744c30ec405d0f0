// Package answer extracts and grades the answers of the reasoning benchmarks
// (gpt-oss-120b and deepseek-r1): multiple-choice letters (GPQA, MMLU-Pro),
// AIME integers, \boxed{} contents (MATH-500) and fenced code (LiveCodeBench).
//
// It is a port of the parse_* and evaluate_* functions of mlcommons/inference
// language/gpt-oss-120b/eval_accuracy.py and language/deepseek-r1/eval_accuracy.py.
// Those use Python's re module on str, so every pattern here is a hand-written
// scanner with Python's Unicode semantics (see pychar.go): \s is str.isspace,
// \w is any letter or number or '_', \d is any decimal digit (Nd), and
// re.IGNORECASE also matches U+0130/U+0131 for i, U+017F for s and U+212A for k.
// Go's regexp cannot express the look-ahead and backtracking some patterns
// rely on, so each scanner states the regular expression it replaces.
package answer
