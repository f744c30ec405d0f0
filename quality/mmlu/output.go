package mmlu

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"
	"unicode/utf8"
)

// answerClip is how many bytes of an answer the CSV and the lists of
// unparseable answers keep: enough to see what the model did.
const answerClip = 300

// clip cuts s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// SamplesHeader is the header row of SamplesFile.
var SamplesHeader = []string{"subject", "index", "subject_index", "expected", "got", "correct", "how", "latency_ms", "error", "answer"}

// WriteSamplesCSV writes one row per sample: subject, index (row in the
// test split), subject_index (row within the subject), expected and got
// letters (got empty when none was read), correct (true/false), how (the
// Extract rule, empty when unparseable or failed), latency_ms (three
// decimals), error (why no answer came) and the answer, clipped to 300
// bytes.
func WriteSamplesCSV(w io.Writer, samples []Sample) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(SamplesHeader); err != nil {
		return err
	}
	for i := range samples {
		s := &samples[i]
		got := ""
		if s.Got != 0 {
			got = string(s.Got)
		}
		err := cw.Write([]string{
			s.Subject, strconv.Itoa(s.Index), strconv.Itoa(s.SubjectIndex),
			string(s.Expected), got, strconv.FormatBool(s.Correct), string(s.How),
			strconv.FormatFloat(float64(s.Latency)/float64(time.Millisecond), 'f', 3, 64),
			clip(s.Error, answerClip), clip(s.Answer, answerClip),
		})
		if err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func (r *Results) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteTable prints the console summary: accuracy per category and per
// subject, then the overall line, unparseable and failed counts, and
// latency.
func (r *Results) WriteTable(w io.Writer) {
	fmt.Fprintf(w, "MMLU, %d-shot, %s via %s (%s)\n", r.Shots, r.Model, r.API, r.PromptFormat)
	fmt.Fprintf(w, "  %-38s %-16s %9s %9s %7s %6s\n", "subject", "category", "accuracy", "correct", "unparsed", "failed")
	for _, t := range r.Subjects {
		fmt.Fprintf(w, "  %-38s %-16s %8.2f%% %4d/%-4d %7d %6d\n", t.Name, t.Category, 100*t.Accuracy, t.Correct, t.Total, t.Unparseable, t.Failed)
	}
	fmt.Fprintln(w)
	for _, t := range append(r.Categories, r.Overall) {
		fmt.Fprintf(w, "  %-55s %8.2f%% %5d/%-5d %5d %6d\n", t.Name, 100*t.Accuracy, t.Correct, t.Total, t.Unparseable, t.Failed)
	}
	fmt.Fprintf(w, "\nLatency (ms): mean %.0f, p50 %.0f, p90 %.0f, p99 %.0f, max %.0f; %d retries; %.1f s\n",
		r.Latency.Mean, r.Latency.P50, r.Latency.P90, r.Latency.P99, r.Latency.Max, r.Retries, r.ElapsedS)
	if n := len(r.Unparsed); n > 0 {
		fmt.Fprintf(w, "%d unparseable answers (counted wrong), e.g. %s #%d: %q\n", n, r.Unparsed[0].Subject, r.Unparsed[0].SubjectIndex, clip(r.Unparsed[0].Answer, 80))
	}
	if n := len(r.FailedRefs); n > 0 {
		fmt.Fprintf(w, "%d questions without an answer (counted wrong), e.g. %s #%d: %s\n", n, r.FailedRefs[0].Subject, r.FailedRefs[0].SubjectIndex, r.FailedRefs[0].Error)
	}
	if r.Stopped != "" {
		fmt.Fprintf(w, "Stopped early: %s\n", r.Stopped)
	}
	fmt.Fprintf(w, "=== MMLU accuracy: %.2f%% (%d/%d) ===\n", 100*r.Accuracy, r.Overall.Correct, r.Overall.Total)
}
