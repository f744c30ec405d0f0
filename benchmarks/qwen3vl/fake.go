package qwen3vl

import (
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/benchmarks/qwen3vl/eval"
	"github.com/mlperf-go/mlperf-go/internal/jsonenc"
)

// What the fake endpoint answers Qwen3-VL samples with: ProductMetadata
// JSON as a guided-decoding run prints it, right or plausibly wrong, so an
// accuracy run against the fake scores what its --accuracy says.

// fakeDefaultAnswer is the fake's answer to a user text no sample has:
// valid ProductMetadata JSON that matches no real sample.
var fakeDefaultAnswer = productJSON("Uncategorized", "unbranded", false)

// FakeAnswers returns the answers the fake endpoint keys on the exact user
// text the harness sends for each sample, as round v6.0's requests write it
// and as round v6.1's do: the ground truth, and as wrong answers each other
// potential category (or, when there is none, a deeper level of the true
// one) with an altered brand and the opposite second-hand flag, so a wrong
// answer keeps no true field.
func (d *Dataset) FakeAnswers() []benchmark.FakeAnswer {
	a := make([]benchmark.FakeAnswer, d.Len())
	for i := range a {
		a[i] = fakeAnswer(d.Sample(i).Truth, d.UserText(i), d.UserTextV61(i))
	}
	return a
}

// fakeAnswer is one sample's answer, keyed on its user texts.
func fakeAnswer(t eval.Truth, keys ...string) benchmark.FakeAnswer {
	brand := wrongBrand(t.Brand)
	var wrongs []string
	for _, c := range t.Categories {
		if c != t.Category {
			wrongs = append(wrongs, productJSON(c, brand, !t.IsSecondhand))
		}
	}
	if len(wrongs) == 0 {
		wrongs = []string{productJSON(t.Category+" > Other", brand, !t.IsSecondhand)}
	}
	return benchmark.FakeAnswer{Keys: keys, Right: productJSON(t.Category, t.Brand, t.IsSecondhand), Wrongs: wrongs}
}

// productJSON renders an answer the way a guided-decoding Qwen3-VL run
// prints ProductMetadata: one line, Python json.dumps separators, non-ASCII
// kept (as the server writes its JSON strings).
func productJSON(category, brand string, secondhand bool) string {
	var b []byte
	b = append(b, `{"category": `...)
	b = jsonenc.AppendMinimal(b, category)
	b = append(b, `, "brand": `...)
	b = jsonenc.AppendMinimal(b, brand)
	b = append(b, `, "is_secondhand": `...)
	if secondhand {
		b = append(b, "true"...)
	} else {
		b = append(b, "false"...)
	}
	return string(append(b, '}'))
}

// wrongBrand alters a brand so no exact or case-insensitive match survives.
func wrongBrand(b string) string {
	if strings.TrimSpace(b) == "" {
		return "unbranded"
	}
	return b + " outlet"
}
