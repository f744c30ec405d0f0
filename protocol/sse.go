package protocol

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// SSEReader yields the payloads of server-sent-event "data:" lines. Like
// the reference clients it treats each data line as one message (vLLM and
// SGLang never split a JSON chunk over several lines) and ignores other
// fields and comments.
type SSEReader struct {
	r    *bufio.Reader
	long []byte // assembles lines longer than the bufio buffer
}

// Done is the payload of the event that ends an OpenAI-style stream
// ("data: [DONE]").
var Done = []byte("[DONE]")

// Reset makes the reader read events from r.
func (s *SSEReader) Reset(r *bufio.Reader) { s.r = r }

// Next returns the next data payload with surrounding whitespace trimmed.
// The slice is valid until the following call. At the end of the body it
// returns io.EOF; a body cut mid-line returns that partial line first.
func (s *SSEReader) Next() ([]byte, error) {
	for {
		line, err := s.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			s.long = append(s.long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = s.r.ReadSlice('\n')
				s.long = append(s.long, line...)
			}
			line = s.long
		}
		if err != nil && !(errors.Is(err, io.EOF) && len(line) > 0) {
			return nil, err
		}
		if payload, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("data:")); ok {
			return bytes.TrimSpace(payload), nil
		}
		if err != nil { // partial non-data line at EOF
			return nil, err
		}
	}
}
