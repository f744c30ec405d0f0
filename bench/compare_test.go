package bench

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mlperf-go/mlperf-go/fake"
)

// TestCompareConcurrencyAndRateSweeps compares, as `bench compare --html`
// does, an A/B concurrency sweep with an A/B rate sweep (one of whose
// points is capped): each results keeps its own speedup, computed in its
// own rows and saying why where a row is not its own; target pairs that
// ran no point in common get a note instead of a column of blanks; the
// report charts the concurrency runs against concurrency and the rate
// runs against their rate, on charts of their own, a capped rate run on a
// line of its own, so no line lies on another.
func TestCompareConcurrencyAndRateSweeps(t *testing.T) {
	t.Parallel()
	slow := startFake(t, fake.Config{TTFT: 5 * time.Millisecond}, nil)
	fast := startFake(t, fake.Config{}, nil)
	w, err := Synthetic(SyntheticOptions{Requests: 4, InputLen: 8, OutputLen: 2})
	if err != nil {
		t.Fatal(err)
	}
	run := func(loads ...Load) *Results {
		res, _, err := Run(context.Background(), w, Options{Targets: []Target{{Name: "slow", URLs: []string{slow}}, {Name: "fast", URLs: []string{fast}}},
			Stream: true, Loads: loads})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	all := []*Results{run(Load{Concurrency: 1}, Load{Concurrency: 2}), run(Load{Rate: 200}, Load{Rate: 400}, Load{Rate: 400, Concurrency: 1})}
	LabelTargets(all, []string{"conc", "rate"})

	head, rows := Comparison(all)
	col := func(name string) int {
		i := slices.Index(head, name)
		if i < 0 {
			t.Fatalf("no column %q in %q", name, head)
		}
		return i
	}
	own := map[string]int{"c": col("Speedup (fast (conc)/slow (conc))"), "r": col("Speedup (fast (rate)/slow (rate))")}
	for _, cells := range rows {
		mine := "c"
		if strings.Contains(cells[4], "rps") {
			mine = "r"
		}
		for kind, i := range own {
			v, err := strconv.ParseFloat(cells[i], 64)
			switch {
			case kind == mine && (err != nil || v <= 0):
				t.Errorf("row %s: %s is %q, want its results' own speedup", cells[4], head[i], cells[i])
			case kind != mine && cells[i] != "– (not run)":
				t.Errorf("row %s: %s is %q, want it to say the pair did not run the point", cells[4], head[i], cells[i])
			}
		}
	}
	for _, h := range head {
		if strings.HasPrefix(h, "Speedup") && strings.Contains(h, "(rate)") && strings.Contains(h, "(conc)") {
			t.Errorf("column %q compares targets that ran no point in common", h)
		}
	}
	notes := strings.Join(ComparisonNotes(all), "\n")
	if !strings.Contains(notes, "no speedup of slow (rate) over slow (conc): they ran no load point in common (200rps, 400rps, c1-400rps against c1, c2)") {
		t.Errorf("notes do not say why there is no speedup across the sweeps:\n%s", notes)
	}

	html := reportOfAll(t, all)
	chart := func(name string) string {
		c := regexp.MustCompile(`(?s)<svg class="chart" data-chart="` + name + `".*?</svg>`).FindString(html)
		if c == "" {
			t.Fatalf("report.html has no chart %q", name)
		}
		return c
	}
	points := func(svg, series string) []string {
		var xs []string
		for _, m := range regexp.MustCompile(`<title>`+regexp.QuoteMeta(series)+`: [^<]* at ([^<]*)</title>`).FindAllStringSubmatch(svg, -1) {
			xs = append(xs, m[1])
		}
		return xs
	}
	byConc, byRate := chart("throughput-by-concurrency"), chart("throughput-by-rate")
	if strings.Contains(byConc, "(rate)") || strings.Contains(byRate, "(conc)") {
		t.Error("a chart holds runs of the other load kind")
	}
	for series, want := range map[string][]string{"slow (conc)": {"1", "2"}, "fast (conc)": {"1", "2"}} {
		if got := points(byConc, series); !slices.Equal(got, want) {
			t.Errorf("%s against concurrency at %q, want %q", series, got, want)
		}
	}
	for series, want := range map[string][]string{"slow (rate)": {"200", "400"}, "fast (rate)": {"200", "400"}, "slow (rate) c1": {"400"}} {
		if got := points(byRate, series); !slices.Equal(got, want) {
			t.Errorf("%s against rate at %q, want %q", series, got, want)
		}
	}
	if !strings.Contains(html, `<h2 class="axis">Against concurrency</h2>`) || !strings.Contains(html, `<h2 class="axis">Against request rate</h2>`) {
		t.Error("the two sets of charts have no headings")
	}
	if !strings.Contains(html, `<p class="note">no speedup of slow (rate) over slow (conc)`) {
		t.Error("report.html does not carry the comparison's notes")
	}
}

// reportOfAll is the report.html comparing res, as bench compare --html
// writes it.
func reportOfAll(t *testing.T, res []*Results) string {
	t.Helper()
	dir := t.TempDir()
	if err := WriteHTML(dir, res); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	return string(page)
}

// TestPromptTokensNote: a synthetic workload's table says why Prompt
// Tokens (avg), the server's count, is more than --input-len (the chat
// template wraps the text), with the length asked beside it, in the
// printed table and in report.html; results saved and read back keep it.
func TestPromptTokensNote(t *testing.T) {
	t.Parallel()
	url := startFake(t, fake.Config{}, nil)
	w, err := Synthetic(SyntheticOptions{Requests: 2, InputLen: 64, OutputLen: 2})
	if err != nil {
		t.Fatal(err)
	}
	res, recs, err := Run(context.Background(), w, Options{Targets: []Target{{Name: "f", URLs: []string{url}}}, Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Runs[0].MeanPromptTokens <= 64 {
		t.Fatalf("the fake counted %.0f prompt tokens for 64 words in a chat, want more (its template)", res.Runs[0].MeanPromptTokens)
	}
	want := "Note: Prompt Tokens (avg) is the server's count of each whole prompt, not the 64 words of text asked (--input-len): the API wraps the text (a chat template's role markers and system prompt"
	back := saveAndRead(t, res, recs).Res
	for what, r := range map[string]*Results{"run": res, "saved": back} {
		var table strings.Builder
		WriteComparison(&table, []*Results{r})
		if !strings.Contains(table.String(), want) {
			t.Errorf("%s: the table does not say why prompt tokens exceed --input-len:\n%s", what, table.String())
		}
	}
	if html := reportOfAll(t, []*Results{back}); !strings.Contains(html, `<p class="note">Prompt Tokens (avg) is the server&#39;s count`) {
		t.Error("report.html does not say why prompt tokens exceed --input-len")
	}
}
