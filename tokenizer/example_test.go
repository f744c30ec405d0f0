package tokenizer_test

import (
	"fmt"
	"strings"

	"github.com/mlperf-go/mlperf-go/tokenizer"
)

// Decoding as the llama3.1-8b evaluator does: special tokens skipped, clean-up as configured.
func ExampleTokenizer_Decode() {
	tok, err := tokenizer.Open(tokenizer.FindOptions{Path: "testdata/bytelevel"})
	if err != nil {
		panic(err)
	}
	ids, _ := tok.Encode("<|begin_of_text|>It 's here , isn't it ?")
	on, source := tok.CleanUpSpaces()
	fmt.Println(on, strings.HasSuffix(source, "tokenizer_config.json: clean_up_tokenization_spaces=true"))
	for _, cu := range []tokenizer.CleanUp{tokenizer.CleanUpOff, tokenizer.CleanUpDefault} {
		text, _ := tok.Decode(ids, tokenizer.DecodeOptions{SkipSpecialTokens: true, CleanUp: cu})
		fmt.Printf("%q\n", text)
	}
	// Output:
	// true true
	// "It 's here , isn't it ?"
	// "It's here, isn't it?"
}
