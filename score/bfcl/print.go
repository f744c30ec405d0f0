package bfcl

import (
	"strconv"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// DatasetName is the accuracy dataset's name in the reference's
// accuracy_results.json ("bfcl_v4::function_calling").
const DatasetName = "bfcl_v4::function_calling"

// Entry returns the reference's accuracy_results.json entry for the BFCL
// dataset, as json.dumps(entry, indent=2) writes it, with the fields a
// LoadGen log determines: dataset_name, extractor, ground_truth_column,
// score, unit_samples, num_repeats, total_samples, complete,
// dataset_type, breakdown and response_counts (the run's duration and
// the tokenizer's output lengths are the harness's, not the scorer's).
func (r *Result) Entry() string {
	var b strings.Builder
	b.WriteString("{\n")
	field := func(indent, key, value string, last bool) {
		b.WriteString(indent + jsonStr(key) + ": " + value)
		if !last {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	in := "  "
	field(in, "dataset_name", jsonStr(DatasetName), false)
	field(in, "extractor", jsonStr("FunctionCallExtractor"), false)
	field(in, "ground_truth_column", jsonStr("ground_truth"), false)
	field(in, "score", pyfloat.JSON(r.Score), false)
	field(in, "unit_samples", strconv.Itoa(r.IssuedSamples), false)
	field(in, "num_repeats", "1", false)
	field(in, "total_samples", strconv.Itoa(r.IssuedSamples), false)
	field(in, "complete", "true", false)
	field(in, "dataset_type", jsonStr("accuracy"), false)
	field(in, "breakdown", r.breakdown(in), false)
	field(in, "response_counts", r.responseCounts(in), true)
	b.WriteString("}")
	return b.String()
}

// EntryWithoutCounts is Entry as the golden vectors hold it (the
// reference computes response_counts outside the scorer).
func (r *Result) entryWithoutCounts() string {
	e := r.Entry()
	i := strings.LastIndex(e, ",\n  \"response_counts\"")
	return e[:i] + "\n}"
}

func jsonStr(s string) string {
	out, _ := pyval.Dumps(pyval.Str(s))
	return out
}

// breakdown writes score_breakdown() nested at indent.
func (r *Result) breakdown(indent string) string {
	in := indent + "  "
	var b strings.Builder
	b.WriteString("{\n")
	line := func(key, value string, last bool) {
		b.WriteString(in + jsonStr(key) + ": " + value)
		if !last {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	line("overall_accuracy", pyfloat.JSON(r.Overall), false)
	line("normalized_single_turn_score", pyfloat.JSON(r.Normalized), false)
	line("category_scores", namedObject(r.Categories, in), false)
	line("subset_scores", namedObject(r.Subsets, in), false)
	line("unscored_subsets", "{}", false)
	line("total_samples", strconv.Itoa(r.TotalSamples), false)
	line("issued_samples", strconv.Itoa(r.IssuedSamples), true)
	b.WriteString(indent + "}")
	return b.String()
}

// namedObject writes an ordered {name: value} object at indent, "{}" when
// empty (json.dumps(indent=2) writes an empty dict so).
func namedObject(ns []Named, indent string) string {
	if len(ns) == 0 {
		return "{}"
	}
	in := indent + "  "
	var b strings.Builder
	b.WriteString("{\n")
	for i, n := range ns {
		b.WriteString(in + jsonStr(n.Name) + ": " + pyfloat.JSON(n.Value))
		if i+1 < len(ns) {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent + "}")
	return b.String()
}

// responseCounts is _phase_response_counts: issued, scored (a non-empty
// answer), empty, missing.
func (r *Result) responseCounts(indent string) string {
	scored, empty, missing := 0, 0, 0
	for i := range r.Answered {
		switch {
		case !r.Answered[i]:
			missing++
		case r.Empty[i]:
			empty++
		default:
			scored++
		}
	}
	in := indent + "  "
	return "{\n" + in + `"issued": ` + strconv.Itoa(r.IssuedSamples) + ",\n" + in + `"scored": ` + strconv.Itoa(scored) + ",\n" +
		in + `"empty": ` + strconv.Itoa(empty) + ",\n" + in + `"missing": ` + strconv.Itoa(missing) + "\n" + indent + "}"
}
