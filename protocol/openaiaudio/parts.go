package openaiaudio

import (
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jsonwire"
)

var _ protocol.PartsReader = transcriptions{}

// ReadParts reads the usage of a transcription or of its last chunk.
func (transcriptions) ReadParts(data []byte) protocol.Parts { return jsonwire.UsageParts(data) }
