package report

import (
	"fmt"
	"html/template"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/mlperf-go/mlperf-go/engine/metrics"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/results"
)

// renderMarkdown is report.md: the figures and findings of report.html,
// without the charts.
func renderMarkdown(run *Run) string {
	v := newView(run)
	r := run.Results
	var b strings.Builder
	fmt.Fprintf(&b, "# %s — %s\n\n", v.Title, v.Status)
	if v.Subtitle != "" {
		fmt.Fprintf(&b, "%s\n\n", v.Subtitle)
	}
	b.WriteString("| figure | value |\n|---|---|\n")
	for _, c := range v.Cards {
		fmt.Fprintf(&b, "| %s | %s |\n", mdCell(c.Label), mdCell(strings.TrimSpace(c.Value+" "+c.Unit)))
	}
	mdAccuracy(&b, v.Accuracy)
	mdList(&b, "Outcome", v.Reasons)
	mdList(&b, "Warnings", v.Warnings)
	mdLatency(&b, r.Metrics)
	b.WriteString(harnessLatencyMarkdown(r))
	mdFailures(&b, r.Samples, v.FailureClasses)
	mdEngines(&b, v.Engines)
	b.WriteString("\n## Run\n\n| | |\n|---|---|\n")
	for _, f := range v.Facts {
		fmt.Fprintf(&b, "| %s | %s |\n", f[0], mdCell(f[1]))
	}
	b.WriteString("\n## LoadGen settings used\n\n| setting | value |\n|---|---|\n")
	for _, s := range v.Settings {
		fmt.Fprintf(&b, "| %s | %s |\n", s[0], mdCell(s[1]))
	}
	fmt.Fprintf(&b, "\nCharts: [%s](%s). Schema %s; from %s.\n", record.ReportHTMLFile, record.ReportHTMLFile, r.Schema, strings.Join(r.Sources, ", "))
	return b.String()
}

// mdAccuracy writes the accuracy verdict's table; nothing without one.
func mdAccuracy(b *strings.Builder, a *record.Accuracy) {
	if a == nil {
		return
	}
	fmt.Fprintf(b, "\n## Accuracy — %s\n\naccuracy.txt judged with the %s submission checker's rules for the %s scenario.\n\n| metric | value | bound | verdict |\n|---|---|---|---|\n", a.Verdict(), a.Round, a.Scenario)
	for _, m := range a.Metrics {
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", m.Name, orDashStr(m.Value), m.Range(), m.Verdict())
	}
	for _, p := range a.Problems {
		fmt.Fprintf(b, "\n- %s", mdCell(p))
	}
	if a.Scorer != "" {
		fmt.Fprintf(b, "\n%s\n", mdCell(a.Scorer))
	}
}

// mdList writes a section of bullet points; nothing when there are none.
func mdList(b *strings.Builder, heading string, items []string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(b, "\n## %s\n\n", heading)
	for _, s := range items {
		fmt.Fprintf(b, "- %s\n", s)
	}
}

// mdLatency writes one table of the logged latency distributions, a row
// each, with the first one's percentiles as the columns.
func mdLatency(b *strings.Builder, m results.Metrics) {
	type dist struct {
		name string
		d    *results.Distribution
	}
	var have []dist
	for _, d := range []dist{{"latency", m.Latency}, {"query latency", m.QueryLatency}, {"TTFT", m.TTFT}, {"TPOT", m.TPOT}} {
		if d.d != nil {
			have = append(have, d)
		}
	}
	if len(have) == 0 {
		return
	}
	b.WriteString("\n## Latency (ms, as LoadGen logged it)\n\n| | min | mean |")
	ps := sortedPercentiles(have[0].d.Percentiles)
	for _, p := range ps {
		fmt.Fprintf(b, " p%s |", trimZeros(p))
	}
	b.WriteString(" max |\n|---|---|---|" + strings.Repeat("---|", len(ps)) + "---|\n")
	for _, d := range have {
		fmt.Fprintf(b, "| %s | %s | %s |", d.name, msOpt(d.d.Min), msOpt(d.d.Mean))
		for _, p := range ps {
			if x, ok := d.d.Percentiles[p]; ok {
				fmt.Fprintf(b, " %s |", strings.TrimSuffix(ms(x), " ms"))
			} else {
				b.WriteString(" – |")
			}
		}
		fmt.Fprintf(b, " %s |\n", msOpt(d.d.Max))
	}
}

// mdFailures writes the sample counts and the failures by class, or says
// there is no run record to count from.
func mdFailures(b *strings.Builder, s *record.SampleCounts, classes [][2]string) {
	b.WriteString("\n## Failures\n\n")
	if s == nil {
		b.WriteString("No run record (mlperf_go_run.json).\n")
		return
	}
	fmt.Fprintf(b, "%d issued, %d completed, %d failed.\n", s.Issued, s.Completed, s.Failed)
	if len(classes) > 0 {
		b.WriteString("\n| class | samples |\n|---|---|\n")
		for _, c := range classes {
			fmt.Fprintf(b, "| %s | %s |\n", c[0], c[1])
		}
	}
}

// mdEngines writes the engine metrics' summary, an endpoint a row.
func mdEngines(b *strings.Builder, engines []metrics.Summary) {
	if len(engines) == 0 {
		return
	}
	b.WriteString("\n## Engine metrics\n\n| endpoint | engine | max KV cache | max running | max waiting | preemptions | prefix-cache hits |\n|---|---|---|---|---|---|---|\n")
	for _, e := range engines {
		if !e.Available {
			fmt.Fprintf(b, "| %s | unavailable: %s | | | | | |\n", mdCell(e.Endpoint), mdCell(e.Unavailable))
			continue
		}
		hits := num(e.PrefixCacheHits)
		if e.PrefixCacheHits == nil && e.MaxPrefixCacheHitRate != nil {
			hits = pct(e.MaxPrefixCacheHitRate) + " max rate"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", mdCell(e.Endpoint), e.Engine, pct(e.MaxKVCacheUsage), num(e.MaxRunning), num(e.MaxWaiting), num(e.Preemptions), hits)
	}
}

func msOpt(p *float64) string {
	if p == nil {
		return "–"
	}
	return strings.TrimSuffix(ms(*p), " ms")
}

// mdCell escapes a table cell's pipes and line breaks.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// indexRow is one run of an index page.
type indexRow struct {
	Link, Name                   string
	Date                         string
	Benchmark, Scenario, Mode    string
	Status, StatusClass          string
	Accuracy, AccuracyClass      string
	AccuracyNote                 string
	Headline, Tokens, TTFT, TPOT string
	Failed, Error                string
}

func indexRows(entries []Entry) []indexRow {
	var rows []indexRow
	for _, e := range entries {
		row := indexRow{Name: e.Rel, Link: path.Join(e.Rel, record.ReportHTMLFile)}
		if e.Err != nil {
			row.Status, row.StatusClass, row.Error = "ERROR", "bad", e.Err.Error()
			rows = append(rows, row)
			continue
		}
		r := e.Results
		row.Benchmark, row.Scenario, row.Mode = r.Run.Benchmark, r.Run.ScenarioName, r.Run.Mode
		row.Status, row.StatusClass = statusLabel(r), statusClass[r.Outcome.Status]
		row.Headline, row.Tokens, row.TTFT, row.TPOT, row.Failed, row.Date, row.Accuracy = "–", "–", "–", "–", "–", "–", "–"
		if t := r.Run.Start; t != nil {
			row.Date = t.UTC().Format("2006-01-02 15:04")
		}
		row.Accuracy, row.AccuracyClass, row.AccuracyNote = accuracyCell(r)
		if h := r.Metrics.Headline; h != nil {
			row.Headline = figure(h.Value, h.Unit)
		}
		if t := r.Metrics.TokensPerSecond; t != nil {
			row.Tokens = figure(t.Value, t.Unit)
		}
		if d := r.Metrics.TTFT; d != nil {
			if p, ok := d.Percentiles["99.00"]; ok {
				row.TTFT = ms(p)
			}
		}
		if d := r.Metrics.TPOT; d != nil {
			if p, ok := d.Percentiles["99.00"]; ok {
				row.TPOT = ms(p)
			}
		}
		if s := r.Samples; s != nil {
			row.Failed = fmt.Sprint(s.Failed)
		}
		rows = append(rows, row)
	}
	return rows
}

// accuracyCell is an index row's accuracy: an accuracy run's verdict with
// its first metric, a --mode both performance run's paired verdict, or –.
func accuracyCell(r *results.Results) (text, class, note string) {
	switch {
	case r.Accuracy != nil:
		text, class = r.Accuracy.Verdict(), "bad"
		if r.Accuracy.Pass {
			class = "ok"
		}
		if len(r.Accuracy.Metrics) > 0 {
			m := r.Accuracy.Metrics[0]
			text += " " + m.Name + " " + orDashStr(m.Value)
		}
		return text, class, accuracyNote(r.Accuracy)
	case r.PairedAccuracy != nil:
		if r.PairedAccuracy.Pass {
			return "PASS (accuracy run)", "ok", r.PairedAccuracy.Dir
		}
		if r.PairedAccuracy.Partial {
			return "PASS (partial accuracy run)", "", r.PairedAccuracy.Dir
		}
		return "FAIL (accuracy run)", "bad", r.PairedAccuracy.Dir
	}
	return "–", "", ""
}

// trend is one benchmark and scenario's headline metric over time, across
// the performance runs of an index.
type trend struct {
	Title string
	Chart template.HTML
}

// trends draws, per benchmark and scenario with at least two dated
// performance runs (not --quick ones), the headline metric against the runs' start time
// (hours since the first), valid runs and the others as two series.
func trends(entries []Entry) []trend {
	type key struct{ bench, scen, unit, name string }
	groups := map[key][]*results.Results{}
	var order []key
	for _, e := range entries {
		r := e.Results
		if e.Err != nil || r == nil || r.Metrics.Headline == nil || r.Run.Start == nil || r.Run.Quick {
			// A --quick run's figures come from seconds of load on a tiny
			// sample library: not a point of the system's history.
			continue
		}
		k := key{r.Run.Benchmark, r.Run.ScenarioName, r.Metrics.Headline.Unit, r.Metrics.Headline.Name}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	sort.Slice(order, func(i, j int) bool {
		return order[i].bench+order[i].scen < order[j].bench+order[j].scen
	})
	var out []trend
	for _, k := range order {
		rs := groups[k]
		if len(rs) < 2 {
			continue
		}
		sort.Slice(rs, func(i, j int) bool { return rs[i].Run.Start.Before(*rs[j].Run.Start) })
		first := *rs[0].Run.Start
		var valid, other []Point
		for _, r := range rs {
			p := Point{r.Run.Start.Sub(first).Hours(), r.Metrics.Headline.Value}
			if r.Outcome.Status == results.StatusValid {
				valid = append(valid, p)
			} else {
				other = append(other, p)
			}
		}
		var series []Series
		if len(valid) > 0 {
			series = append(series, Series{Name: "valid", Color: green, Points: valid})
		}
		if len(other) > 0 {
			series = append(series, Series{Name: "not valid", Color: orange, Points: other})
		}
		title := fmt.Sprintf("%s · %s: %s", k.bench, k.scen, k.name)
		name := "trend-" + strings.NewReplacer(" ", "-", "·", "").Replace(k.bench+"-"+k.scen)
		out = append(out, trend{title, lineChart(name, "hours since "+first.UTC().Format("2006-01-02 15:04")+" UTC", k.unit, series)})
	}
	return out
}

var indexTemplate = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mlperf-go results — {{.Root}}</title>
<style>` + style + `</style></head>
<body>
<header><h1>mlperf-go results</h1><div class="sub">{{.Root}} · {{len .Rows}} run(s)</div></header>
<main>{{if .Trends}}<section id="trends"><h2>Over time</h2><p class="note">Each benchmark and scenario's headline metric, run after run.</p>
<div class="grid2">{{range .Trends}}<div><h3>{{.Title}}</h3>{{.Chart}}</div>{{end}}</div></section>{{end}}
<section><h2>Runs</h2><div class="tablewrap">
<table id="runs"><tr><th>run</th><th>date (UTC)</th><th>benchmark</th><th>scenario</th><th>mode</th><th>status</th><th>accuracy</th><th class="num">headline</th><th class="num">tokens/s</th><th class="num">p99 TTFT</th><th class="num">p99 TPOT</th><th class="num">failed</th></tr>
{{range .Rows}}<tr><td class="mono run"><a href="{{.Link}}">{{.Name}}</a></td>{{if .Error}}<td colspan="4" class="note">{{.Error}}</td><td><span class="badge {{.StatusClass}}" style="margin:0">{{.Status}}</span></td><td colspan="6"></td>{{else}}<td class="date">{{.Date}}</td><td>{{.Benchmark}}</td><td>{{.Scenario}}</td><td>{{.Mode}}</td><td><span class="badge {{.StatusClass}}" style="margin:0">{{.Status}}</span></td><td title="{{.AccuracyNote}}">{{if .AccuracyClass}}<span class="badge {{.AccuracyClass}}" style="margin:0">{{.Accuracy}}</span>{{else}}{{.Accuracy}}{{end}}</td><td class="num">{{.Headline}}</td><td class="num">{{.Tokens}}</td><td class="num">{{.TTFT}}</td><td class="num">{{.TPOT}}</td><td class="num">{{.Failed}}</td>{{end}}</tr>
{{end}}</table></div></section></main>
<footer>mlperf-go · each run's report.html has its charts</footer>
</body></html>
`))

func renderIndexHTML(w io.Writer, root string, entries []Entry) error {
	return indexTemplate.Execute(w, struct {
		Root   string
		Rows   []indexRow
		Trends []trend
	}{root, indexRows(entries), trends(entries)})
}

func renderIndexMarkdown(root string, entries []Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# mlperf-go results — %s\n\n| run | date (UTC) | benchmark | scenario | mode | status | accuracy | headline | tokens/s | p99 TTFT | p99 TPOT | failed |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n", root)
	for _, r := range indexRows(entries) {
		if r.Error != "" {
			fmt.Fprintf(&b, "| [%s](%s) | | %s | | | ERROR | | | | | | |\n", r.Name, path.Join(r.Name, record.ReportMarkdownFile), mdCell(r.Error))
			continue
		}
		fmt.Fprintf(&b, "| [%s](%s) | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.Name, path.Join(r.Name, record.ReportMarkdownFile), r.Date, r.Benchmark, r.Scenario, r.Mode, r.Status, mdCell(r.Accuracy), r.Headline, r.Tokens, r.TTFT, r.TPOT, r.Failed)
	}
	return b.String()
}
