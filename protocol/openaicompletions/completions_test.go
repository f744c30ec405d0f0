package openaicompletions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jsonref"
	"github.com/mlperf-go/mlperf-go/protocol/internal/prototest"
)

func TestEncode(t *testing.T) {
	body, err := Encode("meta-llama/Llama-3.1-8B-Instruct", []int32{128000, 791, 4062}, referenceParams(), false)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"model":  "meta-llama/Llama-3.1-8B-Instruct",
		"prompt": []any{128000.0, 791.0, 4062.0},
		// SUT_VLLM.py gen_kwargs.
		"temperature": 0.0, "top_p": 1.0, "top_k": 1.0, "seed": 42.0, "max_tokens": 128.0, "min_tokens": 1.0,
		"return_token_ids": true,
	}
	if d := cmp.Diff(want, prototest.DecodeMap(t, body)); d != "" {
		t.Errorf("body (-want +got):\n%s", d)
	}
	body, err = Encode("", []int64{1}, Params{MaxTokens: ptr(5)}, true)
	if err != nil {
		t.Fatal(err)
	}
	// A stream asks for the usage chunk, so the prompt's token count
	// comes back as it does for a whole answer.
	want = map[string]any{"prompt": []any{1.0}, "max_tokens": 5.0, "return_token_ids": true, "stream": true,
		"stream_options": map[string]any{"include_usage": true}}
	if d := cmp.Diff(want, prototest.DecodeMap(t, body)); d != "" {
		t.Errorf("streaming body (-want +got):\n%s", d)
	}
	if _, err := Encode("m", []int{}, Params{}, false); err == nil {
		t.Error("empty prompt accepted")
	}
}

// refCompletion interprets a completions body or chunk; failedFinish
// reports a finish_reason that fails the answer (protocol.FinishFailed).
func refCompletion(b []byte) (_ []byte, _ int, _ bool, err error) {
	failedFinish := false
	defer func() {
		if err == nil && failedFinish {
			err = errFailedFinish
		}
	}()
	v, ok := jsonref.Decode(b)
	if !ok {
		return nil, 0, false, jsonref.Err
	}
	m, err := jsonref.Obj(v)
	if err != nil {
		return nil, 0, false, err
	}
	c0, have, err := jsonref.First(m, true)
	if err != nil || !have {
		return nil, 0, false, err
	}
	finish, err := jsonref.Finish(c0)
	if err != nil {
		return nil, 0, false, err
	}
	if protocol.FinishFailed(finish) {
		// Only parseResponse fails on it; the stream does, not parseChunk.
		failedFinish = true
	}
	ids, has := c0["token_ids"]
	if !has || ids == nil {
		return nil, 0, false, nil
	}
	out, n, err := jsonref.IDs(ids)
	return out, n, err == nil, err
}

// errFailedFinish marks a body with a failed finish_reason, which only
// parseResponse rejects.
var errFailedFinish = errors.New("failed finish_reason")

var completionSeeds = []string{
	`{"choices":[{"token_ids":[1],"finish_reason":"abort"}]}`,
	`{"choices":[{"token_ids":[1],"finish_reason":"error"},{"finish_reason":"abort"}]}`,
	`{"choices":[{"token_ids":[1],"finish_reason":7}]}`,
	`{"id":"cmpl-1","object":"text_completion","choices":[{"index":0,"text":"x","logprobs":null,"finish_reason":"length","token_ids":[791,4062,-1,2147483647],"prompt_token_ids":[128000,1,2]}],"usage":{"completion_tokens":4}}`,
	`{"choices":[{"index":0,"text":"t","token_ids":[12]}],"usage":null}`,
	`{"choices":[{"token_ids":null}]}`,
	`{"choices":[{"token_ids":[2147483648]}]}`,
	`{"choices":[],"usage":{"completion_tokens":3}}`,
	`{"choices":[{"token_ids":[1.5]}]}`,
}

func FuzzParseCompletion(f *testing.F) {
	for _, s := range completionSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want, wn, whave, werr := refCompletion(b)
		chunkErr := werr
		if errors.Is(werr, errFailedFinish) {
			chunkErr, werr = nil, jsonref.Err
		}
		got, c, err := parseChunk(nil, b)
		if jsonref.CheckErr(t, b, err, chunkErr) && (!bytes.Equal(got, want) || c.n != wn || c.have != whave) {
			t.Fatalf("chunk %q: got (%x, %d, %v), want (%x, %d, %v)", b, got, c.n, c.have, want, wn, whave)
		}
		got, n64, err := parseResponse(nil, b)
		if werr == nil && !whave {
			werr = jsonref.Err
		}
		if jsonref.CheckErr(t, b, err, werr) && (!bytes.Equal(got, want) || n64 != int64(wn)) {
			t.Fatalf("body %q: got (%x, %d), want (%x, %d)", b, got, n64, want, wn)
		}
	})
}

// TestParseErrors pins the message users see when the server lacks
// return_token_ids.
func TestParseErrors(t *testing.T) {
	_, _, err := Protocol.DecodeResponse(nil, []byte(`{"choices":[{"text":"x"}]}`))
	if err == nil || !strings.Contains(err.Error(), "return_token_ids") {
		t.Errorf("completions without return_token_ids: error %v", err)
	}
}

// TestStream: every chunk's token_ids are appended; the first chunk with
// any is the first-token event, reporting all of them; the usage chunk
// adds nothing; Reset starts over.
func TestStream(t *testing.T) {
	st := Protocol.NewStream()
	for range 2 {
		out, evs := prototest.Feed(t, st, []string{
			`{"choices":[{"index":0,"text":"","token_ids":[]}]}`,
			`{"choices":[{"index":0,"text":"ab","token_ids":[7,-1]}]}`,
			`{"choices":[{"index":0,"text":"c","token_ids":[2147483647]}]}`,
			`{"choices":[],"usage":{"completion_tokens":3}}`,
		})
		var firsts [][]byte
		for _, ev := range evs {
			if ev.First {
				firsts = append(firsts, ev.FirstData)
				if ev.FirstTokens != 2 || ev.Done {
					t.Errorf("first event %+v", ev)
				}
			}
		}
		if d := cmp.Diff(prototest.LE32[int32](7, -1, 2147483647), out); d != "" || st.Tokens() != 3 {
			t.Errorf("tokens %d; output (-want +got):\n%s", st.Tokens(), d)
		}
		if len(firsts) != 1 || !bytes.Equal(firsts[0], prototest.LE32[int32](7, -1)) {
			t.Errorf("first tokens %x", firsts)
		}
	}
}

// benchCompletionResponse is a vLLM completions response with 128
// generated IDs and the echoed 1,000-token prompt (return_token_ids).
func benchCompletionResponse() []byte {
	out, _ := json.Marshal(prototest.BenchIDs(128))
	prompt, _ := json.Marshal(prototest.BenchIDs(1000))
	return []byte(fmt.Sprintf(`{"id":"cmpl-1","object":"text_completion","created":1,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,"text":"%s","logprobs":null,"finish_reason":"length","stop_reason":null,"token_ids":%s,"prompt_logprobs":null,"prompt_token_ids":%s}],"usage":{"prompt_tokens":1000,"total_tokens":1128,"completion_tokens":128}}`,
		strings.Repeat("word ", 100), out, prompt))
}

func BenchmarkParseCompletion(b *testing.B) {
	prototest.BenchDecode(b, benchCompletionResponse(), parseResponse)
}

func BenchmarkParseCompletionEncodingJSON(b *testing.B) {
	body := benchCompletionResponse()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var r struct {
			Choices []struct {
				TokenIDs []int32 `json:"token_ids"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			b.Fatal(err)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// referenceParams are the llama3.1-8b reference's gen_kwargs
// (language/llama3.1-8b/SUT_VLLM.py), which that benchmark registers as its
// default sampling: greedy (temperature 0, top_p 1, top_k 1), seed 42,
// max_tokens 128, min_tokens 1.
func referenceParams() Params {
	return Params{Temperature: ptr(0.0), TopP: ptr(1.0), TopK: ptr(1), Seed: ptr(int64(42)), MaxTokens: ptr(128), MinTokens: ptr(1)}
}
