package openaiaudio

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"
)

// TestLabelsGolden: AppendLabels writes what reference_SUT.py's own loop
// writes for each transcript (testdata/gen_labels.py), and LabelText reads
// it back to the stripped, lowered, filtered text.
func TestLabelsGolden(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/labels.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Labels string
		Cases  []struct{ Text, Hex string }
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if g.Labels != Labels {
		t.Fatalf("Labels = %q, the reference's are %q", Labels, g.Labels)
	}
	if len(g.Cases) < 300 {
		t.Fatalf("only %d cases", len(g.Cases))
	}
	for _, c := range g.Cases {
		got := AppendLabels(nil, c.Text)
		if hex.EncodeToString(got) != c.Hex {
			t.Errorf("AppendLabels(%q) = %x, want %s", c.Text, got, c.Hex)
			continue
		}
		if _, err := LabelText(got); err != nil {
			t.Errorf("LabelText(AppendLabels(%q)): %v", c.Text, err)
		}
	}
}

// TestLabelText: the decoder refuses what the reference's array('q') and
// labels lookup raise on.
func TestLabelText(t *testing.T) {
	t.Parallel()
	if s, err := LabelText(AppendLabels(nil, "Hi $5%!")); err != nil || s != "hi $5%" {
		t.Errorf("LabelText = %q, %v; want \"hi $5%%\"", s, err)
	}
	for _, bad := range [][]byte{{1, 0, 0}, {42, 0, 0, 0, 0, 0, 0, 0}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}} {
		if _, err := LabelText(bad); err == nil {
			t.Errorf("LabelText(%x) succeeded", bad)
		}
	}
	if got := TextLabels("it's 5 o'clock, mr. o'neil!"); got != "it's 5 o'clock mr o'neil" {
		t.Errorf("TextLabels = %q", got)
	}
}

// TestLabelerPieces: a text fed in pieces, split anywhere between
// characters (as stream deltas split it), gives the labels of the whole
// text.
func TestLabelerPieces(t *testing.T) {
	t.Parallel()
	b, _ := os.ReadFile("testdata/labels.json")
	var g struct{ Cases []struct{ Text, Hex string } }
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	for i, c := range g.Cases {
		runes := []rune(c.Text)
		for step := 1; step <= 4; step++ {
			var l labeler
			var out []byte
			for j := 0; j < len(runes); j += step + i%3 {
				out = l.append(out, string(runes[j:min(j+step+i%3, len(runes))]))
			}
			if hex.EncodeToString(out) != c.Hex {
				t.Errorf("%q in pieces of %d: %x, want %s", c.Text, step+i%3, out, c.Hex)
			}
		}
	}
}
