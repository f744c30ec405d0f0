package openaicompletions

import (
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jsonwire"
)

var _ protocol.PartsReader = completions{}

// ReadParts reads the usage of a completion or of its last chunk: a text
// completion carries no reasoning apart (a server's reasoning parser works
// on chats), but a server may count reasoning tokens in its usage.
func (completions) ReadParts(data []byte) protocol.Parts { return jsonwire.UsageParts(data) }
