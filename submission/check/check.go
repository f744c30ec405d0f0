// Package check is a preflight over a packaged MLPerf Inference submission:
// Check replays the official checker's rules for a round
// (mlcommons/inference tools/submission/submission_checker), plus a few
// stricter ones, and says for each problem what is wrong and how to fix it.
package check

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/record"
	"github.com/mlperf-go/mlperf-go/submission"
	"github.com/mlperf-go/mlperf-go/submission/internal/treefs"
)

// checkLinks reports the symbolic links of a submitter's tree that would
// not survive the trip to MLCommons. The official checker reads through
// links (submission_checker/utils.py: list_dir and list_files filter
// os.listdir with os.path.isdir and os.path.isfile, which follow them), so
// a linked folder inside the tree is read as if it were there, and Check
// does the same. But the tree travels as a git repository or a tarball
// (tools/submission/pack_submission.sh: tar without -h), both of which
// keep a link as a link: one leading out of the tree, or nowhere, arrives
// broken (the checker of v5.x, submission_checker_old.py, refused "broken
// symbolic links" outright). A link loop is named too.
func (c *checker) checkLinks(dir string) {
	const fix = "copy the files into the tree in place of the link (cp -rL), or package again with mlperf-go submission package"
	dirwalk.Within(dir, func(p string, _ fs.DirEntry, err error) error { //nolint:errcheck // fn returns no error
		if err != nil {
			c.add(p, fix, "%v", err)
		}
		return nil
	})
}

// Problem is one thing Check found wrong in a submission tree.
type Problem struct {
	// File is the file or directory at fault.
	File string
	// Msg says what is wrong.
	Msg string
	// Fix says what to do about it.
	Fix string
}

// String renders the problem as "file: message (fix: …)" for the CLI.
func (p Problem) String() string {
	return fmt.Sprintf("%s: %s (fix: %s)", p.File, p.Msg, p.Fix)
}

// checker accumulates problems.
type checker struct {
	round    *submission.Round
	problems []Problem
}

func (c *checker) add(file, fix, format string, args ...any) {
	c.problems = append(c.problems, Problem{File: file, Msg: fmt.Sprintf(format, args...), Fix: fix})
}

// Check is a preflight over a packaged submission tree: dir is the directory
// holding closed/ (or open/, network/), or one division directory itself. It
// applies the official checker's rules for the round ("v6.0" or "v6.1") that
// matter for mlperf-go's benchmarks, reading detail logs as the checker does,
// and returns every problem found (none for a tree the checker would accept).
//
// Rules applied (checker source in parentheses, all under
// tools/submission/submission_checker/):
//   - tree: src/ (measurements_checks.py), systems/<system>.json for each
//     results/<system>/ (loader.py), documentation/ (the submission rules);
//     known benchmark directories; required scenarios present and no unknown
//     scenario directories (loader.py check_scenarios; closed division).
//   - per scenario: README.md, user.conf non-empty, measurements.json with its
//     five fields (measurements_checks.py).
//   - performance/run_1 (performance_check.py): detail log parses; seeds equal
//     the round's; effective_scenario matches the directory (Interactive is
//     logged as Server); effective_min_duration_ms ≥ 600,000;
//     effective_performance_sample_count ≥ the benchmark's; Offline
//     effective_samples_per_query ≥ the dataset size (closed) and
//     effective_min_query_count ≥ min-queries; Server/Interactive
//     early_stopping_met and effective_target_latency_ns ≤ the latency
//     constraint; LLMs requested_use_token_latencies and p99 TTFT/TPOT below
//     the limits; the result metric present.
//   - accuracy/ (accuracy_check.py): accuracy.txt lines meet the bounds and a
//     hash= line exists; mlperf_log_accuracy.json ≤ 10,240 bytes; no LoadGen
//     errors; the run covered the whole accuracy set.
//   - compliance, closed division (compliance_check.py): TEST06
//     verify_accuracy.txt first-token (True or Skipped), EOS and sample-length
//     lines; TEST07 verify_accuracy.txt and TEST09 verify_output_len.txt say
//     TEST PASS.
//   - systems JSON: submission.ValidateSystem.
//
// Stricter than the official checker, on purpose: a performance summary that
// says "Result is : INVALID" (or result_validity not VALID) is refused, as are
// LoadGen errors in the performance log, "TODO" template placeholders,
// accuracy logs not from AccuracyOnly runs, leftover .previous-* directories
// and symbolic links that lead out of the submitter's tree or nowhere
// (checkLinks), and Interactive runs are held to the Interactive TTFT/TPOT
// and latency limits (the checker, seeing effective_scenario Server,
// applies Server's).
func Check(dir string, round string) []Problem {
	r, err := submission.LookupRound(round)
	if err != nil {
		return []Problem{{File: dir, Msg: err.Error(), Fix: "pass --round v6.0 or v6.1"}}
	}
	c := &checker{round: r}
	divisions := map[string]string{} // division dir → division name
	for _, d := range []string{"closed", "open", "network"} {
		if treefs.IsDir(filepath.Join(dir, d)) {
			divisions[filepath.Join(dir, d)] = d
		}
	}
	if len(divisions) == 0 {
		base := filepath.Base(filepath.Clean(dir))
		switch {
		case slices.Contains([]string{"closed", "open", "network"}, base):
			divisions[dir] = base
		case !treefs.IsDir(dir):
			c.add(dir, "pass the folder `mlperf-go submission package --out` wrote (OUT), or OUT/closed", "no such folder")
			return c.problems
		case isResultsTree(dir):
			c.add(dir, "package it first: mlperf-go submission package --submitter ORG --results "+dir+" --systems SYSTEMS --out OUT, then check OUT",
				"a results tree (<system>/<benchmark>/<Scenario>/, as run --results-dir files runs), not a packaged submission")
			return c.problems
		default:
			c.add(dir, "pass the folder `mlperf-go submission package --out` wrote (OUT), or OUT/closed", "no closed/, open/ or network/ division directory")
			return c.problems
		}
	}
	var divDirs []string
	for d := range divisions {
		divDirs = append(divDirs, d)
	}
	sort.Strings(divDirs)
	for _, d := range divDirs {
		if len(treefs.ListDirs(d)) == 0 {
			c.add(d, "package the results into it (mlperf-go submission package) or remove the empty division", "division %s holds no submitter directory: there is nothing to check", divisions[d])
		}
		for _, sub := range treefs.ListDirs(d) {
			c.checkSubmitter(filepath.Join(d, sub), divisions[d], sub)
		}
	}
	return c.problems
}

// isResultsTree reports whether dir looks like a results tree: a system
// folder holding a benchmark's folder.
func isResultsTree(dir string) bool {
	for _, system := range treefs.ListDirs(dir) {
		for _, bench := range treefs.ListDirs(filepath.Join(dir, system)) {
			if _, err := submission.CanonicalBenchmark(bench); err == nil {
				return true
			}
		}
	}
	return false
}

func (c *checker) checkSubmitter(dir, division, submitter string) {
	c.checkLinks(dir)
	for _, need := range []string{"src", "systems", "documentation", "results"} {
		if !treefs.IsDir(filepath.Join(dir, need)) {
			c.add(filepath.Join(dir, need), "re-run mlperf-go submission package, or create it", "required directory %s/ is missing", need)
		}
	}
	results := filepath.Join(dir, "results")
	// An empty tree has nothing wrong in it to find, and nothing right:
	// say so rather than "no problems found". (With systems in results/,
	// each one's missing JSON is named below.)
	if treefs.IsDir(results) && len(treefs.ListDirs(results)) == 0 {
		c.add(results, "file runs with mlperf-go run --results-dir and package them (mlperf-go submission package)", "results/ holds no system: there is no result to check")
		if sys := filepath.Join(dir, "systems"); treefs.IsDir(sys) && len(treefs.ListFiles(sys)) == 0 {
			c.add(sys, "write one systems JSON per system (mlperf-go submission system-template gives a start)", "systems/ holds no systems JSON")
		}
	}
	for _, system := range treefs.ListDirs(results) {
		sysJSON := filepath.Join(dir, "systems", system+".json")
		systemType := ""
		b, err := os.ReadFile(sysJSON)
		if err != nil {
			c.add(sysJSON, "write it (mlperf-go submission system-template gives a start) and package again", "systems JSON for results/%s is missing (the checker crashes without it)", system)
		} else {
			for _, msg := range submission.ValidateSystem(b, division, submitter) {
				c.add(sysJSON, "edit the systems JSON", "%s", msg)
			}
			systemType = submission.SystemType(b)
		}
		c.checkSystem(filepath.Join(results, system), division, systemType)
	}
}

func (c *checker) checkSystem(dir, division, systemType string) {
	for _, bdir := range treefs.ListDirs(dir) {
		path := filepath.Join(dir, bdir)
		bench, err := submission.CanonicalBenchmark(bdir)
		if err != nil {
			c.add(path, "remove it or rename it to the checker's benchmark name", "unknown benchmark directory %q", bdir)
			continue
		}
		rules := c.round.Benchmarks[bench]
		if rules == nil { // a benchmark of another round (v6.0's llama2-70b-99)
			c.add(path, "remove it: the round has no such benchmark", "%s is not a benchmark of round %s", bench, c.round.Name)
			continue
		}
		scens := treefs.ListDirs(path)
		if division == "closed" || division == "network" {
			c.checkScenarioSet(path, rules, systemType, scens)
		}
		for _, s := range scens {
			scen, err := submission.CanonicalScenario(s)
			if err != nil {
				if division == "open" { // closed/network: reported by checkScenarioSet
					c.add(filepath.Join(path, s), "remove it or rename it to a scenario name", "%q is not a scenario directory", s)
				}
				continue
			}
			c.checkScenario(filepath.Join(path, s), division, rules, scen)
		}
	}
}

// checkScenarioSet replays loader.py check_scenarios.
func (c *checker) checkScenarioSet(path string, rules *submission.BenchmarkRules, systemType string, dirs []string) {
	if systemType == "" {
		return // the systems JSON problem is reported already
	}
	key := systemType
	if key == "edge,datacenter" {
		key = "datacenter,edge"
	}
	req, ok := rules.Required[key]
	if !ok {
		c.add(path, "submit this benchmark with a datacenter system (system_type \"datacenter\")", "%s is not in the %s suite of round %s", rules.Name, systemType, c.round.Name)
		return
	}
	opt := rules.Optional[key]
	have := map[string]bool{}
	for _, d := range dirs {
		have[strings.ToLower(d)] = true
	}
	for _, s := range req {
		if !have[strings.ToLower(s)] {
			c.add(filepath.Join(path, s), "run and file the "+s+" scenario", "required scenario %s is missing", s)
		}
	}
	if slices.Contains(opt, benchmark.ScenarioInteractive) && slices.Contains(opt, benchmark.ScenarioServer) && !have["interactive"] && !have["server"] {
		c.add(path, "run and file a Server or an Interactive scenario", "one of Interactive or Server is required")
	}
	for _, d := range dirs {
		if !oneOfFold(d, req) && !oneOfFold(d, opt) {
			fix := "remove it"
			if strings.HasPrefix(d, submission.PreviousPrefix) {
				fix = "remove it: it is a run mlperf-go moved aside, not part of the submission"
			}
			c.add(filepath.Join(path, d), fix, "scenario directory %q is not allowed for %s in round %s (the checker fails the benchmark)", d, rules.Name, c.round.Name)
		}
	}
}

func (c *checker) checkScenario(dir, division string, rules *submission.BenchmarkRules, scen string) {
	for _, f := range []string{"README.md", record.UserConfFile} {
		p := filepath.Join(dir, f)
		st, err := os.Stat(p)
		switch {
		case err != nil:
			c.add(p, "package again (mlperf-go writes it) or add it", "%s is missing", f)
		case st.Size() == 0:
			c.add(p, "fill it in", "%s is empty", f)
		}
	}
	mp := filepath.Join(dir, submission.MeasurementsFile)
	if b, err := os.ReadFile(mp); err != nil {
		c.add(mp, "write it (mlperf-go can generate a template) and package again", submission.MeasurementsFile+" is missing")
	} else {
		for _, msg := range submission.ValidateMeasurements(b) {
			c.add(mp, "edit measurements.json", "%s", msg)
		}
	}
	for _, e := range treefs.ListDirs(dir) {
		if strings.HasPrefix(e, submission.PreviousPrefix) {
			c.add(filepath.Join(dir, e), "remove it: it is an earlier run mlperf-go moved aside", "leftover replaced run in the submission")
		}
	}
	c.checkPerformance(filepath.Join(dir, submission.PerformanceRun), division, rules, scen)
	c.checkAccuracy(filepath.Join(dir, "accuracy"), division, rules, scen)
	if division == "closed" || division == "network" {
		for _, t := range rules.Compliance {
			if t == submission.TEST01 {
				c.checkTEST01Dir(filepath.Join(dir, t), rules, scen)
				continue
			}
			c.checkCompliance(filepath.Join(dir, t), t)
		}
	}
}

func (c *checker) checkPerformance(dir, division string, rules *submission.BenchmarkRules, scen string) {
	const rerun = "fix the run settings and re-run the performance run (mlperf-go run --replace)"
	c.checkRunRecord(dir)
	summary := filepath.Join(dir, mllog.SummaryFile)
	if sum, err := mllog.ReadSummary(summary); err != nil {
		c.add(summary, "file the performance run's LoadGen logs", "%v", err)
	} else if v := sum.Result; v != mllog.ResultValid {
		c.add(summary, "read the summary's reasons (min duration, min queries, latency/early stopping) and re-run with settings that make LoadGen report VALID", "LoadGen reported \"Result is : %s\"; the official checker would not notice, the results review would", v)
	}
	detailPath := filepath.Join(dir, mllog.DetailFile)
	d, err := mllog.ReadDetail(detailPath, mllog.AsChecker)
	if err != nil {
		c.add(detailPath, "file the performance run's LoadGen logs", "cannot read detail log: %v", err)
		return
	}
	if v, ok := d.Text("result_validity"); ok && v != mllog.ResultValid {
		c.add(detailPath, rerun, "result_validity is %q", v)
	}
	if !d.Has("num_errors") {
		c.add(detailPath, "file the whole detail log LoadGen wrote (copy it again), or re-run if the test did not finish",
			"the detail log ends before num_errors, the last value LoadGen logs once a performance test is over (results.cc): the file was cut")
	}
	for _, e := range d.Errors() {
		c.add(detailPath, "investigate the LoadGen error and re-run", "LoadGen logged an error: %s", e)
	}
	if mode, _ := d.Text("effective_test_mode"); mode != "PerformanceOnly" && mode != "SubmissionRun" {
		c.add(detailPath, "file a performance-mode run here", "effective_test_mode is %q, not PerformanceOnly", mode)
	}
	logged, _ := d.Text("effective_scenario")
	if want := submission.LoggedScenario(scen); logged != want {
		c.add(detailPath, "file the run under the scenario it ran", "effective_scenario is %q but the directory is %s (LoadGen logs it as %q)", logged, scen, want)
		return // the remaining rules depend on the scenario
	}
	c.checkSeeds(detailPath, d)
	c.minInt(d, detailPath, "effective_min_duration_ms", submission.MinDurationMS, rerun)
	c.minInt(d, detailPath, "effective_performance_sample_count", rules.PerformanceSampleCount, "do not override performance_sample_count below the benchmark's ("+strconv.FormatInt(rules.PerformanceSampleCount, 10)+")")
	earlyStopping := logged == benchmark.ScenarioServer || logged == benchmark.ScenarioSingleStream || logged == benchmark.ScenarioMultiStream
	if !earlyStopping {
		if mq, ok := rules.MinQueries[logged]; ok {
			c.minInt(d, detailPath, "effective_min_query_count", mq, rerun)
		}
	}
	if logged == benchmark.ScenarioOffline && division == "closed" {
		c.minInt(d, detailPath, "effective_samples_per_query", rules.OfflineMinSamplesPerQuery, "set the Offline expected QPS/sample count so one query carries the whole dataset")
	}
	if earlyStopping {
		if met, err := d.Truth("early_stopping_met"); err != nil || !met {
			res, _ := d.Text("early_stopping_result")
			c.add(detailPath, "run longer or at a lower target QPS", "early stopping condition not met: %s", res)
		}
		limit, ok := rules.LatencyConstraintNS[scen]
		if !ok {
			limit, ok = rules.LatencyConstraintNS[logged]
		}
		if ok {
			if v, err := d.NumberFloat("effective_target_latency_ns"); err != nil {
				c.add(detailPath, rerun, "%v", err)
			} else if v > float64(limit) {
				c.add(detailPath, "use the benchmark's target latency in user.conf", "effective_target_latency_ns %s exceeds the %s limit %d", fmtNum(v), scen, limit)
			}
		}
	}
	if rules.LLM {
		if on, err := d.Truth("requested_use_token_latencies"); err != nil || !on {
			c.add(detailPath, "keep use_token_latencies on (LoadGen's mlperf.conf sets it; do not override it in user.conf)", "use_token_latencies is not enabled, which the checker requires for LLM benchmarks")
		}
		if logged == benchmark.ScenarioServer {
			lim, ok := rules.TokenLimits[scen]
			if !ok {
				lim = rules.TokenLimits[benchmark.ScenarioServer]
			}
			ttft, err1 := d.NumberFloat("result_first_token_99.00_percentile_latency_ns")
			tpot, err2 := d.NumberFloat("result_time_per_output_token_99.00_percentile_ns")
			switch {
			case err1 != nil || err2 != nil:
				c.add(detailPath, rerun, "TTFT or TPOT percentile missing: the run must stream tokens with use_token_latencies")
			case !(ttft < float64(lim.TTFTNS) && tpot < float64(lim.TPOTNS)):
				c.add(detailPath, "lower the target QPS (or tune the server) until p99 TTFT and TPOT are under the limits", "p99 TTFT %s ns and TPOT %s ns must be below %d ns and %d ns for %s", fmtNum(ttft), fmtNum(tpot), lim.TTFTNS, lim.TPOTNS, scen)
			}
		}
	}
	// get_performance_metric_check reads RESULT_FIELD_NEW's field first and
	// the benchmark's overwrite second; a missing one crashes the check.
	for _, field := range []string{submission.BaseResultField(logged), rules.ResultField[logged]} {
		if field == "" {
			continue
		}
		if _, err := d.NumberFloat(field); err != nil {
			c.add(detailPath, rerun, "result metric: %v", err)
		}
	}
}

func (c *checker) checkSeeds(path string, d *mllog.Detail) {
	for _, s := range []struct {
		key  string
		want uint64
	}{
		{"effective_qsl_rng_seed", c.round.QSLSeed},
		{"effective_sample_index_rng_seed", c.round.SampleIndexSeed},
		{"effective_schedule_rng_seed", c.round.ScheduleSeed},
	} {
		got, err := d.Uint(s.key)
		if err != nil || got != s.want {
			n, _ := d.Number(s.key)
			c.add(path, "use the LoadGen release of round "+c.round.Name+" (6.0.16 or later writes v6.1 seeds; 6.0.6–6.0.15 v6.0) and do not set seeds in user.conf", "%s is %s, round %s requires %d", s.key, n, c.round.Name, s.want)
		}
	}
}

func (c *checker) minInt(d *mllog.Detail, path, key string, min int64, fix string) {
	v, err := d.NumberFloat(key)
	if err != nil {
		c.add(path, fix, "%v", err)
		return
	}
	if v < float64(min) {
		c.add(path, fix, "%s is %s, must be at least %d", key, fmtNum(v), min)
	}
}

func (c *checker) checkAccuracy(dir, division string, rules *submission.BenchmarkRules, scen string) {
	rerun := "re-run the accuracy run and the evaluator"
	c.checkRunRecord(dir)
	for _, f := range []string{mllog.SummaryFile, mllog.DetailFile, record.AccuracyTxtFile, mllog.AccuracyFile} {
		if !treefs.Exists(filepath.Join(dir, f)) {
			c.add(filepath.Join(dir, f), rerun, "accuracy run file %s is missing", f)
		}
	}
	txt := filepath.Join(dir, record.AccuracyTxtFile)
	if b, err := os.ReadFile(txt); err == nil {
		problems, hash := rules.JudgeAccuracyTxt(b, scen)
		if division != "open" {
			for _, p := range problems {
				c.add(txt, "reach the accuracy target (closed division) or submit to open", "%s", p)
			}
		}
		if hash == "" {
			c.add(txt, "package with mlperf-go submission package, which truncates the log and appends the hash", "no hash= line (the accuracy log was not truncated by the official procedure)")
		}
	}
	logPath := filepath.Join(dir, mllog.AccuracyFile)
	if st, err := os.Stat(logPath); err == nil && st.Size() > submission.MaxAccuracyLogSize {
		c.add(logPath, "package with mlperf-go submission package, which truncates it", "accuracy log has %d bytes; the limit is %d", st.Size(), submission.MaxAccuracyLogSize)
	}
	detailPath := filepath.Join(dir, mllog.DetailFile)
	d, err := mllog.ReadDetail(detailPath, mllog.AsChecker)
	if err != nil {
		if treefs.Exists(detailPath) {
			c.add(detailPath, rerun, "cannot read detail log: %v", err)
		}
		return
	}
	for _, e := range d.Errors() {
		c.add(detailPath, "investigate the LoadGen error and re-run", "LoadGen logged an error: %s", e)
	}
	if mode, _ := d.Text("effective_test_mode"); mode != "AccuracyOnly" {
		c.add(detailPath, "file an accuracy-mode run here", "effective_test_mode is %q, not AccuracyOnly", mode)
	}
	if logged, _ := d.Text("effective_scenario"); logged != submission.LoggedScenario(scen) {
		c.add(detailPath, "file the run under the scenario it ran", "effective_scenario is %q but the directory is %s", logged, scen)
	}
	want := rules.AccuracySamples(scen)
	key := "effective_accuracy_sample_count"
	if !d.Has(key) {
		key = "qsl_reported_total_count"
	}
	if n, err := d.NumberFloat(key); err != nil || n != float64(want) {
		v, _ := d.Number(key)
		c.add(detailPath, "run accuracy over the whole dataset (no sample count overrides)", "accuracy run covered %s samples (%s); the dataset has %d", v, key, want)
	}
}

func (c *checker) checkCompliance(dir, test string) {
	fix := "run the " + test + " compliance run and its verification (mlperf-go run --compliance " + test + ")"
	if !treefs.IsDir(dir) {
		c.add(dir, fix, "compliance test %s is missing", test)
		return
	}
	c.checkRunRecord(filepath.Join(dir, submission.PerformanceRun))
	switch test {
	case submission.TEST06:
		p := filepath.Join(dir, submission.VerifyAccuracyFile)
		b, err := os.ReadFile(p)
		if err != nil {
			c.add(p, fix, submission.VerifyAccuracyFile+" is missing")
			return
		}
		lines := map[string]bool{}
		for _, l := range strings.Split(string(b), "\n") {
			lines[strings.TrimSpace(l)] = true
		}
		if !lines["First token check pass: True"] && !lines["First token check pass: Skipped"] {
			c.add(p, "make the first streamed token equal the first token of the completed response", "TEST06 first-token check did not pass")
		}
		if !lines["EOS check pass: True"] {
			c.add(p, "strip repeated EOS tokens from responses", "TEST06 EOS check did not pass")
		}
		if !lines["Sample length check pass: True"] {
			c.add(p, "report the token count of exactly the returned tokens", "TEST06 sample length check did not pass")
		}
	case submission.TEST07, submission.TEST09:
		name := submission.VerifyAccuracyFile
		if test == submission.TEST09 {
			name = submission.VerifyOutputLenFile
		}
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil {
			c.add(p, fix, "%s is missing", name)
			return
		}
		if !strings.Contains(string(b), "TEST PASS") {
			c.add(p, "see the verification output; the run must pass before submitting", "%s verification did not pass (no \"TEST PASS\")", test)
		}
	}
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func oneOfFold(s string, list []string) bool {
	for _, l := range list {
		if strings.EqualFold(s, l) {
			return true
		}
	}
	return false
}

// checkRunRecord refuses a run whose mlperf-go run record says samples
// failed or the test was aborted: LoadGen's logs cannot show either (a
// failed sample is completed empty and counts as done). A tree filed by
// filing.FileRun keeps the record; a packaged one has none, and nothing is
// checked then.
func (c *checker) checkRunRecord(dir string) {
	path := filepath.Join(dir, record.File)
	if !treefs.Exists(path) {
		return
	}
	info, err := record.Read(dir)
	if err != nil {
		c.add(path, "re-run, or remove the damaged record", "%v", err)
		return
	}
	if err := info.Submittable(); err != nil {
		c.add(path, "fix the endpoint and re-run this run to its end (mlperf-go run --replace)", "%v", err)
	}
}
