package answer

import (
	"bufio"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

// goldenCase is one line of testdata/golden.jsonl: a reference function's
// name, its input and what it returned (null for None).
type goldenCase struct {
	Fn  string          `json:"fn"`
	In  string          `json:"in"`
	Out json.RawMessage `json:"out"`
}

func readGolden(t *testing.T) []goldenCase {
	t.Helper()
	f, err := os.Open("testdata/golden.jsonl")
	if err != nil {
		t.Fatalf("open golden file (regenerate with testdata/gen_golden.py): %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	var cases []goldenCase
	for first := true; sc.Scan(); first = false {
		if first {
			continue // header: source commit and Python version
		}
		var c goldenCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("golden line %d: %v", len(cases)+2, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 1000 {
		t.Fatalf("only %d golden cases", len(cases))
	}
	return cases
}

// strOut renders a Go (value, found) pair as the reference's JSON output.
func strOut(s string, ok bool) string {
	if !ok {
		return "null"
	}
	b, _ := json.Marshal(s)
	return string(b)
}

func intOut(v int, ok bool) string {
	if !ok {
		return "null"
	}
	return strconv.Itoa(v)
}

// run evaluates the Go port of a golden case's function.
func (c goldenCase) run(t *testing.T) string {
	parts := strings.Split(c.Fn, "/")
	switch parts[0] {
	case "choice":
		v := GPTOSS
		if parts[1] == "deepseek" {
			v = DeepSeekR1
		}
		return strOut(ParseChoice(c.In, parts[2][0], v))
	case "boxed":
		return strOut(ParseBoxed(c.In))
	case "aime":
		return intOut(ParseAIME(c.In, DefaultIntMaxStrDigits))
	case "code":
		v := GPTOSS
		if parts[1] == "deepseek" {
			v = DeepSeekR1
		}
		return strOut(ParseCode(c.In, v))
	case "final":
		return strOut(ExtractFinalSection(c.In), true)
	case "bold":
		return strOut(StripMarkdownBold(c.In), true)
	case "evalchoice":
		p, g, _ := strings.Cut(c.In, "\x00")
		return strconv.FormatBool(EvaluateChoice(p, g, parts[1]))
	case "evalaime":
		p, g, _ := strings.Cut(c.In, "\x00")
		n, _ := strconv.Atoi(p)
		return strconv.FormatBool(EvaluateAIME(n, g))
	}
	t.Fatalf("unknown golden function %q", c.Fn)
	return ""
}

// TestGolden compares every parser and grader with the reference's own
// results over crafted and random outputs (testdata/gen_golden.py).
func TestGolden(t *testing.T) {
	t.Parallel()
	bad := 0
	for i, c := range readGolden(t) {
		var want any
		if err := json.Unmarshal(c.Out, &want); err != nil {
			t.Fatal(err)
		}
		wantJSON, _ := json.Marshal(want)
		if got := c.run(t); got != string(wantJSON) {
			bad++
			if bad <= 20 {
				t.Errorf("case %d %s(%q) = %s, reference %s", i, c.Fn, c.In, got, wantJSON)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d golden cases differ", bad)
	}
}

// TestPyCharTables checks the Python character classes the scanners use
// against the tables Python itself produced, over the code points Python's
// Unicode version assigns (newer assignments follow Go's tables).
func TestPyCharTables(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/pychars.json")
	if err != nil {
		t.Fatal(err)
	}
	var tab struct {
		Word, Assigned [][2]rune
		Space          []rune
	}
	if err := json.Unmarshal(raw, &tab); err != nil {
		t.Fatal(err)
	}
	in := func(rs [][2]rune, r rune) bool {
		for _, x := range rs {
			if r >= x[0] && r <= x[1] {
				return true
			}
		}
		return false
	}
	space := map[rune]bool{}
	for _, r := range tab.Space {
		space[r] = true
	}
	for _, rg := range tab.Assigned {
		for r := rg[0]; r <= rg[1]; r++ {
			if unicode.Is(unicode.Cn, r) || !(unicode.IsPrint(r) || unicode.IsControl(r) || unicode.IsGraphic(r) || unicode.In(r, unicode.Co, unicode.Cs, unicode.Cf)) {
				continue
			}
			if got, want := pystr.IsWord(r), in(tab.Word, r); got != want {
				t.Errorf("pystr.IsWord(%U) = %v, Python %v", r, got, want)
			}
			if got := pystr.IsSpace(r); got != space[r] {
				t.Errorf("pystr.IsSpace(%U) = %v, Python %v", r, got, space[r])
			}
		}
	}
}
