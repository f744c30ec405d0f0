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

// WriteHTML writes report.html into dir: the comparison table, and per
// target throughput and latency percentiles against the load (the
// concurrency, or the rate when no run is capped), in the run report's
// style.
func WriteHTML(dir string, res []*Results) error {
	head, rows := Comparison(res)
	names := targetNames(res)
	slo := false
	for _, r := range res {
		slo = slo || r.SLO != nil
	}
	xOf, xLabel := func(l Load) float64 { return float64(l.Concurrency) }, "concurrency"
	capped := false
	for _, r := range res {
		for _, run := range r.Runs {
			capped = capped || run.Load.Concurrency > 0
		}
	}
	if !capped {
		xOf, xLabel = func(l Load) float64 { return l.Rate }, "request rate (req/s)"
	}
	series := func(metric func(RunResult) float64, suffix string) []report.Series {
		var out []report.Series
		for i, n := range names {
			s := report.Series{Name: n + suffix, Color: report.Palette[i%len(report.Palette)]}
			for _, r := range res {
				for _, run := range r.Runs {
					if run.Target == n {
						s.Points = append(s.Points, report.Point{X: xOf(run.Load), Y: metric(run)})
					}
				}
			}
			sort.Slice(s.Points, func(a, b int) bool { return s.Points[a].X < s.Points[b].X })
			out = append(out, s)
		}
		return out
	}
	pct := func(d func(RunResult) Dist, p string) func(RunResult) float64 {
		return func(r RunResult) float64 { return d(r).Percentiles[p] }
	}
	charts := []template.HTML{
		report.LineChart("throughput", xLabel, "requests/s", series(func(r RunResult) float64 { return r.RequestThroughput }, "")),
	}
	if slo {
		// The chart says which objectives, as a goodput means nothing
		// without them; results compared may have had others.
		var objectives []string
		for _, r := range res {
			if r.SLO != nil && !slices.Contains(objectives, r.SLO.String()) {
				objectives = append(objectives, r.SLO.String())
			}
		}
		title := "Goodput: requests/s meeting every objective of --slo " + objectives[0]
		if len(objectives) > 1 {
			title = "Goodput: requests/s meeting every objective of each run's --slo: " + strings.Join(objectives, "; ")
		}
		caption := template.HTML(`<h3 class="chart-title" data-caption="goodput">` + template.HTMLEscapeString(title) + `</h3>`)
		charts = append(charts, caption+report.LineChart("goodput", xLabel, "good requests/s", series(func(r RunResult) float64 { return r.RequestGoodput }, "")))
	}
	charts = append(charts, report.LineChart("tokens", xLabel, "output tokens/s", series(func(r RunResult) float64 { return r.OutputThroughput }, "")))
	for _, m := range []struct {
		name string
		d    func(RunResult) Dist
	}{{"TTFT", func(r RunResult) Dist { return r.TTFT }}, {"TPOT", func(r RunResult) Dist { return r.TPOT }},
		{"ITL", func(r RunResult) Dist { return r.ITL }}, {"E2E latency", func(r RunResult) Dist { return r.E2EL }}} {
		s := append(series(pct(m.d, "p50"), " p50"), series(pct(m.d, "p99"), " p99")...)
		for i := len(names); i < len(s); i++ {
			s[i].Color = report.Palette[(i-len(names)+len(names))%len(report.Palette)]
		}
		charts = append(charts, report.LineChart(m.name, xLabel, m.name+" (ms)", s))
	}
	reasoned, cached, parts := false, false, false
	for _, r := range res {
		for _, run := range r.Runs {
			reasoned = reasoned || run.ReasoningRequests > 0
			cached = cached || run.PrefixCache != nil
			parts = parts || len(run.Hosts) > 0 || len(run.Endpoints) > 0
		}
	}
	if reasoned {
		ttfat := func(r RunResult) Dist {
			if r.TTFAT == nil {
				return Dist{}
			}
			return *r.TTFAT
		}
		s := append(series(pct(ttfat, "p50"), " p50"), series(pct(ttfat, "p99"), " p99")...)
		for i := len(names); i < len(s); i++ {
			s[i].Color = report.Palette[i%len(report.Palette)]
		}
		charts = append(charts, report.LineChart("TTFAT", xLabel, "time to first answer token (ms)", s))
	}
	var b bytes.Buffer
	err := page.Execute(&b, struct {
		Style    template.CSS
		Title    string
		Head     []string
		Rows     [][]string
		SLO      bool
		Charts   []template.HTML
		Res      []*Results
		Reasoned bool
		Cached   bool
		Parts    bool
	}{report.Stylesheet(), "mlperf-go bench: " + strings.Join(names, " vs "), head, rows, slo, charts, res, reasoned, cached, parts})
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "report.html"), b.Bytes(), 0o644)
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
{{end}}</table></div></section>
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
