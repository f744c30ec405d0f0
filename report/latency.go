package report

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/breakdown"
	"github.com/mlperf-go/mlperf-go/results"
)

// The report's "Where the time went" section: results.json's
// harness_latency, the harness's parts of each sample's time next to the
// endpoint's, so a reader sees at once who owns a slow tail.

// latencyRow is one part as the report shows it.
type latencyRow struct {
	Name, Owner, What           string
	Harness, Sum                bool
	Count                       int64
	P50, P90, P99, P999, MaxStr string
}

// latencyRows are the breakdown's parts that counted any sample.
func latencyRows(h *results.HarnessLatency) []latencyRow {
	var rows []latencyRow
	for _, p := range h.Parts {
		if p.Count == 0 {
			continue
		}
		f := func(ns int64) string { return fmt.Sprintf("%.3f", float64(ns)/1e6) }
		rows = append(rows, latencyRow{Name: p.Name, Owner: p.OwnerName(), What: p.What, Harness: p.Harness, Sum: p.Sum, Count: p.Count,
			P50: f(p.P50), P90: f(p.P90), P99: f(p.P99), P999: f(p.P999), MaxStr: f(p.Max)})
	}
	return rows
}

// offlineVerdict replaces latencyVerdict where LoadGen issued every
// sample at once (results.Results.IssuedAtOnce).
const offlineVerdict = "Offline: LoadGen issued every sample at once, so the harness's parts below (queue, send and their sums) hold all its workers waking and opening their connections together, once per run, not a cost per sample; Offline is judged by throughput."

// latencyVerdict is the section's one-line summary: what the harness added
// to TTFT and latency next to those totals, at p50 and p99; in Offline,
// what its parts hold instead.
func latencyVerdict(r *results.Results) string {
	if r.IssuedAtOnce() {
		return offlineVerdict
	}
	b := breakdown.Breakdown{Parts: r.HarnessLatency.Parts}
	ms := func(ns int64) string { return fmt.Sprintf("%.2f ms", float64(ns)/1e6) }
	var parts []string
	for _, pair := range [][3]string{
		{"harness_first_token", "ttft", "TTFT"},
		{"harness_completion", "latency", "latency"},
	} {
		hp, ok1 := b.Find(pair[0])
		tp, ok2 := b.Find(pair[1])
		if ok1 && ok2 && hp.Count > 0 {
			parts = append(parts, fmt.Sprintf("to %s the harness added %s at p50 and %s at p99 (of %s and %s in all)",
				pair[2], ms(hp.P50), ms(hp.P99), ms(tp.P50), ms(tp.P99)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	s := strings.Join(parts, "; ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

var latencyTemplate = template.Must(template.New("latency").Parse(`<section id="harness-latency"><h2>Where the time went</h2>
<p>{{.Verdict}}</p>
<p class="note">Each successful sample's time, part by part, by the harness's own clock (mlperf_go_latency.json), in milliseconds. The harness's parts are its own; the endpoint's include the network and the kernel; slot_wait is the wait while every worker (--concurrency) served another sample. LoadGen's TTFT and latency above also hold its bridge's hops.</p>
<table id="harness-latency-parts"><tr><th>part</th><th>owner</th><th class="num">samples</th><th class="num">p50</th><th class="num">p90</th><th class="num">p99</th><th class="num">p99.9</th><th class="num">max</th><th>spans</th></tr>
{{range .Rows}}<tr{{if .Harness}} class="harness"{{end}}><td class="mono">{{if .Sum}}<strong>{{.Name}}</strong>{{else}}{{.Name}}{{end}}</td><td>{{.Owner}}</td><td class="num">{{.Count}}</td><td class="num">{{.P50}}</td><td class="num">{{.P90}}</td><td class="num">{{.P99}}</td><td class="num">{{.P999}}</td><td class="num">{{.MaxStr}}</td><td class="note">{{.What}}</td></tr>
{{end}}</table></section>
`))

// harnessLatencyHTML renders the section ("" without a breakdown).
func harnessLatencyHTML(r *results.Results) template.HTML {
	h := r.HarnessLatency
	if h == nil {
		return ""
	}
	var b bytes.Buffer
	if err := latencyTemplate.Execute(&b, struct {
		Verdict string
		Rows    []latencyRow
	}{latencyVerdict(r), latencyRows(h)}); err != nil {
		return template.HTML(template.HTMLEscapeString("harness latency: " + err.Error()))
	}
	return template.HTML(b.String()) //nolint:gosec // rendered by html/template above
}

// harnessLatencyMarkdown renders the section as Markdown ("" without a
// breakdown).
func harnessLatencyMarkdown(r *results.Results) string {
	h := r.HarnessLatency
	if h == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n## Where the time went (ms, by the harness's clock)\n\n")
	if v := latencyVerdict(r); v != "" {
		b.WriteString(v + "\n\n")
	}
	b.WriteString("| part | owner | samples | p50 | p90 | p99 | p99.9 | max |\n|---|---|---|---|---|---|---|---|\n")
	for _, row := range latencyRows(h) {
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %s | %s | %s |\n", row.Name, row.Owner, row.Count, row.P50, row.P90, row.P99, row.P999, row.MaxStr)
	}
	return b.String()
}
