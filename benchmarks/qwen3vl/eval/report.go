package eval

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
)

// AccuracyLine is the line the submission checker reads from accuracy.txt:
// Python's json.dumps({"f1": f1}, sort_keys=True), the float written as
// Python's repr (shortest round-trip digits, e.g. {"f1": 0.7903} or
// {"f1": 1e-05}).
func AccuracyLine(f1 float64) string {
	return `{"f1": ` + pyfloat.JSON(f1) + `}`
}

// AccuracyTxt returns accuracy.txt as the reference evaluator writes it:
//
//	Results
//
//	{"f1": X}
//
//	hash=<sha256 hex of the {"f1": X} line>
//
// with no final newline. If accLog is not nil, the line the official
// tools/submission/truncate_accuracy_log.py appends is added as well,
// "\nhash=<sha256 hex of the accuracy log>\n", so the file reads as it would
// after truncation (which itself only recomputes and appends that line).
func AccuracyTxt(f1 float64, accLog io.Reader) (string, error) {
	line := AccuracyLine(f1)
	sum := sha256.Sum256([]byte(line))
	var b strings.Builder
	b.WriteString("Results\n\n")
	b.WriteString(line)
	b.WriteString("\n\nhash=")
	b.WriteString(hex.EncodeToString(sum[:]))
	if accLog != nil {
		h := sha256.New()
		if _, err := io.Copy(h, accLog); err != nil {
			return "", fmt.Errorf("q3vl: hashing the accuracy log: %w", err)
		}
		b.WriteString("\nhash=")
		b.WriteString(hex.EncodeToString(h.Sum(nil)))
		b.WriteString("\n")
	}
	return b.String(), nil
}

// Table renders the reference's result message: the count of unparsable
// responses and tabulate's "fancy_grid" table with floats in Python's "g"
// format (6 significant digits) aligned on the decimal point.
func (r Result) Table() string {
	headers := []string{"Results", "Category hierarchical F1 Score", "Brand F1 Score", "Is_secondhand F1 Score"}
	rows := [][]string{
		{"From accuracy file", pyG(r.CategoryF1), pyG(r.BrandScore), pyG(r.IsSecondhandF1)},
		{"Random selection", pyG(r.RandomCategoryF1), pyG(r.RandomBrandScore), pyG(r.RandomIsSecondhandF1)},
	}
	// Decimal alignment of numeric columns (tabulate numalign="decimal").
	for c := 1; c < len(headers); c++ {
		intW, fracW := 0, 0
		for _, row := range rows {
			i, f := splitDecimal(row[c])
			intW, fracW = max(intW, len(i)), max(fracW, len(f))
		}
		for _, row := range rows {
			i, f := splitDecimal(row[c])
			row[c] = strings.Repeat(" ", intW-len(i)) + i + f + strings.Repeat(" ", fracW-len(f))
		}
	}
	width := make([]int, len(headers))
	for c, h := range headers {
		width[c] = utf8.RuneCountInString(h) + 2 // tabulate's MIN_PADDING for headers
		for _, row := range rows {
			width[c] = max(width[c], utf8.RuneCountInString(row[c]))
		}
	}
	cell := func(s string, c int) string {
		pad := strings.Repeat(" ", width[c]-utf8.RuneCountInString(s))
		if c == 0 {
			return " " + s + pad + " "
		}
		return " " + pad + s + " "
	}
	rule := func(l, fill, mid, rr string) string {
		parts := make([]string, len(width))
		for c, w := range width {
			parts[c] = strings.Repeat(fill, w+2)
		}
		return l + strings.Join(parts, mid) + rr + "\n"
	}
	line := func(cells []string) string {
		parts := make([]string, len(cells))
		for c, s := range cells {
			parts[c] = cell(s, c)
		}
		return "│" + strings.Join(parts, "│") + "│\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d responses cannot be parsed against the expected schema. Results:\n", r.Unparsable)
	b.WriteString(rule("╒", "═", "╤", "╕"))
	b.WriteString(line(headers))
	b.WriteString(rule("╞", "═", "╪", "╡"))
	b.WriteString(line(rows[0]))
	b.WriteString(rule("├", "─", "┼", "┤"))
	b.WriteString(line(rows[1]))
	b.WriteString(strings.TrimSuffix(rule("╘", "═", "╧", "╛"), "\n"))
	return b.String()
}

// Summary states, beyond the reference's output, the exact f1 written to
// accuracy.txt, whether it meets the checker's target, and log coverage.
func (r Result) Summary() string {
	var b strings.Builder
	verdict := "PASS"
	if !r.MeetsTarget() {
		verdict = "FAIL"
	}
	fmt.Fprintf(&b, "f1 (category hierarchical) = %s, target %s: %s\n", pyfloat.JSON(r.CategoryF1), pyfloat.JSON(r.Target), verdict)
	fmt.Fprintf(&b, "%d log entries for a dataset of %d samples", r.Samples, r.DatasetSize)
	if r.Complete() {
		b.WriteString(", each logged once\n")
	} else {
		fmt.Fprintf(&b, ": %d samples missing%s, %d logged more than once%s (a submission's accuracy run must cover the whole dataset)\n",
			len(r.Missing), firstFew(r.Missing), len(r.Duplicated), firstFew(r.Duplicated))
	}
	return b.String()
}

func firstFew(idx []int) string {
	if len(idx) == 0 {
		return ""
	}
	const n = 5
	s := fmt.Sprint(idx[:min(n, len(idx))])
	if len(idx) > n {
		s = s[:len(s)-1] + " …]"
	}
	return " " + s
}

// pyG is Python's format(x, "g"), as tabulate's default floatfmt.
func pyG(x float64) string { return fmt.Sprintf("%.6g", x) }

// splitDecimal splits a formatted number at its decimal point (or before an
// exponent), as tabulate aligns on it.
func splitDecimal(s string) (intPart, rest string) {
	if i := strings.IndexAny(s, ".e"); i >= 0 {
		return s[:i], s[i:]
	}
	return s, ""
}
