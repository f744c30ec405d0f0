// Package all registers every wire protocol mlperf-go speaks; import it
// for its side effect where users name protocols (the CLI's --api) and
// where every protocol is served (the fake endpoint).
package all

import (
	_ "github.com/mlperf-go/mlperf-go/protocol/openaiaudio"       // openai-transcriptions
	_ "github.com/mlperf-go/mlperf-go/protocol/openaichat"        // openai-chat
	_ "github.com/mlperf-go/mlperf-go/protocol/openaicompletions" // openai-completions
	_ "github.com/mlperf-go/mlperf-go/protocol/sglang"            // sglang-generate
)
