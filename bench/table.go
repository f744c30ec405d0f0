package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
)

// Row is one line of the comparison table: a load point of one workload,
// with each target's requests per second.
type Row struct {
	// PromptTokens and OutputTokens are the mean per request (over the
	// targets that ran the point), PreviousTurns the workload's
	// multi-turn setting (-1: mixed), Concurrency the cap (0: none) and
	// Label the load point.
	PromptTokens, OutputTokens float64
	PreviousTurns              int
	Concurrency                int
	Label                      string
	// QPS is completed requests per second by target name, Goodput
	// those meeting every SLO (when the runs had objectives).
	QPS, Goodput map[string]float64
}

// Rows groups runs into table rows by workload and load point, in the
// order they first appear.
func Rows(res []*Results) []Row {
	var rows []Row
	at := map[string]int{}
	counts := map[string]int{}
	for _, r := range res {
		mt := 0
		if r.Workload != nil {
			mt = r.Workload.MultiTurn
		}
		for _, run := range r.Runs {
			key := fmt.Sprintf("%d|%s", mt, run.Label)
			i, ok := at[key]
			if !ok {
				i = len(rows)
				at[key] = i
				rows = append(rows, Row{PreviousTurns: mt, Concurrency: run.Load.Concurrency, Label: run.Label, QPS: map[string]float64{}, Goodput: map[string]float64{}})
			}
			row := &rows[i]
			n := float64(counts[key])
			row.PromptTokens = (row.PromptTokens*n + run.MeanPromptTokens) / (n + 1)
			row.OutputTokens = (row.OutputTokens*n + run.MeanOutputTokens) / (n + 1)
			counts[key]++
			row.QPS[run.Target] = run.RequestThroughput
			if r.SLO != nil {
				row.Goodput[run.Target] = run.RequestGoodput
			}
		}
	}
	return rows
}

// targetNames lists the targets of rows, first-seen order.
func targetNames(res []*Results) []string {
	var names []string
	seen := map[string]bool{}
	for _, r := range res {
		for _, run := range r.Runs {
			if !seen[run.Target] {
				seen[run.Target] = true
				names = append(names, run.Target)
			}
		}
	}
	return names
}

// WriteComparison writes the DashInfer-style table (Comparison) as
// Markdown, and under it the notes that explain it (ComparisonNotes).
func WriteComparison(w io.Writer, res []*Results) {
	head, rows := Comparison(res)
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat(" :---: |", len(head)))
	for _, cells := range rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	if notes := ComparisonNotes(res); len(notes) > 0 {
		fmt.Fprintln(w)
		for _, n := range notes {
			fmt.Fprintf(w, "Note: %s\n", n)
		}
	}
}

// Comparison is the DashInfer-style table, its header and rows of cells:
// prompt and output tokens, previous turns, concurrency, each target's
// QPS ("x" where a target did not run the point), the speedups
// (speedups), and each target's goodput where the runs had --slo
// objectives.
func Comparison(res []*Results) (head []string, rows [][]string) {
	names := targetNames(res)
	table := Rows(res)
	pairs, _ := speedups(res, table)
	slo := false
	for _, r := range res {
		slo = slo || r.SLO != nil
	}
	head = []string{"Prompt Tokens (avg)", "Output Tokens (avg)", "# Previous Turns", "#Concurrent", "Load"}
	for _, n := range names {
		head = append(head, n+" QPS")
	}
	for _, p := range pairs {
		head = append(head, fmt.Sprintf("Speedup (%s/%s)", p.other, p.base))
	}
	if slo {
		for _, n := range names {
			head = append(head, n+" goodput")
		}
	}
	for _, r := range table {
		prev := fmt.Sprint(r.PreviousTurns)
		if r.PreviousTurns < 0 {
			prev = "replay"
		}
		conc := fmt.Sprint(r.Concurrency)
		if r.Concurrency == 0 {
			conc = "∞"
		}
		cells := []string{fmt.Sprintf("%.0f", r.PromptTokens), fmt.Sprintf("%.0f", r.OutputTokens), prev, conc, r.Label}
		for _, n := range names {
			if q, ok := r.QPS[n]; ok {
				cells = append(cells, fmt.Sprintf("%.2f", q))
			} else {
				cells = append(cells, "x")
			}
		}
		for _, p := range pairs {
			cells = append(cells, p.cell(r))
		}
		if slo {
			for _, n := range names {
				if g, ok := r.Goodput[n]; ok {
					cells = append(cells, fmt.Sprintf("%.2f", g))
				} else {
					cells = append(cells, "x")
				}
			}
		}
		rows = append(rows, cells)
	}
	return head, rows
}

// speedup is a Speedup column: other's QPS over base's, row by row.
type speedup struct{ base, other string }

// cell is the speedup at row r, or why there is none: a target that did
// not run the point, or a base that completed nothing.
func (p speedup) cell(r Row) string {
	base, okBase := r.QPS[p.base]
	q, ok := r.QPS[p.other]
	switch {
	case !ok && !okBase:
		return "– (not run)"
	case !okBase:
		return "– (base not run)"
	case !ok:
		return "– (" + p.other + " not run)"
	case base == 0:
		return "– (base QPS 0)"
	}
	return fmt.Sprintf("%.2f", q/base)
}

// speedups are the table's Speedup columns: every target over the first,
// as DashInfer's table has them, and each results' own targets over its
// first, so compared results each keep theirs. A pair that ran no load
// point in common (a concurrency sweep against a rate sweep) gets no
// column but a note saying so (the second value).
func speedups(res []*Results, rows []Row) ([]speedup, []string) {
	names := targetNames(res)
	var candidates []speedup
	for i := 1; i < len(names); i++ {
		candidates = append(candidates, speedup{names[0], names[i]})
	}
	for _, r := range res {
		own := targetNames([]*Results{r})
		for i := 1; i < len(own); i++ {
			n := own[i]
			if p := (speedup{own[0], n}); !slices.Contains(candidates, p) {
				candidates = append(candidates, p)
			}
		}
	}
	var pairs []speedup
	var notes []string
	for _, p := range candidates {
		var base, other []string
		shared := false
		for _, r := range rows {
			_, b := r.QPS[p.base]
			_, o := r.QPS[p.other]
			shared = shared || (b && o)
			if b {
				base = append(base, r.Label)
			}
			if o {
				other = append(other, r.Label)
			}
		}
		if shared {
			pairs = append(pairs, p)
			continue
		}
		notes = append(notes, fmt.Sprintf("no speedup of %s over %s: they ran no load point in common (%s against %s)",
			p.other, p.base, strings.Join(other, ", "), strings.Join(base, ", ")))
	}
	return pairs, notes
}

// ComparisonNotes explain the comparison table: the speedups it cannot
// show (speedups), and why Prompt Tokens (avg) is more than the length a
// drawn workload asked for.
func ComparisonNotes(res []*Results) []string {
	_, notes := speedups(res, Rows(res))
	for _, r := range res {
		a := r.Workload.askedPrompt()
		if a == nil || len(r.Runs) == 0 || math.Round(r.Runs[0].MeanPromptTokens) == float64(a.Length) {
			continue
		}
		note := fmt.Sprintf("Prompt Tokens (avg) is the server's count of each whole prompt, not the %d %s of text asked (%s): "+
			"the API wraps the text (a chat template's role markers and system prompt, a BOS token)", a.Length, a.Unit, a.Flags)
		if r.Workload.MultiTurn > 0 {
			note += ", later turns carry the earlier ones"
		}
		if r.Runs[0].MeanImages > 0 {
			note += ", images count their tokens"
		}
		if a.Unit == "words" {
			note += ", and a word is about a token, not exactly one (--tokenizer makes the text exact)"
		}
		if !slices.Contains(notes, note) {
			notes = append(notes, note)
		}
	}
	return notes
}

// WriteSummary writes each run's figures, as vllm bench serve prints
// them, one block per run.
func WriteSummary(w io.Writer, res *Results) {
	for _, r := range res.Runs {
		fmt.Fprintf(w, "%s\n", center(fmt.Sprintf(" %s @ %s ", r.Target, r.Label), 60, '='))
		line := func(k string, v any) { fmt.Fprintf(w, "%-40s %v\n", k, v) }
		line("Successful requests:", r.Completed)
		line("Failed requests:", r.Failed)
		if r.Skipped > 0 {
			line("Skipped turns (earlier turn failed):", r.Skipped)
		}
		line("Benchmark duration (s):", fmt.Sprintf("%.2f", r.DurationS))
		line("Total input tokens:", r.PromptTokens)
		line("Total generated tokens:", r.OutputTokens)
		line("Request throughput (req/s):", fmt.Sprintf("%.2f", r.RequestThroughput))
		if res.SLO != nil {
			line("Request goodput (req/s):", fmt.Sprintf("%.2f", r.RequestGoodput))
		}
		line("Output token throughput (tok/s):", fmt.Sprintf("%.2f", r.OutputThroughput))
		line("Total token throughput (tok/s):", fmt.Sprintf("%.2f", r.TotalTokenThroughput))
		line("Peak concurrent requests:", r.MaxConcurrent)
		if r.ReasoningRequests > 0 {
			line("Reasoning tokens:", r.ReasoningTokens)
			line("Requests that reasoned:", r.ReasoningRequests)
			if r.ReasoningUncounted > 0 {
				line("  reasoning not counted (not streamed):", r.ReasoningUncounted)
			}
		}
		if c := r.PrefixCache; c != nil {
			switch {
			case c.HitRate != nil:
				line("Prefix cache hit rate (engine):", fmt.Sprintf("%.1f%% (%.0f of %.0f prompt tokens)", 100**c.HitRate, *c.HitTokens, *c.QueryTokens))
			default:
				for _, e := range c.Endpoints {
					if e.GaugeHitRate != nil {
						line("Prefix cache hit rate (engine gauge):", fmt.Sprintf("%.1f%% at the end (%s: its recent requests')", 100**e.GaugeHitRate, e.Endpoint))
					}
				}
			}
			line("Prefix cache hit rate (workload):", fmt.Sprintf("%.1f%% (%d of %d prompt tokens repeated)", 100*c.ImpliedHitRate, c.ImpliedHitTokens, c.PromptTokens))
		}
		for _, m := range latencies(r) {
			if m.d.Count == 0 {
				continue
			}
			line(fmt.Sprintf("Mean %s (ms):", m.name), fmt.Sprintf("%.2f", m.d.Mean))
			line(fmt.Sprintf("Median %s (ms):", m.name), fmt.Sprintf("%.2f", m.d.Median))
			keys := make([]string, 0, len(m.d.Percentiles))
			for k := range m.d.Percentiles {
				keys = append(keys, k)
			}
			sort.Slice(keys, func(i, j int) bool { return pval(keys[i]) < pval(keys[j]) })
			for _, k := range keys {
				line(fmt.Sprintf("P%s %s (ms):", k[1:], m.name), fmt.Sprintf("%.2f", m.d.Percentiles[k]))
			}
		}
		for _, g := range []struct {
			title string
			parts []Part
		}{{"Per host:", r.Hosts}, {"Per endpoint:", r.Endpoints}} {
			if len(g.parts) == 0 {
				continue
			}
			fmt.Fprintln(w, g.title)
			for _, p := range g.parts {
				fmt.Fprintf(w, "  %-38s %d completed, %d failed, %.2f req/s, %.2f out tok/s, TTFT p50 %.2f ms, E2EL p50 %.2f ms\n",
					p.Name, p.Completed, p.Failed, p.RequestThroughput, p.OutputThroughput, p.TTFT.Median, p.E2E.Median)
			}
		}
		if len(r.Failures) > 0 {
			line("Failures by reason:", r.Failures)
		}
	}
}

// namedDist is a latency distribution and its name in the summary.
type namedDist struct {
	name string
	d    Dist
}

// latencies are a run's latency distributions as the summary prints them:
// vllm bench serve's, then the reasoning's where some answer reasoned.
func latencies(r RunResult) []namedDist {
	out := []namedDist{{"TTFT", r.TTFT}, {"TPOT", r.TPOT}, {"ITL", r.ITL}, {"E2EL", r.E2EL}}
	for _, m := range []struct {
		name string
		d    *Dist
	}{{"TTFAT", r.TTFAT}, {"reasoning TPOT", r.ReasoningTPOT}, {"answer TPOT", r.AnswerTPOT}} {
		if m.d != nil {
			out = append(out, namedDist{m.name, *m.d})
		}
	}
	return out
}

func pval(k string) float64 {
	var v float64
	fmt.Sscan(k[1:], &v)
	return v
}

func center(s string, n int, c byte) string {
	if len(s) >= n {
		return s
	}
	l := (n - len(s)) / 2
	return strings.Repeat(string(c), l) + s + strings.Repeat(string(c), n-len(s)-l)
}

// LabelTargets tells apart runs of different results that share a target
// name (two runs of "vllm", before and after a change), which the table
// would otherwise merge into one column: such a target becomes "NAME
// (SOURCE)", SOURCE being the results' sources[i] (their folder, say), or
// "NAME #i" where sources do not tell them apart.
func LabelTargets(res []*Results, sources []string) {
	in := map[string]map[int]bool{}
	for i, r := range res {
		for _, run := range r.Runs {
			if in[run.Target] == nil {
				in[run.Target] = map[int]bool{}
			}
			in[run.Target][i] = true
		}
	}
	distinct := len(sources) == len(res)
	seen := map[string]bool{}
	for _, s := range sources {
		distinct = distinct && s != "" && !seen[s]
		seen[s] = true
	}
	for i, r := range res {
		for k := range r.Runs {
			name := r.Runs[k].Target
			if len(in[name]) < 2 {
				continue
			}
			if distinct {
				r.Runs[k].Target = fmt.Sprintf("%s (%s)", name, sources[i])
			} else {
				r.Runs[k].Target = fmt.Sprintf("%s #%d", name, i+1)
			}
		}
	}
}

// WorkloadMismatches says which results ran other requests than the
// first's (another kind, source or draw), whose rows then compare
// different work: one line each, naming both.
func WorkloadMismatches(res []*Results, sources []string) []string {
	name := func(i int) string {
		if i < len(sources) && sources[i] != "" {
			return sources[i]
		}
		return fmt.Sprintf("results #%d", i+1)
	}
	describe := func(w *Workload) string {
		if w == nil {
			return "an unknown workload"
		}
		facts, _ := json.Marshal(w.Facts)
		return fmt.Sprintf("%s %s %s", w.Kind, w.Source, facts)
	}
	var out []string
	for i := 1; i < len(res); i++ {
		a, b := describe(res[0].Workload), describe(res[i].Workload)
		if a != b {
			out = append(out, fmt.Sprintf("%s and %s ran different workloads (%s; %s): their rows compare different requests", name(0), name(i), strings.TrimSpace(a), strings.TrimSpace(b)))
		}
	}
	return out
}
