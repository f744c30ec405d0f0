package report

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"

	"github.com/mlperf-go/mlperf-go/engine/metrics"
	"github.com/mlperf-go/mlperf-go/internal/timeline"
	"github.com/mlperf-go/mlperf-go/loadgen"
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
	Accuracy              *record.Accuracy
	PairedAccuracy        *record.PairedAccuracy
	Sources               []string
	Schema, GeneratedFrom string
}

// statusLabel is a run's status as a badge shows it: a --quick run's is
// marked, since its figures do not describe the system.
func statusLabel(r *results.Results) string {
	s := strings.ToUpper(r.Outcome.Status)
	if r.Run.Quick {
		s += " (quick)"
	}
	return s
}

// statusClass maps an outcome status to its CSS class.
var statusClass = map[string]string{
	results.StatusValid:      "ok",
	results.StatusAccuracy:   "info",
	results.StatusInvalid:    "bad",
	results.StatusFailed:     "bad",
	results.StatusAborted:    "bad",
	results.StatusIncomplete: "bad",
	results.StatusPass:       "ok",
	results.StatusFail:       "bad",
	results.StatusUnverified: "bad",
}

// newView lays a run out for the report: the headline cards, the charts
// over time, the latency charts, the failures, the engine charts, the
// settings and the facts of the run.
func newView(run *Run) view {
	r := run.Results
	v := view{
		Title:         strings.Join(nonEmpty(r.Run.Benchmark, r.Run.ScenarioName, r.Run.Mode), " · "),
		Subtitle:      strings.Join(nonEmpty(r.Run.Kind, r.Run.TestDatetime, r.Model), " · "),
		Status:        statusLabel(r),
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
	v.Cards = cards(r)
	if len(run.Timeline) > 1 {
		v.HasTimeline = true
		v.Throughput, v.InFlight = timelineCharts(run.Timeline)
	}
	v.Latencies = latencyCharts(r.Metrics, latencySettings(r))
	v.Accuracy, v.PairedAccuracy = r.Accuracy, r.PairedAccuracy
	if s := r.Samples; s != nil {
		v.FailureClasses, v.FirstFailures, v.MoreFailures = failureSummary(s)
	}
	v.EngineCharts = engineCharts(run)
	v.Settings = settingRows(r.Settings)
	v.Facts = facts(r, run.Dir)
	return v
}

// cards are the headline figures: the official metric, the throughputs,
// the p99 latencies, the failed samples and the test's duration.
func cards(r *results.Results) []card {
	var cs []card
	m := r.Metrics
	if h := m.Headline; h != nil {
		val, unit := figureParts(h.Value, h.Unit)
		cs = append(cs, card{strings.ToUpper(h.Name[:1]) + h.Name[1:], val, unit, "official metric · " + h.Key})
	}
	if f := m.SamplesPerSecond; f != nil && (m.Headline == nil || f.Key != m.Headline.Key) {
		val, unit := figureParts(f.Value, f.Unit)
		cs = append(cs, card{"Samples per second", val, unit, f.Key})
	}
	if f := m.TokensPerSecond; f != nil {
		val, unit := figureParts(f.Value, f.Unit)
		cs = append(cs, card{"Tokens per second", val, unit, f.Key})
	}
	latency := m.Latency
	if r.IssuedAtOnce() {
		// Every sample was issued at the start, so its latency is when
		// its answer came in the run: the p99 is about the run's length
		// (the duration card), not a latency of the system.
		latency = nil
	}
	for _, d := range []struct {
		label string
		dist  *results.Distribution
	}{{"p99 latency", latency}, {"p99 TTFT", m.TTFT}, {"p99 TPOT", m.TPOT}} {
		if d.dist != nil {
			if p, ok := d.dist.Percentiles["99.00"]; ok {
				cs = append(cs, card{d.label, strings.TrimSuffix(ms(p), " ms"), "ms", ""})
			}
		}
	}
	if a := r.Accuracy; a != nil {
		cs = append(cs, card{"Accuracy", a.Verdict(), "", accuracyNote(a)})
	}
	if p := r.PairedAccuracy; p != nil {
		verdict := "FAIL"
		switch {
		case p.Pass:
			verdict = "PASS"
		case p.Partial:
			verdict = "PASS (partial)"
		}
		cs = append(cs, card{"Accuracy run", verdict, "", p.Dir})
	}
	if c := r.Compliance; c != nil {
		cs = append(cs, card{c.Test, c.Verdict(), "", complianceNote(c)})
	}
	if s := r.Samples; s != nil {
		cs = append(cs, card{"Failed samples", fmt.Sprintf("%d", s.Failed), "", fmt.Sprintf("of %d completed", s.Completed)})
	}
	if r.Run.DurationSeconds > 0 {
		cs = append(cs, card{"Test duration", fmt.Sprintf("%.1f", r.Run.DurationSeconds), "s", ""})
	}
	return cs
}

// accuracyNote is an accuracy verdict in one line: the metrics and their
// values, for a card or an index cell.
func accuracyNote(a *record.Accuracy) string {
	var parts []string
	if a.Partial != "" {
		parts = append(parts, "on "+a.Partial)
	}
	for _, m := range a.Metrics {
		parts = append(parts, m.Name+" "+orDashStr(m.Value))
	}
	return strings.Join(parts, " · ")
}

// complianceNote is a compliance verdict's checks in one line ("EOS check
// True · Min check True"), or why it was not verified.
func complianceNote(c *record.Compliance) string {
	if c.Error != "" {
		return c.Error
	}
	var parts []string
	for _, k := range c.Checks {
		parts = append(parts, k.Name+" "+k.Result)
	}
	return strings.Join(parts, " · ")
}

func orDashStr(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// timelineCharts draws the completed and failed samples per second, and
// the requests in flight and queued, over the run (at least two points).
func timelineCharts(tl []timeline.Point) (throughput, inFlightChart template.HTML) {
	var done, failed, inFlight, queued []Point
	for i, p := range tl {
		inFlight = append(inFlight, Point{p.Elapsed, float64(p.InFlight)})
		queued = append(queued, Point{p.Elapsed, float64(p.Queued)})
		if i == 0 {
			continue
		}
		q := tl[i-1]
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
	throughput = lineChart("throughput", "seconds since start", "samples/s", []Series{
		{Name: "completed /s", Color: blue, Points: done},
		{Name: "failed /s", Color: red, Points: failed},
	})
	inFlightChart = lineChart("in-flight", "seconds since start", "requests", []Series{
		{Name: "in flight", Color: green, Points: inFlight},
		{Name: "queued in harness", Color: orange, Points: queued},
	})
	return throughput, inFlightChart
}

// latencyCharts draws each logged latency distribution's percentiles as
// bars, with its min, mean and max beside, and, in Server and
// Interactive, the limit LoadGen judges its p99 against.
func latencyCharts(m results.Metrics, settings map[string]any) []namedChart {
	limit := func(key string) float64 {
		var v float64
		switch x := settings[key].(type) {
		case json.Number:
			v, _ = x.Float64()
		case float64:
			v = x
		}
		return v / 1e6
	}
	var charts []namedChart
	for _, d := range []struct {
		title, name string
		dist        *results.Distribution
		color       string
		limit       float64 // ms; 0: none
	}{
		{"Sample latency", "latency", m.Latency, blue, limit("target_latency_ns")},
		{"Query latency", "query-latency", m.QueryLatency, blue, 0},
		{"Time to first token (TTFT)", "ttft", m.TTFT, green, limit("server_ttft_latency")},
		{"Time per output token (TPOT)", "tpot", m.TPOT, purple, limit("server_tpot_latency")},
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
		chart := barChart(d.name, "ms", bars, d.color)
		if d.limit > 0 {
			chart = barChartLimit(d.name, "ms", bars, d.color, d.limit, "p99 limit "+fmtTick(d.limit)+" ms")
			rows = append(rows, [2]string{"p99 limit", ms(d.limit * 1e6)})
		}
		charts = append(charts, namedChart{Title: d.title, Chart: chart, Rows: rows})
	}
	return charts
}

// latencySettings are the settings whose limits the latency charts draw:
// LoadGen's own, in the Server scenario only (Offline logs a target
// latency of 0, SingleStream and MultiStream judge no p99).
func latencySettings(r *results.Results) map[string]any {
	if r.Run.Scenario != loadgen.Server.String() {
		return nil
	}
	return r.Settings
}

// failureSummary is the failures by class (sorted), the first few failed
// samples, and the total when those are not all of them.
func failureSummary(s *record.SampleCounts) (classes [][2]string, first []record.SampleFailure, more int64) {
	for c, n := range s.FailuresByReason {
		classes = append(classes, [2]string{c, fmt.Sprint(n)})
	}
	sort.Slice(classes, func(i, j int) bool { return classes[i][0] < classes[j][0] })
	// Ten show what went wrong; the run's log has every one.
	first = s.FirstFailures[:min(len(s.FirstFailures), 10)]
	if int64(len(first)) < s.Failed {
		more = s.Failed
	}
	return classes, first, more
}

// settingRows are LoadGen's settings sorted by name, values as JSON
// without a string's quotes.
func settingRows(settings map[string]any) [][2]string {
	keys := make([]string, 0, len(settings))
	for k := range settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var rows [][2]string
	for _, k := range keys {
		b, _ := json.Marshal(settings[k])
		rows = append(rows, [2]string{k, strings.Trim(string(b), `"`)})
	}
	return rows
}

// facts are the run's versions, endpoints, model, engine, command and
// directory, those known.
func facts(r *results.Results, dir string) [][2]string {
	var out [][2]string
	add := func(k, val string) {
		if val != "" {
			out = append(out, [2]string{k, val})
		}
	}
	add("Harness", r.Versions.Harness)
	add("LoadGen", r.Versions.LoadGen)
	add("LoadGen (detail log)", r.Versions.LoadGenDetail)
	add("Round", r.Versions.Round)
	add("Endpoints", strings.Join(r.Endpoints, ", "))
	add("API", r.API)
	add("Model", r.Model)
	add("Engine", strings.Join(r.Engine.Served, ", "))
	add("Engine (declared)", r.Engine.Declared)
	add("Engine flags", strings.Join(r.Engine.Flags, " "))
	add("Command", strings.Join(r.Run.Command, " "))
	add("Output directory", dir)
	return out
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
