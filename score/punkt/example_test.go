package punkt_test

import (
	"fmt"

	"github.com/mlperf-go/mlperf-go/score/punkt"
)

func ExampleSentTokenize() {
	for _, s := range punkt.SentTokenize(`Mr. Smith met Johann S. Bach in the U.S. He said "Hi." (Sent1.) Sent2.`) {
		fmt.Println(s)
	}
	// Output:
	// Mr. Smith met Johann S. Bach in the U.S.
	// He said "Hi."
	// (Sent1.)
	// Sent2.
}
