package tokenizer

import "testing"

// The accuracy set of llama3.1-8b: 13,368 samples; outputs of about 600 tokens.
const benchSamples, benchLen = 13368, 600

// benchSeqs cuts the golden ids, concatenated in file order and repeated, into n sequences of l
// ids, keeping only ids below vocab; testdata/bench_batch_decode.py builds the same batch for
// transformers.
func benchSeqs(cases []decodeCase, n, l, vocab int) [][]int {
	var stream []int
	for _, c := range cases {
		for _, id := range c.IDs {
			if id < vocab {
				stream = append(stream, id)
			}
		}
	}
	seqs := make([][]int, n)
	pos := 0
	for i := range seqs {
		seqs[i] = make([]int, l)
		for j := range seqs[i] {
			seqs[i][j] = stream[pos%len(stream)]
			pos++
		}
	}
	return seqs
}

func benchBatchDecode(b *testing.B, tok *Tokenizer, golden string, opt DecodeOptions) {
	b.Helper()
	seqs := benchSeqs(readJSONL[decodeCase](&testing.T{}, golden), benchSamples, benchLen, tok.VocabSize())
	b.ResetTimer()
	for b.Loop() {
		if _, err := tok.BatchDecode(seqs, opt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchSamples, "ns/sequence")
}

// BenchmarkBatchDecodeLlama3 decodes llama3.1-8b's accuracy set size with Meta's tokenizer, as
// the evaluator does (skip_special_tokens, clean-up on).
func BenchmarkBatchDecodeLlama3(b *testing.B) {
	tok, err := Load(llama3Path(b))
	if err != nil {
		b.Fatal(err)
	}
	benchBatchDecode(b, tok, "llama3_decode.jsonl.gz", DecodeOptions{SkipSpecialTokens: true})
}

func BenchmarkBatchDecodeByteLevel(b *testing.B) {
	benchBatchDecode(b, loadSmall(b, "bytelevel"), "bytelevel_decode.jsonl.gz", DecodeOptions{SkipSpecialTokens: true})
}

func BenchmarkBatchDecodeByteFallback(b *testing.B) {
	benchBatchDecode(b, loadSmall(b, "spm-legacy"), "spm-legacy_decode.jsonl.gz", DecodeOptions{SkipSpecialTokens: true})
}

func BenchmarkBatchDecodeSlowLlama(b *testing.B) {
	benchBatchDecode(b, loadSmall(b, "spm-legacy"), "spm-legacy_decode.jsonl.gz", DecodeOptions{SkipSpecialTokens: true, SlowLlama: true})
}

func BenchmarkEncodeLlama3(b *testing.B) {
	tok, err := Load(llama3Path(b))
	if err != nil {
		b.Fatal(err)
	}
	cases := readJSONL[encodeCase](&testing.T{}, "llama3_encode.jsonl.gz")
	n := 0
	for _, c := range cases {
		n += len(c.Text)
	}
	b.SetBytes(int64(n))
	b.ResetTimer()
	for b.Loop() {
		for _, c := range cases {
			if _, err := tok.Encode(c.Text); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkLoadLlama3Tiktoken(b *testing.B) {
	p := llama3Path(b)
	for b.Loop() {
		if _, err := Load(p); err != nil {
			b.Fatal(err)
		}
	}
}
