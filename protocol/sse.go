package protocol

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// SSEReader yields the payloads of server-sent-event "data:" lines. Like
// the reference clients it treats each data line as one message (vLLM and
// SGLang never split a JSON chunk over several lines) and ignores comments
// and other fields, except "event: error": the data of an error event is
// returned as a *ServerError, because an error event ends the answer
// (OpenAI's client raises on it too).
type SSEReader struct {
	r       *bufio.Reader
	long    []byte // assembles lines longer than the bufio buffer
	maxLine int
	errorEv bool // the event being read was named "error"
}

// Done is the payload of the event that ends an OpenAI-style stream
// ("data: [DONE]").
var Done = []byte("[DONE]")

// maxErrorData is how much of an error event's data a message quotes.
const maxErrorData = 300

// Reset makes the reader read events from r. A line longer than maxLine
// bytes (0: no limit) is an error wrapping ErrTooLarge, so an endless line
// cannot grow memory without bound.
func (s *SSEReader) Reset(r *bufio.Reader, maxLine int) {
	s.r, s.maxLine, s.errorEv = r, maxLine, false
}

// Next returns the next data payload with surrounding whitespace trimmed.
// The slice is valid until the following call. At the end of the body it
// returns io.EOF; a body cut mid-line returns that partial line first.
func (s *SSEReader) Next() ([]byte, error) {
	for {
		line, err := s.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			s.long = append(s.long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				if s.maxLine > 0 && len(s.long) > s.maxLine {
					return nil, fmt.Errorf("%w: a server-sent-event line longer than %d bytes", ErrTooLarge, s.maxLine)
				}
				line, err = s.r.ReadSlice('\n')
				s.long = append(s.long, line...)
			}
			line = s.long
		}
		if s.maxLine > 0 && len(line) > s.maxLine {
			return nil, fmt.Errorf("%w: a server-sent-event line longer than %d bytes", ErrTooLarge, s.maxLine)
		}
		if err != nil && !(errors.Is(err, io.EOF) && len(line) > 0) {
			return nil, err
		}
		line = bytes.TrimSpace(line)
		if payload, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			payload = bytes.TrimSpace(payload)
			if s.errorEv {
				return nil, &ServerError{Message: "the stream sent an error event: " + clipString(payload, maxErrorData)}
			}
			return payload, nil
		}
		if name, ok := bytes.CutPrefix(line, []byte("event:")); ok {
			s.errorEv = string(bytes.TrimSpace(name)) == "error"
		} else if len(line) == 0 {
			s.errorEv = false // a blank line ends the event
		}
		if err != nil { // partial non-data line at EOF
			return nil, err
		}
	}
}

// clipString shortens b to n bytes for a message, marking the cut.
func clipString(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}
