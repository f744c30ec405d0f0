package bench

import (
	"bytes"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/mlperf-go/mlperf-go/report"
)

// WriteHTML writes report.html into dir: the comparison table and its
// notes, and per target throughput and latency percentiles against the
// load, in the run report's style. Runs swept by concurrency and runs
// started at a rate (or interval) are charted on axes of their own, each
// set of charts under its heading, so compared results of both kinds
// each show where they ran.
func WriteHTML(dir string, res []*Results) error {
	head, rows := Comparison(res)
	names := targetNames(res)
	slo := false
	for _, r := range res {
		slo = slo || r.SLO != nil
	}
	var axes []loadAxis
	for _, a := range loadAxes {
		if a.used(res) {
			axes = append(axes, a)
		}
	}
	var charts []template.HTML
	for _, a := range axes {
		suffix := ""
		if len(axes) > 1 {
			suffix = "-by-" + a.name
			charts = append(charts, template.HTML(`<h2 class="axis">Against `+template.HTMLEscapeString(a.title)+`</h2>`))
		}
		charts = append(charts, axisCharts(res, names, a, slo, suffix)...)
	}
	reasoned, cached, parts := false, false, false
	for _, r := range res {
		for _, run := range r.Runs {
			reasoned = reasoned || run.ReasoningRequests > 0
			cached = cached || run.PrefixCache != nil
			parts = parts || len(run.Hosts) > 0 || len(run.Endpoints) > 0
		}
	}
	var b bytes.Buffer
	err := page.Execute(&b, struct {
		Style    template.CSS
		Title    string
		Head     []string
		Rows     [][]string
		Notes    []string
		SLO      bool
		Charts   []template.HTML
		Res      []*Results
		Reasoned bool
		Cached   bool
		Parts    bool
	}{report.Stylesheet(), "mlperf-go bench: " + strings.Join(names, " vs "), head, rows, ComparisonNotes(res), slo, charts, res, reasoned, cached, parts})
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "report.html"), b.Bytes(), 0o644)
}

// loadAxis is an x axis of the report's charts: the load points it
// holds (on) and where (x); series tells apart a target's runs on it
// that differ otherwise (a rate sweep at two concurrency caps), so no
// line hides another.
type loadAxis struct {
	name, title, label string
	on                 func(Load) bool
	x                  func(Load) float64
	series             func(Load) string
}

// loadAxes are concurrency, for runs without a rate or interval (0: no
// cap, all at once), and the rate at which conversations start
// (1/interval for fixed intervals).
var loadAxes = []loadAxis{
	{name: "concurrency", title: "concurrency", label: "concurrency",
		on: func(l Load) bool { return !l.paced() },
		x:  func(l Load) float64 { return float64(l.Concurrency) }, series: func(Load) string { return "" }},
	{name: "rate", title: "request rate", label: "request rate (req/s)",
		on: Load.paced,
		x: func(l Load) float64 {
			if l.Interval > 0 {
				return 1 / l.Interval.Seconds()
			}
			return l.Rate
		},
		series: func(l Load) string {
			var parts []string
			if l.Concurrency > 0 {
				parts = append(parts, fmt.Sprintf("c%d", l.Concurrency))
			}
			if l.Interval > 0 {
				parts = append(parts, "fixed intervals")
			} else if l.Burstiness != 0 && l.Burstiness != 1 {
				parts = append(parts, fmt.Sprintf("burstiness %g", l.Burstiness))
			}
			return strings.Join(parts, ", ")
		}},
}

// used reports whether any run of res is on a.
func (a loadAxis) used(res []*Results) bool {
	for _, r := range res {
		for _, run := range r.Runs {
			if a.on(run.Load) {
				return true
			}
		}
	}
	return false
}

// axisCharts are the charts of the runs on axis a: throughput, goodput
// (titled with its --slo), output tokens, latency percentiles and, where
// some answer reasoned, TTFAT; suffix tells their names apart from
// another axis's.
func axisCharts(res []*Results, names []string, a loadAxis, slo bool, suffix string) []template.HTML {
	// series is one line per target and a.series key, in the order
	// they first appear, coloured in that order.
	series := func(metric func(RunResult) float64, label string) []report.Series {
		var out []report.Series
		at := map[string]int{}
		for _, n := range names {
			for _, r := range res {
				for _, run := range r.Runs {
					if run.Target != n || !a.on(run.Load) {
						continue
					}
					name := n
					if k := a.series(run.Load); k != "" {
						name += " " + k
					}
					name += label
					i, ok := at[name]
					if !ok {
						i = len(out)
						at[name] = i
						out = append(out, report.Series{Name: name})
					}
					out[i].Points = append(out[i].Points, report.Point{X: a.x(run.Load), Y: metric(run)})
				}
			}
		}
		for i := range out {
			sort.Slice(out[i].Points, func(p, q int) bool { return out[i].Points[p].X < out[i].Points[q].X })
		}
		return out
	}
	// colored gives the lines of a chart colours in order.
	colored := func(s []report.Series) []report.Series {
		for i := range s {
			s[i].Color = report.Palette[i%len(report.Palette)]
		}
		return s
	}
	pct := func(d func(RunResult) Dist, p string) func(RunResult) float64 {
		return func(r RunResult) float64 { return d(r).Percentiles[p] }
	}
	chart := func(name, yLabel string, s []report.Series) template.HTML {
		return report.LineChart(name+suffix, a.label, yLabel, colored(s))
	}
	charts := []template.HTML{chart("throughput", "requests/s", series(func(r RunResult) float64 { return r.RequestThroughput }, ""))}
	if slo {
		// The chart says which objectives, as a goodput means nothing
		// without them; results compared may have had others.
		var objectives []string
		for _, r := range res {
			if r.SLO != nil && a.used([]*Results{r}) && !slices.Contains(objectives, r.SLO.String()) {
				objectives = append(objectives, r.SLO.String())
			}
		}
		title := "Goodput: requests/s meeting every objective of --slo " + objectives[0]
		if len(objectives) > 1 {
			title = "Goodput: requests/s meeting every objective of each run's --slo: " + strings.Join(objectives, "; ")
		}
		caption := template.HTML(`<h3 class="chart-title" data-caption="goodput` + suffix + `">` + template.HTMLEscapeString(title) + `</h3>`)
		charts = append(charts, caption+chart("goodput", "good requests/s", series(func(r RunResult) float64 { return r.RequestGoodput }, "")))
	}
	charts = append(charts, chart("tokens", "output tokens/s", series(func(r RunResult) float64 { return r.OutputThroughput }, "")))
	latencies := []struct {
		name, yLabel string
		d            func(RunResult) Dist
	}{{"TTFT", "TTFT (ms)", func(r RunResult) Dist { return r.TTFT }}, {"TPOT", "TPOT (ms)", func(r RunResult) Dist { return r.TPOT }},
		{"ITL", "ITL (ms)", func(r RunResult) Dist { return r.ITL }}, {"E2E latency", "E2E latency (ms)", func(r RunResult) Dist { return r.E2EL }}}
	reasoned := false
	for _, r := range res {
		for _, run := range r.Runs {
			reasoned = reasoned || (run.ReasoningRequests > 0 && a.on(run.Load))
		}
	}
	if reasoned {
		latencies = append(latencies, struct {
			name, yLabel string
			d            func(RunResult) Dist
		}{"TTFAT", "time to first answer token (ms)", func(r RunResult) Dist {
			if r.TTFAT == nil {
				return Dist{}
			}
			return *r.TTFAT
		}})
	}
	for _, m := range latencies {
		charts = append(charts, chart(m.name, m.yLabel, append(series(pct(m.d, "p50"), " p50"), series(pct(m.d, "p99"), " p99")...)))
	}
	return charts
}

// pageFuncs format the report's figures: pct a fraction (or a pointer to
// one) as a percentage, deref a pointer's value.
var pageFuncs = template.FuncMap{
	"pct": func(v any) string {
		switch x := v.(type) {
		case *float64:
			return fmt.Sprintf("%.1f%%", 100**x)
		case float64:
			return fmt.Sprintf("%.1f%%", 100*x)
		}
		return "–"
	},
	"deref": func(p *float64) float64 { return *p },
	// partsOf are a run's hosts and endpoints, by kind.
	"partsOf": func(r RunResult) map[string][]Part {
		return map[string][]Part{"host": r.Hosts, "endpoint": r.Endpoints}
	},
}

var page = template.Must(template.New("bench").Funcs(pageFuncs).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}}</title><style>{{.Style}}</style><style>.scroll{overflow-x:auto}</style></head>
<body><header><h1>{{.Title}}</h1><div class="sub">serving benchmark: throughput and latency against load, per target</div></header>
<main style="padding:16px 32px">
<section><h2>Comparison</h2><div class="scroll"><table id="comparison"><tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td class="num">{{.}}</td>{{end}}</tr>
{{end}}</table></div>{{range .Notes}}<p class="note">{{.}}</p>{{end}}</section>
{{range .Charts}}<section>{{.}}</section>{{end}}
<section><h2>Runs</h2><div class="scroll"><table id="runs"><tr><th>target</th><th>load</th><th>completed</th><th>failed</th><th>req/s</th>{{if .SLO}}<th>goodput req/s</th>{{end}}<th>out tok/s</th><th>TTFT p99 ms</th><th>TPOT p99 ms</th><th>E2EL p99 ms</th></tr>
{{$slo := .SLO}}{{range .Res}}{{range .Runs}}<tr><td>{{.Target}}</td><td>{{.Label}}</td><td class="num">{{.Completed}}</td><td class="num">{{.Failed}}</td><td class="num">{{printf "%.2f" .RequestThroughput}}</td>{{if $slo}}<td class="num">{{printf "%.2f" .RequestGoodput}}</td>{{end}}<td class="num">{{printf "%.1f" .OutputThroughput}}</td><td class="num">{{printf "%.1f" (index .TTFT.Percentiles "p99")}}</td><td class="num">{{printf "%.2f" (index .TPOT.Percentiles "p99")}}</td><td class="num">{{printf "%.1f" (index .E2EL.Percentiles "p99")}}</td></tr>
{{end}}{{end}}</table></div></section>
{{if .Reasoned}}<section><h2>Reasoning</h2><div class="sub">reasoning tokens counted apart from the answer's; TTFT is the first token of either, TTFAT the first answer token</div><div class="scroll"><table id="reasoning"><tr><th>target</th><th>load</th><th>requests that reasoned</th><th>reasoning tokens</th><th>mean per request</th><th>output tokens</th><th>TTFT p50 ms</th><th>TTFAT p50 ms</th><th>TTFAT p99 ms</th><th>reasoning TPOT p50 ms</th><th>answer TPOT p50 ms</th></tr>
{{range .Res}}{{range .Runs}}{{if .ReasoningRequests}}<tr><td>{{.Target}}</td><td>{{.Label}}</td><td class="num">{{.ReasoningRequests}}{{if .ReasoningUncounted}} ({{.ReasoningUncounted}} not counted){{end}}</td><td class="num">{{.ReasoningTokens}}</td><td class="num">{{printf "%.1f" .MeanReasoningTokens}}</td><td class="num">{{.OutputTokens}}</td><td class="num">{{printf "%.1f" .TTFT.Median}}</td><td class="num">{{printf "%.1f" .TTFAT.Median}}</td><td class="num">{{printf "%.1f" (index .TTFAT.Percentiles "p99")}}</td><td class="num">{{printf "%.2f" .ReasoningTPOT.Median}}</td><td class="num">{{printf "%.2f" .AnswerTPOT.Median}}</td></tr>
{{end}}{{end}}{{end}}</table></div></section>{{end}}
{{if .Cached}}<section><h2>Prefix cache</h2><div class="sub">the engine's hit rate over each run, from its own counters read before and after (vLLM's prefix_cache_hits/queries, SGLang's cached/prompt tokens), beside the rate the workload implies (shared prefixes and earlier turns a cache holding everything would find)</div><div class="scroll"><table id="prefix-cache"><tr><th>target</th><th>load</th><th>engine hit rate</th><th>hit / query tokens</th><th>workload implies</th><th>repeated / prompt tokens</th><th>endpoints</th></tr>
{{range .Res}}{{range .Runs}}{{$run := .}}{{with .PrefixCache}}<tr><td>{{$run.Target}}</td><td>{{$run.Label}}</td><td class="num">{{with .HitRate}}{{pct .}}{{else}}–{{end}}</td><td class="num">{{if and .HitTokens .QueryTokens}}{{printf "%.0f" (deref .HitTokens)}} / {{printf "%.0f" (deref .QueryTokens)}}{{else}}–{{end}}</td><td class="num">{{pct .ImpliedHitRate}}</td><td class="num">{{.ImpliedHitTokens}} / {{.PromptTokens}}</td><td>{{range .Endpoints}}<div class="mono">{{.Endpoint}}{{if .Engine}} ({{.Engine}}){{end}}{{with .GaugeHitRate}}: gauge {{pct .}} at the end{{end}}{{if .Unavailable}}: unavailable, {{.Unavailable}}{{end}}</div>{{end}}</td></tr>
{{end}}{{end}}{{end}}</table></div></section>{{end}}
{{if .Parts}}<section><h2>Hosts and endpoints</h2><div class="sub">each host's own figures (over its own window) in a merge of several, and the requests each endpoint served (over the run's window)</div><div class="scroll"><table id="parts"><tr><th>target</th><th>load</th><th>host or endpoint</th><th>completed</th><th>failed</th><th>req/s</th><th>out tok/s</th><th>TTFT p50 ms</th><th>TTFT p99 ms</th><th>E2EL p50 ms</th><th>E2EL p99 ms</th></tr>
{{range .Res}}{{range .Runs}}{{$run := .}}{{range $kind, $parts := (partsOf .)}}{{range $parts}}<tr><td>{{$run.Target}}</td><td>{{$run.Label}}</td><td class="mono">{{$kind}} {{.Name}}</td><td class="num">{{.Completed}}</td><td class="num">{{.Failed}}</td><td class="num">{{printf "%.2f" .RequestThroughput}}</td><td class="num">{{printf "%.1f" .OutputThroughput}}</td><td class="num">{{printf "%.1f" .TTFT.Median}}</td><td class="num">{{printf "%.1f" (index .TTFT.Percentiles "p99")}}</td><td class="num">{{printf "%.1f" .E2E.Median}}</td><td class="num">{{printf "%.1f" (index .E2E.Percentiles "p99")}}</td></tr>
{{end}}{{end}}{{end}}{{end}}</table></div></section>{{end}}
</main><footer>mlperf-go bench · results.json holds every figure, requests-*.jsonl every request</footer></body></html>
`))
