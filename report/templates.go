package report

import "html/template"

// style is the pages' whole stylesheet, inlined so a report opens anywhere,
// offline, as one file.
const style = `
:root{--fg:#1d2433;--muted:#5b6578;--line:#dde2ea;--bg:#f5f7fa;--card:#fff;--ok:#0a7d4f;--bad:#c0392b;--info:#1f5fa8;--warn:#9a6700}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
header{background:#1d2433;color:#fff;padding:20px 32px}
header h1{margin:0;font-size:22px;font-weight:600}
header .sub{color:#b8c1d1;margin-top:4px}
main{max-width:1180px;margin:0 auto;padding:20px 32px 40px}
.badge{color:#fff;white-space:nowrap;display:inline-block;padding:3px 10px;border-radius:12px;font-weight:700;font-size:13px;letter-spacing:.04em;margin-left:12px;vertical-align:middle}
.badge.ok{background:var(--ok)}.badge.bad{background:var(--bad)}.badge.info{background:var(--info)}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(200px,1fr));gap:12px;margin:4px 0 20px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 14px}
.card .label{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
.card .value{font-size:22px;font-weight:650;margin-top:2px;font-variant-numeric:tabular-nums;white-space:nowrap}
.card .unit{font-size:13px;font-weight:500;color:var(--muted);margin-left:3px}
.card .note{color:var(--muted);font-size:11px;margin-top:2px;word-break:break-all}
section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:14px 18px;margin:0 0 16px}
section h2{font-size:16px;margin:0 0 10px}
section h3{font-size:14px;margin:14px 0 6px}
.note,.empty{color:var(--muted)}
.grid2{display:grid;grid-template-columns:1fr 1fr;gap:16px}
@media (max-width:900px){.grid2{grid-template-columns:1fr}}
ul.findings{margin:0;padding-left:20px}
ul.findings li{margin:3px 0}
ul.reasons li{color:var(--bad)} ul.warnings li{color:var(--warn)}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{color:var(--muted);font-weight:600;font-size:12px}
td.num,th.num{text-align:right}td.num{white-space:nowrap}
.tablewrap{overflow-x:auto}
#runs{font-size:12px}
#runs th,#runs td{padding:4px 5px}
#runs td.run{white-space:normal;word-break:break-all;min-width:8em}
#runs td.num{white-space:normal}
#runs .badge{font-size:11px;padding:2px 6px;white-space:normal}
table.kv td:first-child{color:var(--muted);width:34%;white-space:nowrap}
td code,td.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;word-break:break-all}
svg.chart{width:100%;height:auto;display:block}
svg .grid{stroke:#e8ecf2}svg .axis{stroke:#9aa3b2}svg .xtick{stroke:#9aa3b2}
svg text{font-size:12px;fill:#5b6578}svg .label{font-size:12px;fill:#1d2433}svg .legend{font-size:12px;fill:#1d2433}
svg .value{font-size:12px;fill:#1d2433}
footer{color:var(--muted);font-size:12px;text-align:center;padding:10px}
a{color:var(--info)}
`

var pageTemplate = template.Must(template.New("page").Funcs(funcs).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} — mlperf-go report</title>
<style>` + style + `</style></head>
<body>
<header><h1>{{.Title}}<span id="status" class="badge {{.StatusClass}}">{{.Status}}</span></h1>
<div class="sub">{{.Subtitle}}</div></header>
<main>
<div class="cards" id="cards">{{range .Cards}}
<div class="card"><div class="label">{{.Label}}</div><div class="value">{{.Value}}{{if .Unit}}<span class="unit">{{.Unit}}</span>{{end}}</div>{{if .Note}}<div class="note">{{.Note}}</div>{{end}}</div>{{end}}
</div>
{{with .Accuracy}}<section id="accuracy"><h2>Accuracy<span class="badge {{if .Pass}}ok{{else}}bad{{end}}">{{.Verdict}}</span></h2>
<p class="note">accuracy.txt judged with the {{.Round}} submission checker's rules for the {{.Scenario}} scenario{{if .Partial}}, on {{.Partial}}: not a full accuracy run, so a total over the whole set is not judged and the run is not submittable{{end}}.</p>
<table id="accuracy-metrics"><tr><th>metric</th><th class="num">value</th><th class="num">bound</th><th>verdict</th></tr>
{{range .Metrics}}<tr><td>{{.Name}}</td><td class="num">{{or .Value "–"}}</td><td class="num">&ge; {{.Bound}}{{if .Upper}}, &le; {{.Upper}}{{end}}</td><td>{{if .NotJudged}}not judged{{else if .Pass}}PASS{{else}}<strong>FAIL</strong>{{end}}</td></tr>{{end}}</table>
{{if .Problems}}<ul class="findings reasons">{{range .Problems}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Scorer}}<p class="note">{{.Scorer}}</p>{{end}}
</section>{{end}}
{{if or .Reasons .Warnings}}<section id="outcome"><h2>Outcome</h2>
{{if .Reasons}}<ul class="findings reasons">{{range .Reasons}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Warnings}}<h3>Warnings</h3><ul class="findings warnings">{{range .Warnings}}<li>{{.}}</li>{{end}}</ul>{{end}}
</section>{{end}}
<section id="over-time"><h2>Over time</h2>
{{if .HasTimeline}}<p class="note">The harness's counters, sampled every second (timeline.jsonl). LoadGen's figures above are the official ones.</p>
<div class="grid2"><div><h3>Throughput</h3>{{.Throughput}}</div><div><h3>Requests in flight</h3>{{.InFlight}}</div></div>
{{else}}<p class="empty">No timeline.jsonl in this run's directory (runs filed into a results tree keep only LoadGen's logs).</p>{{end}}
</section>
<section id="latency"><h2>Latency distributions</h2>
{{if .Latencies}}<p class="note">Percentiles as LoadGen logged them (mlperf_log_detail.txt), in milliseconds.</p>
<div class="grid2">{{range .Latencies}}<div><h3>{{.Title}}</h3>{{.Chart}}
<table class="kv">{{range .Rows}}<tr><td>{{index . 0}}</td><td class="num">{{index . 1}}</td></tr>{{end}}</table></div>{{end}}</div>
{{else}}<p class="empty">LoadGen logged no latencies (accuracy runs have none).</p>{{end}}
</section>
{{.HarnessLatency}}
<section id="failures"><h2>Failures</h2>
{{with .Samples}}<p>{{.Issued}} issued, {{.Completed}} completed, <strong>{{.Failed}} failed</strong>{{if .OutputTokens}}, {{.OutputTokens}} output tokens{{end}}.</p>{{else}}<p class="empty">No run record (mlperf_go_run.json) with the harness's counters.</p>{{end}}
{{if .FailureClasses}}<table id="failure-classes"><tr><th>class</th><th class="num">samples</th></tr>
{{range .FailureClasses}}<tr><td>{{index . 0}}</td><td class="num">{{index . 1}}</td></tr>{{end}}</table>{{end}}
{{if .FirstFailures}}<h3>First failures{{if .MoreFailures}} (the first {{len .FirstFailures}} of {{.MoreFailures}}){{end}}</h3><table id="first-failures"><tr><th>sample</th><th>class</th><th>message</th></tr>
{{range .FirstFailures}}<tr><td>{{.Index}}</td><td>{{.Reason}}</td><td class="mono">{{.Message}}</td></tr>{{end}}</table>{{end}}
{{if .Messages}}<h3>LoadGen errors and warnings</h3><table id="loadgen-messages"><tr><th>key</th><th>message</th><th class="num">times</th></tr>
{{range .Messages}}<tr><td>{{.Key}}</td><td>{{.Text}}</td><td class="num">{{.Count}}</td></tr>{{end}}</table>{{end}}
</section>
<section id="engine"><h2>Engine metrics</h2>
{{if .Engines}}<table id="engine-summary"><tr><th>endpoint</th><th>engine</th><th class="num">max KV cache</th><th class="num">max running</th><th class="num">max waiting</th><th class="num">preemptions</th><th class="num">prefix-cache hits</th><th>scrapes</th></tr>
{{range .Engines}}<tr><td class="mono">{{.Endpoint}}</td>{{if .Available}}<td>{{or .Engine "unknown"}}</td><td class="num">{{pct .MaxKVCacheUsage}}</td><td class="num">{{num .MaxRunning}}</td><td class="num">{{num .MaxWaiting}}</td><td class="num">{{num .Preemptions}}</td><td class="num">{{if .PrefixCacheHits}}{{num .PrefixCacheHits}} tokens{{else if .MaxPrefixCacheHitRate}}{{pct .MaxPrefixCacheHitRate}} max rate{{else}}–{{end}}</td><td>{{.Scrapes}} ({{.Errors}} failed)</td>{{else}}<td colspan="7" class="note">unavailable: {{.Unavailable}}</td>{{end}}</tr>{{end}}</table>
{{if .EngineCharts}}<div class="grid2">{{range .EngineCharts}}<div><h3>{{.Title}}</h3>{{.Chart}}</div>{{end}}</div>{{end}}
{{else}}<p class="empty">No engine_metrics.jsonl in this run's directory.</p>{{end}}
</section>
<div class="grid2">
<section id="facts"><h2>Run</h2><table class="kv">{{range .Facts}}<tr><td>{{index . 0}}</td><td class="mono">{{index . 1}}</td></tr>{{end}}</table></section>
<section id="settings"><h2>LoadGen settings used</h2><table class="kv">{{range .Settings}}<tr><td>{{index . 0}}</td><td class="mono">{{index . 1}}</td></tr>{{end}}</table></section>
</div>
</main>
<footer>mlperf-go · {{.Schema}} · from {{range $i, $s := .Sources}}{{if $i}}, {{end}}{{$s}}{{end}}</footer>
</body></html>
`))
