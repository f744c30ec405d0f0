package benchmark

import (
	"fmt"

	"github.com/mlperf-go/mlperf-go/sut"
)

// ParseAPI returns the endpoint API named s: the long names the README
// uses ("openai-chat", "openai-completions", "sglang-generate") or sut's
// short ones ("chat", "completions", "sglang").
func ParseAPI(s string) (sut.API, error) {
	switch s {
	case "openai-chat":
		return sut.APIChat, nil
	case "openai-completions":
		return sut.APICompletions, nil
	case "sglang-generate":
		return sut.APISGLang, nil
	}
	a, err := sut.ParseAPI(s)
	if err != nil {
		return 0, fmt.Errorf("unknown API %q: use openai-chat, openai-completions or sglang-generate", s)
	}
	return a, nil
}
