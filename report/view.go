package report

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"

	"github.com/mlperf-go/mlperf-go/engine/metrics"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/results"
)

// Chart colours (colour-blind safe: Okabe–Ito).
const (
	blue   = "#0072B2"
	orange = "#E69F00"
	green  = "#009E73"
	red    = "#D55E00"
	purple = "#CC79A7"
)

type card struct{ Label, Value, Unit, Note string }

type namedChart struct {
	Title, Note string
	Chart       template.HTML
	Rows        [][2]string
}

type view struct {
	Title, Subtitle       string
	Status, StatusClass   string
	Cards                 []card
	Reasons, Warnings     []string
	HasTimeline           bool
	Throughput, InFlight  template.HTML
	Latencies             []namedChart
	HarnessLatency        template.HTML // latency.go
	FailureClasses        [][2]string
	FirstFailures         []record.SampleFailure
	MoreFailures          int64 // total failures when FirstFailures shows fewer
	Samples               *record.SampleCounts
	Engines               []metrics.Summary
	EngineCharts          []namedChart
	Messages              []results.Message
	Settings, Facts       [][2]string
	Sources               []string
	Schema, GeneratedFrom string
}

// statusClass maps an outcome status to its CSS class.
var statusClass = map[string]string{
	results.StatusValid:      "ok",
	results.StatusAccuracy:   "info",
	results.StatusInvalid:    "bad",
	results.StatusFailed:     "bad",
	results.StatusAborted:    "bad",
	results.StatusIncomplete: "bad",
}

func newView(run *Run) view {
	r := run.Results
	v := view{
		Title:         strings.Join(nonEmpty(r.Run.Benchmark, r.Run.ScenarioName, r.Run.Mode), " · "),
		Subtitle:      strings.Join(nonEmpty(r.Run.Kind, r.Run.TestDatetime, r.Model), " · "),
		Status:        strings.ToUpper(r.Outcome.Status),
		StatusClass:   statusClass[r.Outcome.Status],
		Reasons:       r.Outcome.Reasons,
		Warnings:      r.Outcome.Warnings,
		Samples:       r.Samples,
		Engines:       r.Engine.Metrics,
		Messages:      r.Outcome.Messages,
		Sources:       r.Sources,
		Schema:        r.Schema,
		GeneratedFrom: run.Dir,
	}
	v.HarnessLatency = harnessLatencyHTML(r)
	m := r.Metrics
	if h := m.Headline; h != nil {
		val, unit := figureParts(h.Value, h.Unit)
		v.Cards = append(v.Cards, card{strings.ToUpper(h.Name[:1]) + h.Name[1:], val, unit, "official metric · " + h.Key})
	}
	if f := m.SamplesPerSecond; f != nil && (m.Headline == nil || f.Key != m.Headline.Key) {
		val, unit := figureParts(f.Value, f.Unit)
		v.Cards = append(v.Cards, card{"Samples per second", val, unit, f.Key})
	}
	if f := m.TokensPerSecond; f != nil {
		val, unit := figureParts(f.Value, f.Unit)
		v.Cards = append(v.Cards, card{"Tokens per second", val, unit, f.Key})
	}
	for _, d := range []struct {
		label string
		dist  *results.Distribution
	}{{"p99 latency", m.Latency}, {"p99 TTFT", m.TTFT}, {"p99 TPOT", m.TPOT}} {
		if d.dist != nil {
			if p, ok := d.dist.Percentiles["99.00"]; ok {
				v.Cards = append(v.Cards, card{d.label, strings.TrimSuffix(ms(p), " ms"), "ms", ""})
			}
		}
	}
	if s := r.Samples; s != nil {
		v.Cards = append(v.Cards, card{"Failed samples", fmt.Sprintf("%d", s.Failed), "", fmt.Sprintf("of %d completed", s.Completed)})
	}
	if r.Run.DurationSeconds > 0 {
		v.Cards = append(v.Cards, card{"Test duration", fmt.Sprintf("%.1f", r.Run.DurationSeconds), "s", ""})
	}

	if len(run.Timeline) > 1 {
		v.HasTimeline = true
		var done, failed, inFlight, queued []Point
		for i, p := range run.Timeline {
			inFlight = append(inFlight, Point{p.Elapsed, float64(p.InFlight)})
			queued = append(queued, Point{p.Elapsed, float64(p.Queued)})
			if i == 0 {
				continue
			}
			q := run.Timeline[i-1]
			dt := p.Elapsed - q.Elapsed
			// The last point comes when the test ends, often a moment
			// after the last tick: a rate over a sliver of a second is
			// noise, not throughput.
			if dt < 0.25 {
				continue
			}
			done = append(done, Point{p.Elapsed, float64(p.Completed-q.Completed) / dt})
			failed = append(failed, Point{p.Elapsed, float64(p.Failed-q.Failed) / dt})
		}
		v.Throughput = lineChart("throughput", "seconds since start", "samples/s", []Series{
			{Name: "completed /s", Color: blue, Points: done},
			{Name: "failed /s", Color: red, Points: failed},
		})
		v.InFlight = lineChart("in-flight", "seconds since start", "requests", []Series{
			{Name: "in flight", Color: green, Points: inFlight},
			{Name: "queued in harness", Color: orange, Points: queued},
		})
	}

	for _, d := range []struct {
		title, name string
		dist        *results.Distribution
		color       string
	}{
		{"Sample latency", "latency", m.Latency, blue},
		{"Query latency", "query-latency", m.QueryLatency, blue},
		{"Time to first token (TTFT)", "ttft", m.TTFT, green},
		{"Time per output token (TPOT)", "tpot", m.TPOT, purple},
	} {
		if d.dist == nil {
			continue
		}
		var bars []Bar
		for _, p := range sortedPercentiles(d.dist.Percentiles) {
			bars = append(bars, Bar{"p" + trimZeros(p), d.dist.Percentiles[p] / 1e6})
		}
		var rows [][2]string
		for _, x := range []struct {
			k string
			v *float64
		}{{"min", d.dist.Min}, {"mean", d.dist.Mean}, {"max", d.dist.Max}} {
			if x.v != nil {
				rows = append(rows, [2]string{x.k, ms(*x.v)})
			}
		}
		v.Latencies = append(v.Latencies, namedChart{Title: d.title, Chart: barChart(d.name, "ms", bars, d.color), Rows: rows})
	}

	if s := r.Samples; s != nil {
		for c, n := range s.FailuresByReason {
			v.FailureClasses = append(v.FailureClasses, [2]string{c, fmt.Sprint(n)})
		}
		sort.Slice(v.FailureClasses, func(i, j int) bool { return v.FailureClasses[i][0] < v.FailureClasses[j][0] })
		// Ten show what went wrong; the run's log has every one.
		v.FirstFailures = s.FirstFailures[:min(len(s.FirstFailures), 10)]
		if int64(len(v.FirstFailures)) < s.Failed {
			v.MoreFailures = s.Failed
		}
	}

	v.EngineCharts = engineCharts(run)

	keys := make([]string, 0, len(r.Settings))
	for k := range r.Settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		b, _ := json.Marshal(r.Settings[k])
		v.Settings = append(v.Settings, [2]string{k, strings.Trim(string(b), `"`)})
	}
	add := func(k, val string) {
		if val != "" {
			v.Facts = append(v.Facts, [2]string{k, val})
		}
	}
	add("Harness", r.Versions.Harness)
	add("LoadGen", r.Versions.LoadGen)
	add("LoadGen (detail log)", r.Versions.LoadGenDetail)
	add("Round", r.Versions.Round)
	add("Endpoints", strings.Join(r.Endpoints, ", "))
	add("API", r.API)
	add("Model", r.Model)
	add("Engine (declared)", r.Engine.Declared)
	add("Engine flags", strings.Join(r.Engine.Flags, " "))
	add("Command", strings.Join(r.Run.Command, " "))
	add("Output directory", run.Dir)
	return v
}

// engineCharts draws KV-cache use and running/waiting requests over time,
// per endpoint that exposed them.
func engineCharts(run *Run) []namedChart {
	if len(run.Engine) == 0 {
		return nil
	}
	t0 := run.Engine[0].UnixMs
	if len(run.Timeline) > 0 {
		t0 = run.Timeline[0].UnixMs
	}
	var order []string
	byEP := map[string][]metrics.Scrape{}
	for _, s := range run.Engine {
		if s.Status != metrics.StatusOK {
			continue
		}
		if _, ok := byEP[s.Endpoint]; !ok {
			order = append(order, s.Endpoint)
		}
		byEP[s.Endpoint] = append(byEP[s.Endpoint], s)
	}
	var out []namedChart
	for _, ep := range order {
		series := func(q metrics.Quantity, scale float64) []Point {
			var pts []Point
			for _, s := range byEP[ep] {
				if v, ok := s.Value(q); ok {
					pts = append(pts, Point{float64(s.UnixMs-t0) / 1000, v * scale})
				}
			}
			return pts
		}
		if kv := series(metrics.KVCacheUsage, 100); len(kv) > 0 {
			out = append(out, namedChart{Title: "KV-cache use · " + ep, Chart: lineChart("engine-kv-cache", "seconds since start", "% of KV cache", []Series{{Name: "KV cache used %", Color: purple, Points: kv}})})
		}
		run, wait := series(metrics.Running, 1), series(metrics.Waiting, 1)
		if len(run)+len(wait) > 0 {
			out = append(out, namedChart{Title: "Engine requests · " + ep, Chart: lineChart("engine-requests", "seconds since start", "requests", []Series{
				{Name: "running", Color: green, Points: run}, {Name: "waiting", Color: orange, Points: wait},
			})})
		}
	}
	return out
}

func renderHTML(w io.Writer, run *Run) error {
	return pageTemplate.Execute(w, newView(run))
}

// figure formats a LoadGen figure with its unit.
func figure(v float64, unit string) string {
	if unit == "ns" {
		return ms(v)
	}
	return fmt.Sprintf("%s %s", group(v), unit)
}

// figureParts is figure's number and unit apart.
func figureParts(v float64, unit string) (string, string) {
	if unit == "ns" {
		return strings.TrimSuffix(ms(v), " ms"), "ms"
	}
	return group(v), unit
}

// ms formats nanoseconds as milliseconds.
func ms(ns float64) string {
	switch a := ns / 1e6; {
	case a >= 100 || a <= -100:
		return fmt.Sprintf("%.0f ms", a)
	case a >= 1 || a <= -1:
		return fmt.Sprintf("%.2f ms", a)
	default:
		return fmt.Sprintf("%.3f ms", a)
	}
}

// group formats v with two decimals and thousands separators.
func group(v float64) string {
	s := fmt.Sprintf("%.2f", v)
	intPart, frac, _ := strings.Cut(s, ".")
	neg := strings.HasPrefix(intPart, "-")
	intPart = strings.TrimPrefix(intPart, "-")
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	out := b.String() + "." + frac
	if neg {
		out = "-" + out
	}
	return out
}

func sortedPercentiles(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		var a, b float64
		fmt.Sscan(keys[i], &a)
		fmt.Sscan(keys[j], &b)
		return a < b
	})
	return keys
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

func pct(p *float64) string {
	if p == nil {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", *p*100)
}

func num(p *float64) string {
	if p == nil {
		return "–"
	}
	return fmtTick(*p)
}

var funcs = template.FuncMap{"pct": pct, "num": num}
