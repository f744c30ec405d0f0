package openaiaudio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jsonwire"
)

// testWAV is a 16 kHz mono 16-bit WAV of n samples whose PCM bytes spell
// fill, repeated.
func testWAV(n int, fill string) []byte {
	pcm := bytes.Repeat([]byte(fill), 2*n/len(fill)+1)[:2*n]
	var b []byte
	b = append(b, "RIFF"...)
	b = binary.LittleEndian.AppendUint32(b, uint32(36+len(pcm)))
	b = append(b, "WAVEfmt "...)
	b = binary.LittleEndian.AppendUint32(b, 16)
	b = binary.LittleEndian.AppendUint16(b, 1) // PCM
	b = binary.LittleEndian.AppendUint16(b, 1)
	b = binary.LittleEndian.AppendUint32(b, 16000)
	b = binary.LittleEndian.AppendUint32(b, 32000)
	b = binary.LittleEndian.AppendUint16(b, 2)
	b = binary.LittleEndian.AppendUint16(b, 16)
	b = append(b, "data"...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(pcm)))
	return append(b, pcm...)
}

func ptr[T any](v T) *T { return &v }

// TestEncodeMultipart: the body is multipart/form-data that Go's reader
// (as FastAPI's) parses with the boundary ContentType names: the file's
// bytes unchanged, the fields vLLM reads, the same bytes for the same
// input.
func TestEncodeMultipart(t *testing.T) {
	t.Parallel()
	audio := testWAV(16000, "ab\r\n--")
	p := &Params{Language: ptr("en"), Temperature: ptr(0.0), TopP: ptr(1.0), MaxCompletionTokens: ptr(200)}
	body, err := Encode("openai/whisper-large-v3", `a"b.wav`, audio, p)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Encode("openai/whisper-large-v3", `a"b.wav`, audio, p)
	if !bytes.Equal(body, again) {
		t.Fatal("Encode is not deterministic")
	}
	ct := Protocol.(protocol.BodyTyper).ContentType(body)
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		t.Fatalf("ContentType = %q (%v)", ct, err)
	}
	if bytes.Contains(audio, []byte(params["boundary"])) {
		t.Fatal("the boundary occurs in the audio")
	}
	form, err := multipart.NewReader(bytes.NewReader(body), params["boundary"]).ReadForm(1 << 24)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"model": "openai/whisper-large-v3", "language": "en", "temperature": "0", "top_p": "1",
		"max_completion_tokens": "200", "response_format": "json", "stream": "true", "stream_include_usage": "true"}
	for k, v := range want {
		if got := form.Value[k]; len(got) != 1 || got[0] != v {
			t.Errorf("field %s = %q, want %q", k, got, v)
		}
	}
	if len(form.Value) != len(want) {
		t.Errorf("fields %v, want exactly %v", form.Value, want)
	}
	fh := form.File["file"]
	if len(fh) != 1 || fh[0].Filename != "a_b.wav" {
		t.Fatalf("file parts %v", fh)
	}
	f, _ := fh[0].Open()
	got, _ := io.ReadAll(f)
	if !bytes.Equal(got, audio) {
		t.Fatal("the file part differs from the audio")
	}
	if _, err := Encode("m", "x.wav", nil, p); err == nil {
		t.Error("Encode accepted an empty file")
	}
}

// TestBoundaryAvoidsAudio: audio that contains the boundary derived from
// its hash gets another one.
func TestBoundaryAvoidsAudio(t *testing.T) {
	t.Parallel()
	audio := []byte("RIFF....WAVE")
	first := chooseBoundary(audio, nil)
	audio2 := append(append([]byte{}, audio...), first...)
	if b := chooseBoundary(audio2, nil); bytes.Contains(audio2, []byte(b)) {
		t.Fatalf("boundary %q occurs in the audio", b)
	}
}

// vllmStream is a streamed answer as vLLM writes it for stream=true,
// stream_include_usage=true (model_dump_json(exclude_unset=True)).
const vllmStream = `data: {"id":"trsc-1","object":"transcription.chunk","created":1,"model":"openai/whisper-large-v3","choices":[{"delta":{"content":" He hoped"}}]}

data: {"id":"trsc-1","object":"transcription.chunk","created":1,"model":"openai/whisper-large-v3","choices":[{"delta":{"content":" there would be stew."},"finish_reason":"stop","stop_reason":null}]}

data: {"id":"trsc-1","object":"transcription.chunk","created":1,"model":"openai/whisper-large-v3","choices":[],"usage":{"prompt_tokens":1504,"total_tokens":1512,"completion_tokens":8}}

data: [DONE]

`

// TestDecodeStreamBody: a whole event stream decodes to the labels of the
// stripped, lowered text and the usage's completion_tokens.
func TestDecodeStreamBody(t *testing.T) {
	t.Parallel()
	out, n, err := Protocol.DecodeResponse([]byte("x"), []byte(vllmStream))
	if err != nil {
		t.Fatal(err)
	}
	if n != 8 {
		t.Errorf("tokens = %d, want 8", n)
	}
	if text, _ := LabelText(out[1:]); out[0] != 'x' || text != "he hoped there would be stew" {
		t.Errorf("answer %q (prefix %q)", text, out[:1])
	}
}

// TestDecodeFailures: answers LoadGen cannot be given are errors of the
// kind the pool classifies.
func TestDecodeFailures(t *testing.T) {
	t.Parallel()
	noUsage := strings.Replace(vllmStream, `"choices":[],"usage":{"prompt_tokens":1504,"total_tokens":1512,"completion_tokens":8}`, `"choices":[]`, 1)
	cut := vllmStream[:strings.Index(vllmStream, "data: {\"id\":\"trsc-1\",\"object\":\"transcription.chunk\",\"created\":1,\"model\":\"openai/whisper-large-v3\",\"choices\":[{\"delta\":{\"content\":\" there")]
	var field *jsonwire.FieldError
	var srv *protocol.ServerError
	for name, c := range map[string]struct {
		body  string
		check func(error) bool
	}{
		"json without tokens":  {`{"text":" Hi.","usage":{"type":"duration","seconds":3}}`, func(e error) bool { return errors.As(e, &field) }},
		"stream without usage": {noUsage, func(e error) bool { return errors.As(e, &field) }},
		"cut stream":           {cut, func(e error) bool { return errors.Is(e, protocol.ErrTruncated) }},
		"error object":         {`{"error":{"message":"Invalid or unsupported audio file.","type":"BadRequestError","param":null,"code":400}}`, func(e error) bool { return errors.As(e, &srv) }},
		"old error object":     {`{"object":"error","message":"boom","type":"x","code":500}`, func(e error) bool { return errors.As(e, &srv) }},
		"error event":          {"data: {\"error\":{\"message\":\"engine dead\"}}\n\n", func(e error) bool { return errors.As(e, &srv) }},
		"aborted":              {strings.Replace(vllmStream, `"finish_reason":"stop"`, `"finish_reason":"abort"`, 1), func(e error) bool { return errors.As(e, &srv) }},
		"not an answer":        {"hello", func(e error) bool { return e != nil }},
	} {
		if _, _, err := Protocol.DecodeResponse(nil, []byte(c.body)); err == nil || !c.check(err) {
			t.Errorf("%s: err = %v (%T)", name, err, err)
		}
	}
	// A JSON answer that does carry a count is accepted.
	out, n, err := Protocol.DecodeResponse(nil, []byte(`{"text":" Hi!","usage":{"completion_tokens":3}}`))
	if text, _ := LabelText(out); err != nil || n != 3 || text != "hi" {
		t.Errorf("JSON with completion_tokens: %q, %d, %v", text, n, err)
	}
}

// TestStreamEvents: event by event, the first text chunk is the first
// token event and the answer is written at the usage chunk.
func TestStreamEvents(t *testing.T) {
	t.Parallel()
	st := Protocol.NewStream()
	st.Reset()
	var out []byte
	var firsts int
	for _, line := range strings.Split(vllmStream, "\n\n") {
		data := strings.TrimPrefix(strings.TrimSpace(line), "data: ")
		if data == "" || data == "[DONE]" {
			continue
		}
		var ev protocol.Event
		var err error
		if out, ev, err = st.Next(out, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if ev.First {
			firsts++
			if text, _ := LabelText(ev.FirstData); text != "he hoped" || ev.FirstTokens != 1 {
				t.Errorf("first event %q, %d tokens", text, ev.FirstTokens)
			}
		}
	}
	if err := st.End(true); err != nil {
		t.Fatal(err)
	}
	if text, _ := LabelText(out); text != "he hoped there would be stew" || st.Tokens() != 8 || firsts != 1 {
		t.Errorf("answer %q, %d tokens, %d first events", text, st.Tokens(), firsts)
	}
	st.Reset()
	if err := st.End(false); !errors.Is(err, protocol.ErrTruncated) {
		t.Errorf("empty stream End = %v, want truncated", err)
	}
}

func TestProtocolFacts(t *testing.T) {
	t.Parallel()
	p, err := protocol.Lookup("transcriptions")
	if err != nil || p != Protocol || p.Path() != "/v1/audio/transcriptions" || p.DefaultTimeout() != 1200*time.Second {
		t.Fatalf("Lookup: %v, %v", p, err)
	}
	if k := p.DefaultParams().MaxTokensKey(); k != "max_completion_tokens" {
		t.Errorf("MaxTokensKey = %q", k)
	}
	if ct := Protocol.(protocol.BodyTyper).ContentType([]byte("{}")); ct != "multipart/form-data" {
		t.Errorf("ContentType of a non-multipart head = %q", ct)
	}
}
