package report

import (
	"fmt"
	"html/template"
	"io"
	"path"
	"strings"

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
	if len(v.Reasons) > 0 {
		b.WriteString("\n## Outcome\n\n")
		for _, s := range v.Reasons {
			fmt.Fprintf(&b, "- %s\n", s)
		}
	}
	if len(v.Warnings) > 0 {
		b.WriteString("\n## Warnings\n\n")
		for _, s := range v.Warnings {
			fmt.Fprintf(&b, "- %s\n", s)
		}
	}
	dists := []struct {
		name string
		d    *results.Distribution
	}{{"latency", r.Metrics.Latency}, {"query latency", r.Metrics.QueryLatency}, {"TTFT", r.Metrics.TTFT}, {"TPOT", r.Metrics.TPOT}}
	var have []struct {
		name string
		d    *results.Distribution
	}
	for _, d := range dists {
		if d.d != nil {
			have = append(have, d)
		}
	}
	if len(have) > 0 {
		b.WriteString("\n## Latency (ms, as LoadGen logged it)\n\n| | min | mean |")
		ps := sortedPercentiles(have[0].d.Percentiles)
		for _, p := range ps {
			fmt.Fprintf(&b, " p%s |", trimZeros(p))
		}
		b.WriteString(" max |\n|---|---|---|" + strings.Repeat("---|", len(ps)) + "---|\n")
		for _, d := range have {
			fmt.Fprintf(&b, "| %s | %s | %s |", d.name, msOpt(d.d.Min), msOpt(d.d.Mean))
			for _, p := range ps {
				if x, ok := d.d.Percentiles[p]; ok {
					fmt.Fprintf(&b, " %s |", strings.TrimSuffix(ms(x), " ms"))
				} else {
					b.WriteString(" – |")
				}
			}
			fmt.Fprintf(&b, " %s |\n", msOpt(d.d.Max))
		}
	}
	b.WriteString(harnessLatencyMarkdown(r))
	b.WriteString("\n## Failures\n\n")
	if s := r.Samples; s != nil {
		fmt.Fprintf(&b, "%d issued, %d completed, %d failed.\n", s.Issued, s.Completed, s.Failed)
		if len(v.FailureClasses) > 0 {
			b.WriteString("\n| class | samples |\n|---|---|\n")
			for _, c := range v.FailureClasses {
				fmt.Fprintf(&b, "| %s | %s |\n", c[0], c[1])
			}
		}
	} else {
		b.WriteString("No run record (mlperf_go_run.json).\n")
	}
	if len(v.Engines) > 0 {
		b.WriteString("\n## Engine metrics\n\n| endpoint | engine | max KV cache | max running | max waiting | preemptions | prefix-cache hits |\n|---|---|---|---|---|---|---|\n")
		for _, e := range v.Engines {
			if !e.Available {
				fmt.Fprintf(&b, "| %s | unavailable: %s | | | | | |\n", mdCell(e.Endpoint), mdCell(e.Unavailable))
				continue
			}
			hits := num(e.PrefixCacheHits)
			if e.PrefixCacheHits == nil && e.MaxPrefixCacheHitRate != nil {
				hits = pct(e.MaxPrefixCacheHitRate) + " max rate"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", mdCell(e.Endpoint), e.Engine, pct(e.MaxKVCacheUsage), num(e.MaxRunning), num(e.MaxWaiting), num(e.Preemptions), hits)
		}
	}
	b.WriteString("\n## Run\n\n| | |\n|---|---|\n")
	for _, f := range v.Facts {
		fmt.Fprintf(&b, "| %s | %s |\n", f[0], mdCell(f[1]))
	}
	b.WriteString("\n## LoadGen settings used\n\n| setting | value |\n|---|---|\n")
	for _, s := range v.Settings {
		fmt.Fprintf(&b, "| %s | %s |\n", s[0], mdCell(s[1]))
	}
	fmt.Fprintf(&b, "\nCharts: [%s](%s). Schema %s; from %s.\n", HTMLFile, HTMLFile, r.Schema, strings.Join(r.Sources, ", "))
	return b.String()
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
	Benchmark, Scenario, Mode    string
	Status, StatusClass          string
	Headline, Tokens, TTFT, TPOT string
	Failed, Error                string
}

func indexRows(entries []Entry) []indexRow {
	var rows []indexRow
	for _, e := range entries {
		row := indexRow{Name: e.Rel, Link: path.Join(e.Rel, HTMLFile)}
		if e.Err != nil {
			row.Status, row.StatusClass, row.Error = "ERROR", "bad", e.Err.Error()
			rows = append(rows, row)
			continue
		}
		r := e.Results
		row.Benchmark, row.Scenario, row.Mode = r.Run.Benchmark, r.Run.ScenarioName, r.Run.Mode
		row.Status, row.StatusClass = strings.ToUpper(r.Outcome.Status), statusClass[r.Outcome.Status]
		row.Headline, row.Tokens, row.TTFT, row.TPOT, row.Failed = "–", "–", "–", "–", "–"
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

var indexTemplate = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mlperf-go results — {{.Root}}</title>
<style>` + style + `</style></head>
<body>
<header><h1>mlperf-go results</h1><div class="sub">{{.Root}} · {{len .Rows}} run(s)</div></header>
<main><section><h2>Runs</h2>
<table id="runs"><tr><th>run</th><th>benchmark</th><th>scenario</th><th>mode</th><th>status</th><th class="num">headline</th><th class="num">tokens/s</th><th class="num">p99 TTFT</th><th class="num">p99 TPOT</th><th class="num">failed</th></tr>
{{range .Rows}}<tr><td class="mono"><a href="{{.Link}}">{{.Name}}</a></td>{{if .Error}}<td colspan="3" class="note">{{.Error}}</td><td><span class="badge {{.StatusClass}}">{{.Status}}</span></td><td colspan="5"></td>{{else}}<td>{{.Benchmark}}</td><td>{{.Scenario}}</td><td>{{.Mode}}</td><td><span class="badge {{.StatusClass}}" style="margin:0">{{.Status}}</span></td><td class="num">{{.Headline}}</td><td class="num">{{.Tokens}}</td><td class="num">{{.TTFT}}</td><td class="num">{{.TPOT}}</td><td class="num">{{.Failed}}</td>{{end}}</tr>
{{end}}</table></section></main>
<footer>mlperf-go · each run's report.html has its charts</footer>
</body></html>
`))

func renderIndexHTML(w io.Writer, root string, entries []Entry) error {
	return indexTemplate.Execute(w, struct {
		Root string
		Rows []indexRow
	}{root, indexRows(entries)})
}

func renderIndexMarkdown(root string, entries []Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# mlperf-go results — %s\n\n| run | benchmark | scenario | mode | status | headline | tokens/s | p99 TTFT | p99 TPOT | failed |\n|---|---|---|---|---|---|---|---|---|---|\n", root)
	for _, r := range indexRows(entries) {
		if r.Error != "" {
			fmt.Fprintf(&b, "| [%s](%s) | %s | | | ERROR | | | | | |\n", r.Name, path.Join(r.Name, MarkdownFile), mdCell(r.Error))
			continue
		}
		fmt.Fprintf(&b, "| [%s](%s) | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.Name, path.Join(r.Name, MarkdownFile), r.Benchmark, r.Scenario, r.Mode, r.Status, r.Headline, r.Tokens, r.TTFT, r.TPOT, r.Failed)
	}
	return b.String()
}
