package openaichat

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/openai/openai-go"

	"github.com/mlperf-go/mlperf-go/internal/q3vlvectors"
	"github.com/mlperf-go/mlperf-go/protocol/internal/jsonwire"
)

// chatExtraKeys are the top-level fields openai-go adds in map order.
var chatExtraKeys = []string{"ignore_eos", "min_p", "min_tokens", "repetition_penalty", "response_format", "stream", "top_k"}

type member struct{ key, raw string }

// topMembers splits a compact JSON object into its members, values as
// their exact bytes.
func topMembers(t testing.TB, b []byte) []member {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %q", jsonwire.Clip(string(b), 200))
	}
	var ms []member
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			t.Fatal(err)
		}
		ms = append(ms, member{k.(string), string(raw)})
	}
	return ms
}

// sameAsGeneric checks that the direct encoder's body equals the generic
// (openai-go) one byte for byte once the generic body's extra fields, which
// it emits in random order, are put in sorted order.
func sameAsGeneric(t testing.TB, model string, msgs []openai.ChatCompletionMessageParamUnion, rf json.RawMessage, p Params, stream bool) {
	t.Helper()
	got, gotErr := Encode(model, msgs, rf, p, stream)
	want, wantErr := encodeGeneric(model, msgs, rf, p, stream)
	if (gotErr != nil) != (wantErr != nil) {
		t.Fatalf("error %v, generic encoder's %v", gotErr, wantErr)
	}
	if gotErr != nil {
		return
	}
	if cap(got) != len(got) {
		t.Errorf("body has %d bytes of spare capacity", cap(got)-len(got))
	}
	ms := topMembers(t, want)
	first := len(ms)
	for i, m := range ms {
		if slices.Contains(chatExtraKeys, m.key) {
			first = i
			break
		}
	}
	slices.SortFunc(ms[first:], func(a, b member) int { return strings.Compare(a.key, b.key) })
	var sorted bytes.Buffer
	sorted.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			sorted.WriteByte(',')
		}
		sorted.WriteString(`"` + m.key + `":` + m.raw)
	}
	sorted.WriteByte('}')
	if !bytes.Equal(got, sorted.Bytes()) {
		i := 0
		for i < min(len(got), sorted.Len()) && got[i] == sorted.Bytes()[i] {
			i++
		}
		lo := max(0, i-80)
		t.Fatalf("bodies differ at byte %d:\n direct:  %q\n generic: %q", i, jsonwire.Clip(string(got[lo:]), 200), jsonwire.Clip(string(sorted.Bytes()[lo:]), 200))
	}
}

// TestEncodeChatMatchesGeneric: every shared vector under several
// parameter sets.
func TestEncodeChatMatchesGeneric(t *testing.T) {
	recs := q3vlvectors.Load(t)
	for _, p := range []Params{
		{},
		{Temperature: ptr(0.0)},
		{FrequencyPenalty: ptr(0.1), PresencePenalty: ptr(-0.2), Temperature: ptr(1e-7), TopP: ptr(0.9), TopK: ptr(-1), MinP: ptr(1e-7),
			RepetitionPenalty: ptr(1e21), MaxTokens: ptr(100), MaxCompletionTokens: ptr(200), Seed: ptr(int64(-5))},
		{TopK: ptr(20), MinP: ptr(0.05), RepetitionPenalty: ptr(1.05)},
		{MaxTokens: ptr(120), MinTokens: ptr(120), IgnoreEOS: ptr(true), MinP: ptr(0.1)},
		{MinTokens: ptr(1), IgnoreEOS: ptr(false)},
	} {
		for _, stream := range []bool{false, true} {
			for _, model := range []string{"Qwen/Qwen3-VL-235B-A22B-Instruct", "", "m<&>\u2028"} {
				for _, rec := range recs {
					for _, rf := range []json.RawMessage{nil, rec.ResponseFormat} {
						sameAsGeneric(t, model, q3vlvectors.Messages(t, rec.Messages), rf, p, stream)
					}
				}
			}
		}
	}
}

// randText mixes everything string escaping treats specially.
func randText(r *rand.Rand) string {
	pieces := []string{"a", "Zz 09", "\"", "\\", "/", "<", ">", "&", "\b", "\f", "\n", "\r", "\t", "\x00", "\x1f", "\x7f",
		"é", "日本", "😀", "\u2028", "\u2029", "\xff", "\xe2\x80", "\xed\xa0\x80", "base64+/=", "\u00a0"}
	var sb strings.Builder
	for range r.IntN(12) {
		sb.WriteString(pieces[r.IntN(len(pieces))])
	}
	return sb.String()
}

// randMessages builds messages of every shape the direct encoder handles,
// and some it must hand to openai-go.
func randMessages(r *rand.Rand) []openai.ChatCompletionMessageParamUnion {
	var msgs []openai.ChatCompletionMessageParamUnion
	for range 1 + r.IntN(4) {
		switch r.IntN(9) {
		case 0:
			msgs = append(msgs, openai.SystemMessage(randText(r)))
		case 1:
			msgs = append(msgs, openai.SystemMessage([]openai.ChatCompletionContentPartTextParam{{Text: randText(r)}, {Text: randText(r)}}))
		case 2:
			msgs = append(msgs, openai.UserMessage(randText(r)))
		case 3, 4:
			var parts []openai.ChatCompletionContentPartUnionParam
			for range r.IntN(4) {
				if r.IntN(2) == 0 {
					parts = append(parts, openai.TextContentPart(randText(r)))
				} else {
					parts = append(parts, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: "data:image/png;base64," + randText(r)}))
				}
			}
			if parts == nil {
				parts = []openai.ChatCompletionContentPartUnionParam{}
			}
			msgs = append(msgs, openai.UserMessage(parts))
		case 5: // generic: another role
			msgs = append(msgs, openai.AssistantMessage(randText(r)))
		case 6: // generic: a name
			m := openai.UserMessage(randText(r))
			m.OfUser.Name = openai.String(randText(r))
			msgs = append(msgs, m)
		case 7: // generic: image detail, and a part with extra fields
			img := openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: randText(r), Detail: "low"})
			txt := openai.TextContentPart(randText(r))
			txt.OfText.SetExtraFields(map[string]any{"cache": randText(r)})
			msgs = append(msgs, openai.UserMessage([]openai.ChatCompletionContentPartUnionParam{img, txt}))
		case 8: // hand-built, role left empty
			msgs = append(msgs, openai.ChatCompletionMessageParamUnion{OfSystem: &openai.ChatCompletionSystemMessageParam{
				Content: openai.ChatCompletionSystemMessageParamContentUnion{OfString: openai.String(randText(r))}}})
		}
	}
	return msgs
}

func randFloat(r *rand.Rand) *float64 {
	if r.IntN(3) == 0 {
		return nil
	}
	vals := []float64{0, 1, -1, 0.05, 1.05, 1e-7, 1e-6, 123456.789, 1e20, 1e21, 5e-324, math.MaxFloat64, -2.5e-9}
	return ptr(vals[r.IntN(len(vals))])
}

func TestEncodeChatRandomMatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		p := Params{FrequencyPenalty: randFloat(r), PresencePenalty: randFloat(r), Temperature: randFloat(r), TopP: randFloat(r),
			MinP: randFloat(r), RepetitionPenalty: randFloat(r)}
		if r.IntN(2) == 0 {
			p.TopK, p.MaxTokens, p.Seed = ptr(r.IntN(100)-1), ptr(r.IntN(5000)), ptr(r.Int64())
		}
		if r.IntN(2) == 0 {
			p.MinTokens, p.IgnoreEOS = ptr(r.IntN(300)), ptr(r.IntN(2) == 0)
		}
		var rf json.RawMessage
		if r.IntN(3) == 0 {
			rf = json.RawMessage(`{ "type" : "json_schema", "d": "a<b>&` + "\u2028" + `" }`)
		}
		sameAsGeneric(t, randText(r), randMessages(r), rf, p, r.IntN(2) == 0)
	}
}

func TestEncodeChatErrors(t *testing.T) {
	msgs := []openai.ChatCompletionMessageParamUnion{openai.UserMessage("x")}
	for _, p := range []Params{{Temperature: ptr(math.NaN())}, {MinP: ptr(math.Inf(1))}} {
		if _, err := Encode("m", msgs, nil, p, false); err == nil {
			t.Errorf("%+v encoded", p)
		}
	}
	if _, err := Encode("m", msgs, json.RawMessage(`{`), Params{}, false); err == nil {
		t.Error("invalid response_format encoded")
	}
	for _, msgs := range [][]openai.ChatCompletionMessageParamUnion{nil, {}} {
		sameAsGeneric(t, "m", msgs, nil, Params{}, false)
	}
}

// FuzzEncodeChat: arbitrary text, image URL and numbers encode exactly as
// openai-go does.
func FuzzEncodeChat(f *testing.F) {
	f.Add("system <&>", "user\u2028text", "data:image/jpeg;base64,/9j/4AAQ", 0.5, 1e-9, 3, uint8(0))
	f.Add("\xff\x00", "", "", 1e21, math.Copysign(0, -1), -1, uint8(7))
	f.Fuzz(func(t *testing.T, sys, text, url string, temp, minP float64, topK int, flags uint8) {
		msgs := []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage(sys),
			openai.UserMessage([]openai.ChatCompletionContentPartUnionParam{
				openai.TextContentPart(text),
				openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: url}),
			}),
		}
		p := Params{Temperature: &temp}
		if flags&1 != 0 {
			p.MinP, p.TopK = &minP, &topK
		}
		var rf json.RawMessage
		if flags&2 != 0 {
			rf, _ = json.Marshal(map[string]string{"x": text})
		}
		sameAsGeneric(t, sys, msgs, rf, p, flags&4 != 0)
	})
}

// BenchmarkEncodeChat compares the direct encoder with openai-go's
// marshalling on a real-sized qwen3-vl body.
func BenchmarkEncodeChat(b *testing.B) {
	recs := q3vlvectors.Load(b)
	msgs := q3vlvectors.Messages(b, recs[0].Messages)
	rf := recs[0].ResponseFormat
	// The vectors' images are small; qwen3-vl's average ~60 KB as base64.
	big := make([]byte, 45<<10)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range big {
		big[i] = byte(rng.Uint32())
	}
	bigMsgs := []openai.ChatCompletionMessageParamUnion{msgs[0], openai.UserMessage([]openai.ChatCompletionContentPartUnionParam{
		msgs[1].OfUser.Content.OfArrayOfContentParts[0],
		openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(big)}),
	})}
	for _, enc := range []struct {
		name string
		fn   func(string, []openai.ChatCompletionMessageParamUnion, json.RawMessage, Params, bool) ([]byte, error)
		msgs []openai.ChatCompletionMessageParamUnion
	}{
		{"vector/direct", Encode, msgs}, {"vector/openai-go", encodeGeneric, msgs},
		{"60KB/direct", Encode, bigMsgs}, {"60KB/openai-go", encodeGeneric, bigMsgs},
	} {
		msgs := enc.msgs
		b.Run(enc.name, func(b *testing.B) {
			body, _ := enc.fn("Qwen/Qwen3-VL-235B-A22B-Instruct", msgs, rf, Params{Temperature: ptr(0.0)}, false)
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				body, err := enc.fn("Qwen/Qwen3-VL-235B-A22B-Instruct", msgs, rf, Params{Temperature: ptr(0.0)}, false)
				if err != nil {
					b.Fatal(err)
				}
				io.Discard.Write(body)
			}
		})
	}
}

// TestAppendRaw: messages and tools go as given, the parameters as Append
// writes them after its messages; malformed JSON is refused.
func TestAppendRaw(t *testing.T) {
	t.Parallel()
	msgs := []json.RawMessage{
		json.RawMessage(`{"role":"user","content":"hi"}`),
		json.RawMessage(`{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]}`),
		json.RawMessage(`{"role":"tool","tool_call_id":"a","content":"ok"}`),
	}
	p := &Params{MaxCompletionTokens: ptr(128), MinTokens: ptr(128), IgnoreEOS: ptr(true)}
	got, err := AppendRaw(nil, "m", msgs, json.RawMessage(`[{"type":"function"}]`), p, true)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"messages":[` + string(msgs[0]) + `,` + string(msgs[1]) + `,` + string(msgs[2]) + `],"tools":[{"type":"function"}],"model":"m","max_completion_tokens":128,` +
		`"stream_options":{"include_usage":true},"ignore_eos":true,"min_tokens":128,"stream":true}`
	if string(got) != want {
		t.Errorf("body\n %s\nwant\n %s", got, want)
	}
	// The parameters are those Append writes.
	one, _ := Append(nil, "m", []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}, nil, *p, true)
	raw, _ := AppendRaw(nil, "m", []json.RawMessage{json.RawMessage(`{"content":"hi","role":"user"}`)}, nil, p, true)
	if !bytes.Equal(one, raw) {
		t.Errorf("AppendRaw %s, Append %s", raw, one)
	}
	if _, err := AppendRaw(nil, "m", []json.RawMessage{json.RawMessage(`{"role":`)}, nil, p, false); err == nil {
		t.Error("a malformed message was accepted")
	}
	if _, err := AppendRaw(nil, "m", msgs, json.RawMessage(`[`), p, false); err == nil {
		t.Error("malformed tools were accepted")
	}
}
