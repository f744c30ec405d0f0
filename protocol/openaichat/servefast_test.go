package openaichat

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mlperf-go/mlperf-go/internal/q3vlvectors"
)

// chatRequestSeeds are bodies of every shape the fast path reads or gives up on.
var chatRequestSeeds = []string{
	`{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":[{"type":"text","text":"a \u0026 b"},{"type":"image_url","image_url":{"url":"data:image/JPEG;base64,/9j/2w=="}},{"text":"c","type":"text"}]}],"max_completion_tokens":5,"temperature":0}`,
	`{"MESSAGES":[{"Role":"user","CONTENT":[{"Type":"text","TEXT":"hi"},{"TYPE":"image_url"}]}],"Max_Completion_Tokens":4,"STREAM":true}`,
	`{"messages":[{"role":"user","content":"a","content":"b"}],"max_tokens":2,"max_tokens":3}`,
	`{"messages":[{"role":"user","content":"a","role":null}],"max_tokens":2,"max_tokens":null,"stream":true,"stream":null}`,
	`{"messag\u0065s":[{"role":"user","content":"\u00e9"}]}`,
	`{"messages":[{"role":"user","content":[{"type":"image"},{"type":"input_image"},{"type":"audio"},null]}]}`,
	`{"messages":[{"role":"user","content":"first"},{"role":"assistant","content":[{"type":"text","text":"no"}]},{"role":"user","content":"second"}],"min_tokens":3,"max_tokens":3,"ignore_eos":true,"stream":true,"stream_options":{"include_usage":true,"continuous_usage_stats":false}}`,
	`{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"a\/b"}},{"type":"image_url","image_url":{"URL":"x"}},{"type":"image_url","image_url":"x"}]}]}`,
	`{"messages":[{"role":"user","content":"x"}],"max_tokens":1.0}`,
	`{"messages":[{"role":"user","content":"x"}],"min_tokens":5,"max_tokens":3}`,
	`{"messages":[null]}`,
	`{"messages":[{"role":"user","content":[{"type":"text","text":5}]}]}`,
	`{"messages":[{"role":"user","content":[{"type":"image_url","text":5}]}],"\u212aey":1,"ſtream":true}`,
	`{"messages":[{"role":"user","content":"x\xff"}],"model":"\ud800"}`,
	`{"messages":[{"role":"user","content":"x"}]} x`,
	`{"model":"m","messages":[{"role":"user","content":"weather?"}],"tools":[{"type":"function","function":{"name":"get","parameters":{}}}],"tool_choice":"auto","stream":true}`,
	`{"messages":[{"role":"user","content":"x"}],"TOOLS":[]}`,
	`[]`, ``, `null`,
}

// askOf is what a parsed request says, for comparing the two paths.
func askOf(r *chatRequest) any {
	return struct {
		Ask               any
		Options           any
		N                 int
		Tools, ToolChoice string
	}{r.ask, r.StreamOptions, len(r.Messages), string(r.Tools), string(r.ToolChoice)}
}

// checkFast: where the fast path reads a body, encoding/json reads it too
// and to the same request.
func checkFast(t *testing.T, body []byte) {
	t.Helper()
	fast, ok := parseChatFast(body)
	std, err := parseChatStd(body)
	if !ok {
		return
	}
	if err != nil {
		t.Fatalf("fast path accepted %q, encoding/json refuses it: %v", body, err)
	}
	if d := cmp.Diff(askOf(std), askOf(fast)); d != "" {
		t.Fatalf("%q read differently (-encoding/json +fast):\n%s", body, d)
	}
}

func TestParseChatFastMatchesStd(t *testing.T) {
	t.Parallel()
	fastOnes := 0
	for _, b := range chatRequestSeeds {
		checkFast(t, []byte(b))
		if _, ok := parseChatFast([]byte(b)); ok {
			fastOnes++
		}
	}
	for _, rec := range q3vlvectors.Load(t) {
		for _, stream := range []bool{false, true} {
			var msgs []json.RawMessage
			if err := json.Unmarshal(rec.Messages, &msgs); err != nil {
				t.Fatal(err)
			}
			body, err := AppendRaw(nil, "m", msgs, nil, &Params{MaxCompletionTokens: ptr(150)}, stream)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := parseChatFast(body); !ok {
				t.Errorf("the fast path gave up on a Qwen3-VL body")
			}
			checkFast(t, body)
		}
	}
	if fastOnes < 4 {
		t.Errorf("the fast path read only %d of the seeds", fastOnes)
	}
}

func FuzzParseChatFast(f *testing.F) {
	for _, b := range chatRequestSeeds {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, body []byte) { checkFast(t, body) })
}
