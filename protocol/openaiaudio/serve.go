package openaiaudio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"mime/multipart"
	"strconv"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/vllmwire"
)

// The server side, as vLLM serves /v1/audio/transcriptions
// (vllm/entrypoints/openai/speech_to_text/: protocol.py's
// TranscriptionRequest, speech_to_text.py's answers). The fake endpoint
// is asked AudioKey of the file, as the one user message of a chat, and
// answers with the transcript it was told for that key.

var _ protocol.Serving = transcriptions{}

func (transcriptions) AnswersTokenIDs() bool { return false }

func (transcriptions) ParseRequest(body []byte) (protocol.Request, error) { return parseRequest(body) }

// request is a read transcription request and its server-side state.
type request struct {
	ask            protocol.Ask
	msg            [1]protocol.Message
	format         string
	includeUsage   bool
	seconds        int // the audio's duration, rounded up (usage.seconds)
	promptTokens   int
	head           []byte // a stream's chunks all begin with it
	headBuf        [160]byte
	maxCompletions *int
}

// parseRequest reads a multipart/form-data body. The fake is not handed
// the request's headers, so the boundary is read from the body's first
// line, where Encode (like every client that writes no preamble) puts it.
// Checks are vLLM's: a file that is audio, a response_format it serves,
// stream options only with stream, max_completion_tokens at least 1.
func parseRequest(body []byte) (*request, error) {
	line, _, ok := bytes.Cut(body[:min(len(body), 2+maxBoundary+2)], []byte("\r\n"))
	if !ok || !bytes.HasPrefix(line, []byte("--")) || len(line) < 3 {
		return nil, errors.New("expected a multipart/form-data body (not JSON) beginning with its boundary line")
	}
	form, err := multipart.NewReader(bytes.NewReader(body), string(line[2:])).ReadForm(int64(len(body)) + 1<<20)
	if err != nil {
		return nil, fmt.Errorf("invalid multipart/form-data body: %v", err)
	}
	defer form.RemoveAll() //nolint:errcheck // in memory: the limit covers the body
	r := &request{format: "json"}
	files := form.File["file"]
	if len(files) == 0 {
		return nil, errors.New("file: Field required")
	}
	audio, err := readFile(files[0])
	if err != nil {
		return nil, err
	}
	if err := r.readFields(form.Value); err != nil {
		return nil, err
	}
	dur, err := wavDuration(audio)
	if err != nil {
		return nil, fmt.Errorf("Invalid or unsupported audio file: %v", err)
	}
	r.seconds = int(math.Ceil(dur))
	r.promptTokens = 4 // <|startoftranscript|><|en|><|transcribe|><|notimestamps|>
	r.msg[0] = protocol.Message{Role: "user", Text: AudioKey(audio)}
	r.ask.Messages = r.msg[:]
	r.ask.MaxTokens = protocol.NoLimit
	if r.maxCompletions != nil {
		r.ask.MaxTokens = *r.maxCompletions
	}
	return r, nil
}

func readFile(fh *multipart.FileHeader) ([]byte, error) {
	f, err := fh.Open()
	if err != nil {
		return nil, fmt.Errorf("file: %v", err)
	}
	defer f.Close()
	return io.ReadAll(f)
}

// readFields applies the form's text fields.
func (r *request) readFields(v map[string][]string) error {
	get := func(k string) (string, bool) {
		if s := v[k]; len(s) > 0 {
			return s[0], true
		}
		return "", false
	}
	r.ask.Model, _ = get("model")
	if f, ok := get("response_format"); ok {
		switch f {
		case "json", "text", "verbose_json":
			r.format = f
		default:
			return errors.New("Currently only support response_format: `text`, `json` or `verbose_json`")
		}
	}
	var err error
	flag := func(k string) bool {
		s, ok := get(k)
		if !ok || err != nil {
			return false
		}
		var b bool
		if b, err = strconv.ParseBool(s); err != nil {
			err = fmt.Errorf("%s: Input should be a valid boolean, got %q", k, s)
		}
		return b
	}
	r.ask.Stream = flag("stream")
	r.includeUsage = flag("stream_include_usage")
	continuous := flag("stream_continuous_usage_stats")
	if err != nil {
		return err
	}
	if (r.includeUsage || continuous) && !r.ask.Stream {
		return errors.New("Stream options can only be defined when `stream=True`.")
	}
	if r.ask.Stream && r.format == "verbose_json" {
		return errors.New("verbose_json format doesn't support streaming case")
	}
	if s, ok := get("max_completion_tokens"); ok {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return fmt.Errorf("max_completion_tokens must be an integer of at least 1, got %q", s)
		}
		r.maxCompletions = &n
	}
	return nil
}

func (r *request) Ask() *protocol.Ask { return &r.ask }

// AppendBody writes vLLM's answer: {"text", "usage": {"type": "duration",
// "seconds"}} for json, the bare text for text.
func (r *request) AppendBody(b []byte, rep *protocol.Reply) []byte {
	if r.format == "text" {
		return appendRawText(b, rep.Outputs[0], rep.Tokens)
	}
	b = append(b, `{"text":"`...)
	b = rep.Outputs[0].AppendText(b, 0, rep.Tokens)
	b = append(b, `","usage":{"type":"duration","seconds":`...)
	b = strconv.AppendInt(b, int64(r.seconds), 10)
	return append(b, `}}`...)
}

// appendRawText appends the answer's text unescaped (the JSON escaping
// undone).
func appendRawText(b []byte, o protocol.Output, n int) []byte {
	esc := o.AppendText(nil, 0, n)
	s, err := strconv.Unquote(`"` + string(esc) + `"`)
	if err != nil {
		return append(b, esc...)
	}
	return append(b, s...)
}

// AppendEvents writes transcription.chunk events, each carrying its text
// as delta.content; the last one has the finish reason.
func (r *request) AppendEvents(b []byte, rep *protocol.Reply, from, to int, last bool) []byte {
	if from == 0 {
		r.head = vllmwire.AppendHead(r.headBuf[:0], rep, "trsc-", "transcription.chunk")
	}
	b = append(b, "data: "...)
	b = append(b, r.head...)
	b = append(b, `{"delta":{"content":"`...)
	b = rep.Outputs[0].AppendText(b, from, to)
	b = append(b, `"}`...)
	if last {
		b = append(b, `,"finish_reason":"`...)
		b = append(b, rep.Finish...)
		b = append(b, `","stop_reason":null`...)
	}
	return append(b, "}]}\n\n"...)
}

// AppendTail writes the usage chunk stream_include_usage asks for: no
// choices, the prompt (decoder prompt) and completion token counts.
func (r *request) AppendTail(b []byte, rep *protocol.Reply) []byte {
	if !r.includeUsage {
		return b
	}
	if r.head == nil {
		r.head = vllmwire.AppendHead(r.headBuf[:0], rep, "trsc-", "transcription.chunk")
	}
	b = append(b, "data: "...)
	b = append(b, r.head...)
	b = append(b, `],"usage":`...)
	b = vllmwire.AppendUsage(b, r.promptTokens, rep.Tokens, vllmwire.NoReasoning, false)
	return append(b, "}\n\n"...)
}

// wavDuration reads a RIFF/WAVE file's header and returns its duration in
// seconds: the data chunk's length over the fmt chunk's byte rate.
func wavDuration(b []byte) (float64, error) {
	if len(b) < 12 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return 0, errors.New("not a RIFF/WAVE file")
	}
	byteRate := uint32(0)
	for p := 12; p+8 <= len(b); {
		id, size := string(b[p:p+4]), binary.LittleEndian.Uint32(b[p+4:])
		body := b[p+8:]
		switch {
		case id == "fmt " && size >= 16 && len(body) >= 16:
			byteRate = binary.LittleEndian.Uint32(body[8:])
		case id == "data":
			if byteRate == 0 {
				return 0, errors.New("data chunk before a valid fmt chunk")
			}
			return float64(min(uint64(size), uint64(len(body)))) / float64(byteRate), nil
		}
		next := uint64(p) + 8 + uint64(size) + uint64(size&1)
		if next > uint64(len(b)) {
			break
		}
		p = int(next)
	}
	return 0, errors.New("no data chunk")
}
