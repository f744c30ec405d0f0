package tokenset

import "github.com/mlperf-go/mlperf-go/benchmark"

// FakeTokenAnswers returns the fake endpoint's answers to d's samples
// (benchmark.FakeTokenAnswerer), each keyed on its prompt tokens, with
// the texts answer writes for sample i. A sample answer gives no right
// answer for (ok false: nothing to score it against) is left out, and so
// is a sample whose prompt an earlier one has, which shares its answer:
// the fake knows a sample by its prompt alone.
func (d *Dataset) FakeTokenAnswers(answer func(i int) (right string, wrongs []string, ok bool)) []benchmark.FakeTokenAnswer {
	out := make([]benchmark.FakeTokenAnswer, 0, d.Len())
	seen := make(map[string]bool, d.Len())
	for i := range d.Len() {
		p := d.Tokens(i)
		k := promptKey(p)
		if seen[k] {
			continue
		}
		right, wrongs, ok := answer(i)
		if !ok || right == "" {
			continue
		}
		seen[k] = true
		out = append(out, benchmark.FakeTokenAnswer{Prompt: p, Right: right, Wrongs: wrongs})
	}
	return out
}

// promptKey is a map key for prompt tokens.
func promptKey(p []int32) string {
	b := make([]byte, 0, 4*len(p))
	for _, v := range p {
		b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	}
	return string(b)
}
