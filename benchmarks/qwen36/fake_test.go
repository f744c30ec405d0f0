package qwen36

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/jsonenc"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/score/bfcl"
)

// wholeText is a protocol.Output of one piece per 5 bytes of an answer.
type wholeText struct{ pieces []string }

func (o wholeText) AppendText(dst []byte, from, to int) []byte {
	for i := from; i < to; i++ {
		dst = jsonenc.AppendMinimalBody(dst, o.pieces[i])
	}
	return dst
}
func (o wholeText) AppendIDs(dst []byte, _, _ int) []byte { return append(dst, "null"...) }

type ids struct{ n int }

func (s *ids) AppendID(dst []byte) []byte { s.n++; return fmt.Appendf(dst, "%032x", s.n) }

func pieces(s string) []string {
	var out []string
	for len(s) > 0 {
		n := min(5, len(s))
		for n < len(s) && (s[n]&0xc0) == 0x80 {
			n++
		}
		out, s = append(out, s[:n]), s[n:]
	}
	return out
}

// roundTrip sends sample i's request to the fake's server side, has it
// answer with answer (as the fake does), reads the reply with the tools
// client, streamed and not, and returns what LoadGen would log.
func roundTrip(t *testing.T, body []byte, answer string, stream bool) string {
	t.Helper()
	req, err := openaichat.Protocol.(protocol.Serving).ParseRequest(body)
	if err != nil {
		t.Fatalf("the fake refuses the request: %v", err)
	}
	p := pieces(answer)
	rep := &protocol.Reply{Model: "m", Outputs: []protocol.Output{wholeText{p}}, Tokens: len(p), Finish: protocol.FinishStop,
		Started: time.Unix(1, 0), IDs: &ids{}}
	if !stream {
		out, _, err := openaichat.ToolsProtocol.DecodeResponse(nil, req.AppendBody(nil, rep))
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	var ev []byte
	for i := 0; i < rep.Tokens; i++ {
		ev = req.AppendEvents(ev, rep, i, i+1, i+1 == rep.Tokens)
	}
	st := openaichat.ToolsProtocol.NewStream()
	st.Reset()
	var out []byte
	for _, line := range strings.Split(string(ev), "\n\n") {
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			if out, _, err = st.Next(out, []byte(data)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return string(out)
}

// checkFakeAnswers: the fake's right answers score right and its wrong
// ones wrong, through the server side, the tools client (both ways) and
// the scorer; it returns how many right answers scored right.
func checkFakeAnswers(t *testing.T, d *Dataset) (right, total int) {
	t.Helper()
	b, _ := benchmark.Lookup(Name)
	answers := map[string]benchmark.FakeAnswer{}
	for _, a := range d.FakeAnswers() {
		if _, dup := answers[a.Keys[0]]; dup {
			t.Fatalf("two answers keyed %q", a.Keys[0])
		}
		answers[a.Keys[0]] = a
	}
	for stream, bodies := range map[bool]func(int) []byte{false: referenceBodies(t, d, false), true: referenceBodies(t, d, true)} {
		_ = b
		for i := 0; i < d.Len(); i++ {
			row := d.Row(i)
			a, ok := answers[lastUser(row)]
			if !ok {
				t.Fatalf("%s has no fake answer", row.SampleID)
			}
			if a.Keys[0] != lastUser(row) {
				continue
			}
			got, _, err := bfcl.ScoreSample(row.Sample(), roundTrip(t, bodies(i), a.Right, stream))
			if err != nil {
				t.Fatalf("%s: %v", row.SampleID, err)
			}
			total++
			if got == 1 {
				right++
			} else if testing.Verbose() {
				t.Logf("%s: right answer scored wrong: %s", row.SampleID, a.Right)
			}
			for _, w := range a.Wrongs {
				if s, _, err := bfcl.ScoreSample(row.Sample(), roundTrip(t, bodies(i), w, stream)); err != nil || s != 0 {
					t.Errorf("%s: wrong answer %q scored %v (%v)", row.SampleID, w, s, err)
				}
			}
		}
	}
	return right, total
}

// TestFakeAnswersSynth: on a synthetic set every right answer scores
// right and every wrong one wrong.
func TestFakeAnswersSynth(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := Synth(dir, 120, 7); err != nil {
		t.Fatal(err)
	}
	d, err := Open([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if d.Official() {
		t.Error("synthetic data reads as the official files")
	}
	right, total := checkFakeAnswers(t, d)
	if right != total {
		t.Errorf("%d of %d right answers scored right", right, total)
	}
}

// TestFakeAnswersOfficial: on the official set nearly every right answer
// scores right (a few possible answers cannot be met by the first value
// the fake picks) and every wrong one wrong.
func TestFakeAnswersOfficial(t *testing.T) {
	d, err := Open([]string{wheelPath(t)})
	if err != nil {
		t.Fatal(err)
	}
	right, total := checkFakeAnswers(t, d)
	t.Logf("%d of %d right answers scored right", right, total)
	if float64(right) < 0.97*float64(total) {
		t.Errorf("only %d of %d right answers scored right", right, total)
	}
}

var _ = json.Valid
