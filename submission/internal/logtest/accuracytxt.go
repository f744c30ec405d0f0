package logtest

// TestHash is a hash= line as packaging appends it to accuracy.txt.
const TestHash = "hash=3f1b4c0e4e8a2d9b7c6a5f4e3d2c1b0a9f8e7d6c5b4a39281706f5e4d3c2b1a0\n"

// AccuracyTxt returns a passing accuracy.txt per benchmark, as the official
// evaluators print it, with the packaging hash appended.
func AccuracyTxt(bench string) string {
	switch bench {
	case BenchmarkLlama8B:
		return "\nResults\n\n{'rouge1': '38.9', 'rouge2': '16.1', 'rougeL': '24.6', 'rougeLsum': '35.9', 'gen_len': 8167644, 'gen_num': 13368}\n\n" + TestHash
	case BenchmarkGPTOSS:
		return "\n\nPrinting for submission_checker:\n\n'exact_match': 83.500\n\n" + TestHash
	case BenchmarkDeepSeekR1:
		return "\nResults\n\n{'exact_match': 81.4, 'tokens_per_sample': 3886.2, 'num-samples': 4388}\n\n" + TestHash
	case BenchmarkLlama2, BenchmarkLlama2_99:
		return "\nResults\n\n{'rouge1': 44.4542, 'rouge2': 22.0419, 'rougeL': 28.6112, 'rougeLsum': 42.0341, 'gen_len': 29579723, 'gen_num': 24576, 'gen_tok_len': 7399913, 'tokens_per_sample': 301.1}\n\n" + TestHash
	default:
		return "{\"f1\": 0.7903}\n\n" + TestHash
	}
}
