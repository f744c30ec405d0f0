// Package openaiaudio is vLLM's OpenAI-compatible transcription protocol
// (POST /v1/audio/transcriptions), as the whisper benchmark uses it: the
// audio file is sent as multipart/form-data with the model, the language
// and the sampling parameters, and the transcript is returned to LoadGen as
// MLPerf's speech-to-text reference SUT reports it (speech2text/
// reference_SUT.py): text.lower().strip() mapped to int64 indices of the
// reference's 42-character alphabet (Labels), with the generated token
// count LoadGen's tokens/s counts.
//
// vLLM's JSON answer carries the text and the audio's duration only; its
// streamed answer ends, when the request sets stream_include_usage, with a
// usage chunk whose completion_tokens is the number of generated tokens
// (vllm/entrypoints/openai/speech_to_text/speech_to_text.py sums
// len(output.token_ids), what the reference's n_tokens is). So every
// request asks for a stream with usage, and the answer is decoded whole
// (DecodeResponse reads a complete event stream) or event by event
// (NewStream). Importing it registers it as "openai-transcriptions"
// (aliases "transcriptions", "audio").
package openaiaudio

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/protocol"
)

// Protocol is the transcription protocol.
var Protocol protocol.Protocol = transcriptions{}

func init() { protocol.Register(Protocol) }

// transcriptions implements protocol.Protocol, protocol.BodyTyper and
// protocol.Serving.
type transcriptions struct{}

var (
	_ protocol.BodyTyper    = transcriptions{}
	_ protocol.AudioEncoder = transcriptions{}
)

func (transcriptions) Name() string      { return "openai-transcriptions" }
func (transcriptions) Aliases() []string { return []string{"transcriptions", "audio"} }
func (transcriptions) Path() string      { return "/v1/audio/transcriptions" }

// DefaultTimeout is 1200 s, as the other protocols': the whisper reference
// runs vLLM in process and has no HTTP client to take a value from.
func (transcriptions) DefaultTimeout() time.Duration { return 1200 * time.Second }

// DefaultParams sends no sampling parameter (the server's defaults
// apply); the benchmark's reference values are its registered sampling.
func (transcriptions) DefaultParams() protocol.Params { return &Params{} }

func (transcriptions) DecodeResponse(out, body []byte) ([]byte, int64, error) {
	return decodeBody(out, body)
}

func (transcriptions) NewStream() protocol.Stream { return &stream{} }

// ContentType returns multipart/form-data with the boundary the body
// begins with ("--" boundary CRLF, as Encode writes it).
func (transcriptions) ContentType(head []byte) string {
	line, _, ok := bytes.Cut(head[:min(len(head), 2+maxBoundary+2)], []byte("\r\n"))
	if !ok || !bytes.HasPrefix(line, []byte("--")) {
		return "multipart/form-data"
	}
	return "multipart/form-data; boundary=" + string(line[2:])
}

// Params are the form fields of a transcription request besides the file
// and the model (vLLM's TranscriptionRequest). nil fields are not sent.
type Params struct {
	// Language is the audio's ISO-639-1 language: "en" makes vLLM's
	// decoder prompt "<|startoftranscript|><|en|><|transcribe|>
	// <|notimestamps|>", the reference's; without it newer vLLM detects
	// the language first.
	Language *string `json:"language,omitempty"`
	// Prompt is text to continue from (vLLM prefixes it with <|prev|>);
	// the reference has none.
	Prompt              *string  `json:"prompt,omitempty"`
	Temperature         *float64 `json:"temperature,omitempty"`
	TopP                *float64 `json:"top_p,omitempty"`
	TopK                *int     `json:"top_k,omitempty"`
	MinP                *float64 `json:"min_p,omitempty"`
	Seed                *int64   `json:"seed,omitempty"`
	RepetitionPenalty   *float64 `json:"repetition_penalty,omitempty"`
	FrequencyPenalty    *float64 `json:"frequency_penalty,omitempty"`
	PresencePenalty     *float64 `json:"presence_penalty,omitempty"`
	MaxCompletionTokens *int     `json:"max_completion_tokens,omitempty"`
}

// MaxTokensKey implements protocol.Params: vLLM caps a transcription at
// max_completion_tokens (and at max_model_len).
func (*Params) MaxTokensKey() string { return "max_completion_tokens" }

// fields are p's set fields as form name and value, in a fixed order.
func (p *Params) fields() [][2]string {
	var f [][2]string
	str := func(k string, v *string) {
		if v != nil {
			f = append(f, [2]string{k, *v})
		}
	}
	num := func(k string, v *float64) {
		if v != nil {
			f = append(f, [2]string{k, strconv.FormatFloat(*v, 'g', -1, 64)})
		}
	}
	integer := func(k string, v *int64) {
		if v != nil {
			f = append(f, [2]string{k, strconv.FormatInt(*v, 10)})
		}
	}
	str("language", p.Language)
	str("prompt", p.Prompt)
	num("temperature", p.Temperature)
	num("top_p", p.TopP)
	integer("top_k", int64p(p.TopK))
	num("min_p", p.MinP)
	integer("seed", p.Seed)
	num("repetition_penalty", p.RepetitionPenalty)
	num("frequency_penalty", p.FrequencyPenalty)
	num("presence_penalty", p.PresencePenalty)
	integer("max_completion_tokens", int64p(p.MaxCompletionTokens))
	return f
}

func int64p(v *int) *int64 {
	if v == nil {
		return nil
	}
	x := int64(*v)
	return &x
}

func (transcriptions) EncodeAudio(model, filename string, audio []byte, params protocol.Params) ([]byte, error) {
	p, err := protocol.ParamsAs[Params](transcriptions{}.Name(), params)
	if err != nil {
		return nil, err
	}
	return Encode(model, filename, audio, p)
}

// maxBoundary is RFC 2046's limit on a boundary's length.
const maxBoundary = 70

// Encode builds a transcription request body: multipart/form-data with the
// audio file (named filename, sent as audio/wav), the model (when set),
// response_format json, stream and stream_include_usage true (the token
// count comes only with them; see the package comment) and p's fields.
// The boundary is derived from the audio's SHA-256 and checked to occur
// nowhere in the parts, so each body carries its own and the same input
// gives the same bytes; ContentType reads it back from the body.
func Encode(model, filename string, audio []byte, p *Params) ([]byte, error) {
	if len(audio) == 0 {
		return nil, fmt.Errorf("transcription request: empty audio file %q", filename)
	}
	fields := [][2]string{{"model", model}, {"response_format", "json"}, {"stream", "true"}, {"stream_include_usage", "true"}}
	if model == "" {
		fields = fields[1:]
	}
	if p != nil {
		fields = append(fields, p.fields()...)
	}
	boundary := chooseBoundary(audio, fields)
	var b bytes.Buffer
	b.Grow(len(audio) + 160*len(fields) + 256)
	for _, f := range fields {
		fmt.Fprintf(&b, "--%s\r\nContent-Disposition: form-data; name=%q\r\n\r\n%s\r\n", boundary, f[0], f[1])
	}
	fmt.Fprintf(&b, "--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"%s\"\r\nContent-Type: audio/wav\r\n\r\n", boundary, safeFilename(filename))
	b.Write(audio)
	fmt.Fprintf(&b, "\r\n--%s--\r\n", boundary)
	return b.Bytes(), nil
}

// chooseBoundary returns "mlperf-go-" and 32 hex digits of the audio's
// SHA-256, or, while a part contains that, of the hash of the previous
// digest.
func chooseBoundary(audio []byte, fields [][2]string) string {
	sum := sha256.Sum256(audio)
	for {
		boundary := "mlperf-go-" + hex.EncodeToString(sum[:16])
		if !containsBoundary(boundary, audio, fields) {
			return boundary
		}
		sum = sha256.Sum256(sum[:])
	}
}

func containsBoundary(boundary string, audio []byte, fields [][2]string) bool {
	if bytes.Contains(audio, []byte(boundary)) {
		return true
	}
	for _, f := range fields {
		if strings.Contains(f[1], boundary) {
			return true
		}
	}
	return false
}

// safeFilename keeps a file name quotable in a Content-Disposition header:
// quotes, backslashes and control characters become "_".
func safeFilename(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '"' || r == '\\' || r < 0x20 || r == 0x7f {
			return '_'
		}
		return r
	}, name)
}

// AudioKey is the text a server side of this protocol (the fake endpoint)
// is asked when it reads a request for audio: the audio file's SHA-256, so
// a benchmark tells the fake each sample's transcript under the key of its
// file's bytes (benchmark.FakeAnswer).
func AudioKey(audio []byte) string {
	sum := sha256.Sum256(audio)
	return "audio sha256:" + hex.EncodeToString(sum[:])
}
