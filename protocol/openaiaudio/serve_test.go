package openaiaudio

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/protocol"
)

// words is a test protocol.Output: one token per word (with its leading
// space).
type words []string

func (w words) AppendText(dst []byte, from, to int) []byte {
	s := strconv.Quote(strings.Join(w[from:to], ""))
	return append(dst, s[1:len(s)-1]...)
}

func (w words) AppendIDs(dst []byte, _, _ int) []byte { return append(dst, "null"...) }

type ids struct{}

func (ids) AppendID(dst []byte) []byte { return append(dst, "0123456789abcdef0123456789abcdef"...) }

func reply(w words) *protocol.Reply {
	return &protocol.Reply{Model: "openai/whisper-large-v3", Outputs: []protocol.Output{w}, Tokens: len(w),
		Finish: protocol.FinishStop, Started: time.Unix(1700000000, 0), IDs: ids{}}
}

// TestServeRoundTrip: the server side reads what Encode writes (the audio's
// key as the message, the cap, the stream flags, the duration), and what
// it answers, streamed or whole, the client side decodes.
func TestServeRoundTrip(t *testing.T) {
	t.Parallel()
	audio := testWAV(40000, "xy") // 2.5 s
	body, err := Encode("openai/whisper-large-v3", "s.wav", audio, &Params{Language: ptr("en"), MaxCompletionTokens: ptr(200)})
	if err != nil {
		t.Fatal(err)
	}
	req, err := Protocol.(protocol.Serving).ParseRequest(body)
	if err != nil {
		t.Fatal(err)
	}
	ask := req.Ask()
	if ask.Model != "openai/whisper-large-v3" || !ask.Stream || ask.MaxTokens != 200 ||
		len(ask.Messages) != 1 || ask.Messages[0].Text != AudioKey(audio) {
		t.Fatalf("Ask = %+v", ask)
	}
	w := words{" He", " hoped", " there", " would", " be", " stew."}
	rep := reply(w)
	var stream []byte
	stream = req.AppendEvents(stream, rep, 0, 2, false)
	stream = req.AppendEvents(stream, rep, 2, 6, true)
	stream = append(req.AppendTail(stream, rep), "data: [DONE]\n\n"...)
	out, n, err := Protocol.DecodeResponse(nil, stream)
	if text, _ := LabelText(out); err != nil || n != 6 || text != "he hoped there would be stew" {
		t.Fatalf("streamed answer %q, %d tokens, %v:\n%s", text, n, err, stream)
	}
	if r := req.(*request); r.seconds != 3 {
		t.Errorf("usage seconds = %d, want 3 (2.5 s rounded up)", r.seconds)
	}
	whole := req.AppendBody(nil, rep)
	if want := `{"text":" He hoped there would be stew.","usage":{"type":"duration","seconds":3}}`; string(whole) != want {
		t.Errorf("AppendBody = %s, want %s", whole, want)
	}
}

// TestParseRequestRejects: what vLLM answers 400 to.
func TestParseRequestRejects(t *testing.T) {
	t.Parallel()
	audio := testWAV(1600, "ab")
	good, _ := Encode("m", "a.wav", audio, nil)
	for name, body := range map[string]string{
		"not multipart":  `{"file": "x"}`,
		"no file":        strings.Replace(string(good), `name="file"`, `name="files"`, 1),
		"not audio":      strings.Replace(string(good), "RIFF", "JUNK", 1),
		"bad format":     strings.Replace(string(good), "\r\n\r\njson\r\n", "\r\n\r\nsrt\r\n", 1),
		"usage no strm":  strings.Replace(string(good), "name=\"stream\"\r\n\r\ntrue", "name=\"stream\"\r\n\r\nfalse", 1),
		"bad max tokens": strings.Replace(string(good), "name=\"stream\"\r\n", "name=\"max_completion_tokens\"\r\n\r\n0\r\n--"+string(good[2:strings.Index(string(good), "\r\n")])+"\r\nContent-Disposition: form-data; name=\"stream\"\r\n", 1),
	} {
		if _, err := Protocol.(protocol.Serving).ParseRequest([]byte(body)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := Protocol.(protocol.Serving).ParseRequest(good); err != nil {
		t.Errorf("the good body: %v", err)
	}
}

func FuzzDecodeResponse(f *testing.F) {
	f.Add([]byte(vllmStream))
	f.Add([]byte(`{"text":" Hi!","usage":{"completion_tokens":3}}`))
	f.Add([]byte("data: {\"choices\":[],\"usage\":{\"completion_tokens\":1}}\n\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		out, n, err := Protocol.DecodeResponse(nil, body)
		if err != nil {
			return
		}
		if _, lerr := LabelText(out); lerr != nil || n < 0 {
			t.Fatalf("decoded %q into invalid labels: %v", body, lerr)
		}
	})
}

func FuzzParseRequest(f *testing.F) {
	good, _ := Encode("m", "a.wav", testWAV(160, "ab"), &Params{MaxCompletionTokens: ptr(3)})
	f.Add(good)
	f.Add([]byte("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\"\r\n\r\nRIFF\r\n--b--\r\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := Protocol.(protocol.Serving).ParseRequest(body)
		if err != nil {
			return
		}
		if a := req.Ask(); len(a.Messages) != 1 || !strings.HasPrefix(a.Messages[0].Text, "audio sha256:") {
			t.Fatalf("accepted %q with Ask %+v", body, a)
		}
	})
}

func BenchmarkDecodeResponse(b *testing.B) {
	body := []byte(vllmStream)
	for b.Loop() {
		if _, _, err := Protocol.DecodeResponse(nil, body); err != nil {
			b.Fatal(err)
		}
	}
}
