package mmlu

import (
	"fmt"
	"html"
	"html/template"
	"io"
	"slices"
	"strings"
)

// categoryColors colour each category's bars.
var categoryColors = map[Category]string{
	STEM: "#1f5fa8", Humanities: "#9a6700", SocialSciences: "#0a7d4f", Other: "#8250df",
}

// Bar chart geometry, in SVG user units (the SVG scales to its container).
const (
	chartW          = 760
	labelW          = 270 // subject names are up to 35 characters
	valueW          = 60
	rowH            = 20
	chartPadT       = 22
	chartPadB       = 6
	plotW           = chartW - labelW - valueW
	overallLineDash = "4 3"
)

// bar is one row of a bar chart.
type bar struct {
	Label string
	Value float64 // accuracy, 0 to 1
	Color string
	Note  string // the hover text's detail
}

// barChart draws horizontal accuracy bars on a fixed 0-100% scale with
// grid lines every 25% and a dashed line at the overall accuracy, as an
// inline SVG named name (its data-chart attribute).
func barChart(name string, bars []bar, overall float64) template.HTML {
	if len(bars) == 0 {
		return template.HTML(`<p class="empty">No questions.</p>`)
	}
	h := chartPadT + len(bars)*rowH + chartPadB
	x := func(v float64) float64 { return labelW + v*plotW }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" data-chart="%s" viewBox="0 0 %d %d" role="img" aria-label="%s">`, html.EscapeString(name), chartW, h, html.EscapeString(name+": accuracy"))
	for _, t := range []float64{0, 0.25, 0.5, 0.75, 1} {
		fmt.Fprintf(&b, `<line class="grid" x1="%.1f" x2="%.1f" y1="%d" y2="%d"/>`, x(t), x(t), chartPadT-4, h-chartPadB)
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%d" text-anchor="middle">%.0f%%</text>`, x(t), chartPadT-8, 100*t)
	}
	for i, br := range bars {
		y := chartPadT + i*rowH
		w := max(br.Value, 0) * plotW
		fmt.Fprintf(&b, `<text class="tick" x="%d" y="%d" text-anchor="end">%s</text>`, labelW-8, y+14, html.EscapeString(br.Label))
		fmt.Fprintf(&b, `<rect class="bar" x="%d" y="%d" width="%.1f" height="%d" fill="%s" rx="2"><title>%s: %.2f%% %s</title></rect>`,
			labelW, y+3, w, rowH-6, br.Color, html.EscapeString(br.Label), 100*br.Value, html.EscapeString(br.Note))
		fmt.Fprintf(&b, `<text class="value" x="%.1f" y="%d">%.1f%%</text>`, x(br.Value)+6, y+14, 100*br.Value)
	}
	fmt.Fprintf(&b, `<line class="overall" x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke-dasharray="%s"><title>overall %.2f%%</title></line>`,
		x(overall), x(overall), chartPadT-4, h-chartPadB, overallLineDash, 100*overall)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// reportView is what the page template shows.
type reportView struct {
	*Results
	CategoryChart, SubjectChart template.HTML
	Legend                      []legendItem
	Cards                       [][2]string
}

type legendItem struct{ Name, Color string }

func newReportView(r *Results) reportView {
	v := reportView{Results: r}
	var cats, subs []bar
	for _, t := range r.Categories {
		cats = append(cats, bar{t.Name, t.Accuracy, categoryColors[Category(t.Name)], fmt.Sprintf("(%d/%d)", t.Correct, t.Total)})
		v.Legend = append(v.Legend, legendItem{t.Name, categoryColors[Category(t.Name)]})
	}
	// Subjects grouped by category, best first within each.
	sorted := slices.Clone(r.Subjects)
	rank := map[Category]int{}
	for i, c := range Categories {
		rank[c] = i
	}
	slices.SortStableFunc(sorted, func(a, b Tally) int {
		if d := rank[a.Category] - rank[b.Category]; d != 0 {
			return d
		}
		switch {
		case a.Accuracy > b.Accuracy:
			return -1
		case a.Accuracy < b.Accuracy:
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	for _, t := range sorted {
		subs = append(subs, bar{t.Name, t.Accuracy, categoryColors[t.Category], fmt.Sprintf("(%d/%d, %s)", t.Correct, t.Total, t.Category)})
	}
	v.CategoryChart = barChart("categories", cats, r.Accuracy)
	v.SubjectChart = barChart("subjects", subs, r.Accuracy)
	v.Cards = [][2]string{
		{"Accuracy", fmt.Sprintf("%.2f%%", 100*r.Accuracy)},
		{"Questions", fmt.Sprintf("%d of %d", r.Overall.Total, r.TestQuestions)},
		{"Shots", fmt.Sprint(r.Shots)},
		{"Unparseable", fmt.Sprint(r.Overall.Unparseable)},
		{"Failed", fmt.Sprint(r.Overall.Failed)},
		{"Latency p50 / p99", fmt.Sprintf("%.0f / %.0f ms", r.Latency.P50, r.Latency.P99)},
	}
	return v
}

// WriteHTML writes the report page: one self-contained file with the
// accuracy per category and per subject as bar charts (inline SVG), the
// tables, the unparseable answers and failed requests, and how it all was
// measured.
func (r *Results) WriteHTML(w io.Writer) error {
	return pageTemplate.Execute(w, newReportView(r))
}

var pageTemplate = template.Must(template.New("mmlu").Funcs(template.FuncMap{
	"pct": func(v float64) string { return fmt.Sprintf("%.2f%%", 100*v) },
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>MMLU {{pct .Accuracy}} — {{.Model}} — mlperf-go</title>
<style>
:root{--fg:#1d2433;--muted:#5b6578;--line:#dde2ea;--bg:#f5f7fa;--card:#fff;--bad:#c0392b}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
header{background:#1d2433;color:#fff;padding:20px 32px}
header h1{margin:0;font-size:22px;font-weight:600}
header .sub{color:#b8c1d1;margin-top:4px}
main{max-width:1180px;margin:0 auto;padding:20px 32px 40px}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(170px,1fr));gap:12px;margin:4px 0 20px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 14px}
.card .label{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
.card .value{font-size:22px;font-weight:650;margin-top:2px;font-variant-numeric:tabular-nums;white-space:nowrap}
section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:14px 18px;margin:0 0 16px}
section h2{font-size:16px;margin:0 0 10px}
.note,.empty{color:var(--muted)}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{color:var(--muted);font-weight:600;font-size:12px}
td.num,th.num{text-align:right;white-space:nowrap}
td.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;white-space:pre-wrap;word-break:break-word}
table.kv td:first-child{color:var(--muted);width:22%;white-space:nowrap}
svg.chart{width:100%;max-width:980px;height:auto;display:block}
svg .grid{stroke:#e8ecf2}svg .overall{stroke:#c0392b;stroke-width:1.5}
svg text{font-size:12px;fill:#5b6578}svg .value{fill:#1d2433}
.legend span{display:inline-block;margin-right:14px}.legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:5px}
</style></head>
<body>
<header><h1>MMLU: {{pct .Accuracy}}</h1>
<div class="sub">{{.Model}} · {{.Shots}}-shot · {{.Overall.Correct}}/{{.Overall.Total}} correct · {{.Started.Format "2006-01-02 15:04:05 UTC"}}</div></header>
<main>
<div class="cards" id="cards">{{range .Cards}}<div class="card"><div class="label">{{index . 0}}</div><div class="value">{{index . 1}}</div></div>{{end}}</div>
{{if .Stopped}}<section id="stopped"><h2>Stopped early</h2><p style="color:var(--bad)">{{.Stopped}}</p></section>{{end}}
<section id="categories"><h2>By category</h2>
<p class="note">Every question weighs the same (micro average); unparseable answers and failed requests count as wrong. The dashed line is the overall accuracy.</p>
{{.CategoryChart}}
<table><tr><th>category</th><th class="num">accuracy</th><th class="num">correct</th><th class="num">questions</th><th class="num">unparseable</th><th class="num">failed</th></tr>
{{range .Categories}}<tr><td>{{.Name}}</td><td class="num">{{pct .Accuracy}}</td><td class="num">{{.Correct}}</td><td class="num">{{.Total}}</td><td class="num">{{.Unparseable}}</td><td class="num">{{.Failed}}</td></tr>
{{end}}<tr><th>all</th><th class="num">{{pct .Overall.Accuracy}}</th><th class="num">{{.Overall.Correct}}</th><th class="num">{{.Overall.Total}}</th><th class="num">{{.Overall.Unparseable}}</th><th class="num">{{.Overall.Failed}}</th></tr></table>
</section>
<section id="subjects"><h2>By subject</h2>
<div class="legend">{{range .Legend}}<span><i style="background:{{.Color}}"></i>{{.Name}}</span>{{end}}</div>
{{.SubjectChart}}
<table><tr><th>subject</th><th>category</th><th class="num">accuracy</th><th class="num">correct</th><th class="num">questions</th><th class="num">unparseable</th><th class="num">failed</th></tr>
{{range .Subjects}}<tr><td>{{.Name}}</td><td>{{.Category}}</td><td class="num">{{pct .Accuracy}}</td><td class="num">{{.Correct}}</td><td class="num">{{.Total}}</td><td class="num">{{.Unparseable}}</td><td class="num">{{.Failed}}</td></tr>
{{end}}</table>
</section>
<section id="unparseable"><h2>Unparseable answers ({{len .Unparsed}})</h2>
{{if .Unparsed}}<table><tr><th>subject</th><th class="num">#</th><th>answer (clipped)</th></tr>
{{range .Unparsed}}<tr><td>{{.Subject}}</td><td class="num">{{.SubjectIndex}}</td><td class="mono">{{.Answer}}</td></tr>
{{end}}</table>{{else}}<p class="empty">Every answer named a letter.</p>{{end}}
</section>
<section id="failed"><h2>Questions without an answer ({{len .FailedRefs}})</h2>
{{if .FailedRefs}}<table><tr><th>subject</th><th class="num">#</th><th>why</th></tr>
{{range .FailedRefs}}<tr><td>{{.Subject}}</td><td class="num">{{.SubjectIndex}}</td><td class="mono">{{.Error}}</td></tr>
{{end}}</table>{{else}}<p class="empty">Every request was answered.</p>{{end}}
</section>
<section id="how"><h2>How this was measured</h2><table class="kv">
<tr><td>endpoints</td><td class="mono">{{range .Endpoints}}{{.}} {{end}}</td></tr>
<tr><td>API, model</td><td>{{.API}}, {{.Model}}</td></tr>
<tr><td>sampling</td><td>max_tokens {{if .MaxTokens}}{{.MaxTokens}}{{else}}not sent{{end}}, temperature {{if .Temperature}}{{.Temperature}}{{else}}not sent{{end}}</td></tr>
<tr><td>prompt</td><td>{{.PromptFormat}}, {{.Shots}}-shot (first examples of the subject's dev split)</td></tr>
<tr><td>answer extraction</td><td>{{.Extraction}}</td></tr>
<tr><td>categories</td><td>{{.CategorySource}}</td></tr>
<tr><td>questions</td><td>{{.Overall.Total}} of {{.TestQuestions}}{{if .Subset}} (stratified subset of {{.Subset}}, seed {{.Seed}}){{end}}{{if .SubjectsFilter}}; subjects {{range .SubjectsFilter}}{{.}} {{end}}{{end}}</td></tr>
<tr><td>data</td><td class="mono">{{range .DatasetFiles}}{{.}} {{end}}{{range .DevFiles}}{{.}} {{end}}</td></tr>
<tr><td>time</td><td>{{printf "%.1f" .ElapsedS}} s, {{.Retries}} retries</td></tr>
</table></section>
</main></body></html>
`))
