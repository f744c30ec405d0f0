package qwen36

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mlperf-go/mlperf-go/score/bfcl"
	"github.com/mlperf-go/mlperf-go/score/bfcl/pyval"
)

// officialTaken are the samples the reference takes from each subset of
// bfcl-eval 2026.3.23 (995 in all); Synth keeps their proportions.
var officialTaken = map[string]int{
	"irrelevance": 24, "live_irrelevance": 88, "live_multiple": 105, "live_parallel": 16,
	"live_parallel_multiple": 24, "live_simple": 25, "multiple": 124, "parallel": 124,
	"parallel_multiple": 124, "simple_java": 62, "simple_javascript": 31, "simple_python": 248,
}

// Synth writes a synthetic accuracy set of n samples in the layout of the
// wheel's bfcl_eval/data folder (BFCL_v4_<subset>.json and
// possible_answer/BFCL_v4_<subset>.json, one JSON object a line) into dir:
// every subset, sized so that the reference's sampling takes n samples in
// the official proportions, with functions of every BFCL type of its
// language and unique questions. The same seed writes the same bytes.
func Synth(dir string, n int, seed uint64) ([]string, error) {
	if n < 12 {
		return nil, fmt.Errorf("qwen3.6-27b synth: %d samples is fewer than one per subset (12)", n)
	}
	if err := os.MkdirAll(filepath.Join(dir, "possible_answer"), 0o755); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x51a7))
	shares := synthShares(n)
	var files []string
	for _, subset := range sortedSubsets() {
		total := subsetTotal(subset, shares[subset])
		var qs, as []string
		for i := 0; i < total; i++ {
			q, a, err := synthSample(rng, subset, i)
			if err != nil {
				return nil, err
			}
			qs, as = append(qs, q), append(as, a)
		}
		written, err := writeLines(filepath.Join(dir, fileOf(subset)), qs)
		if err != nil {
			return nil, err
		}
		files = append(files, written)
		if bfcl.CategoryOf(subset) != "hallucination" {
			if written, err = writeLines(filepath.Join(dir, filepath.FromSlash(answersOf(subset))), as); err != nil {
				return nil, err
			}
			files = append(files, written)
		}
	}
	return files, nil
}

// synthShares splits n samples over the subsets in the official
// proportions (exactly the official counts for 995) by largest remainder
// (ties in subset order), then moves one sample to each empty subset from
// the largest, so there is one of each and they sum to n.
func synthShares(n int) map[string]int {
	subsets := sortedSubsets()
	shares := map[string]int{}
	type frac struct {
		subset string
		rem    int
	}
	var fracs []frac
	given := 0
	for _, s := range subsets {
		q := officialTaken[s] * n
		shares[s] = q / Samples
		given += q / Samples
		fracs = append(fracs, frac{s, q % Samples})
	}
	sort.SliceStable(fracs, func(a, b int) bool { return fracs[a].rem > fracs[b].rem })
	for i := 0; i < n-given; i++ {
		shares[fracs[i].subset]++
	}
	for _, s := range subsets {
		if shares[s] == 0 {
			largest := subsets[0]
			for _, x := range subsets {
				if shares[x] > shares[largest] {
					largest = x
				}
			}
			shares[largest]--
			shares[s] = 1
		}
	}
	return shares
}

func sortedSubsets() []string {
	var out []string
	for _, c := range bfcl.Categories {
		out = append(out, c.Subsets...)
	}
	return out
}

// subsetTotal is a subset size from which the reference's sampling takes
// exactly k samples.
func subsetTotal(subset string, k int) int {
	if k <= subsetFloor {
		return k
	}
	pct := samplePct[bfcl.CategoryOf(subset)]
	for t := subsetFloor + 1; ; t++ {
		if max(1, int(float64(t*pct)/100)) == k {
			return t
		}
	}
}

func writeLines(path string, lines []string) (string, error) {
	return path, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}

// synthParam is one parameter kind a synthetic function may take: its BFCL
// type (and item type), and a value.
type synthParam struct {
	typ, items string
	value      func(r *rand.Rand) pyval.Value
}

func intVal(r *rand.Rand) pyval.Value   { return pyval.Int(int64(r.IntN(1000))) }
func floatVal(r *rand.Rand) pyval.Value { return pyval.Float(float64(r.IntN(1000)) + 0.5) }
func boolVal(r *rand.Rand) pyval.Value  { return pyval.Bool(r.IntN(2) == 1) }
func strVal(r *rand.Rand) pyval.Value {
	words := []string{"London", "São Paulo", "New York, NY", "it's", "kilograms", "Z-9", "東京", "a/b"}
	return pyval.Str(words[r.IntN(len(words))])
}

// paramKinds are the parameter kinds per language.
var paramKinds = map[bfcl.Language][]synthParam{
	bfcl.Python: {
		{"string", "", strVal}, {"integer", "", intVal}, {"float", "", floatVal}, {"boolean", "", boolVal},
		{"array", "integer", func(r *rand.Rand) pyval.Value { return pyval.List(intVal(r), intVal(r)) }},
		{"array", "string", func(r *rand.Rand) pyval.Value { return pyval.List(strVal(r)) }},
		{"dict", "", func(r *rand.Rand) pyval.Value { return pyval.Dict("unit", strVal(r), "count", intVal(r)) }},
		{"any", "", strVal}, {"tuple", "integer", func(r *rand.Rand) pyval.Value { return pyval.List(intVal(r), intVal(r)) }},
	},
	bfcl.Java: {
		{"String", "", strVal}, {"integer", "", intVal}, {"long", "", intVal}, {"boolean", "", boolVal},
		{"double", "", floatVal}, {"float", "", floatVal}, {"any", "", strVal},
		{"ArrayList", "String", func(r *rand.Rand) pyval.Value { return pyval.List(pyval.Str("alpha"), pyval.Str("beta")) }},
		{"Array", "integer", func(r *rand.Rand) pyval.Value { return pyval.List(intVal(r), intVal(r)) }},
		{"HashMap", "", func(r *rand.Rand) pyval.Value { return pyval.Dict("key", pyval.Str("value")) }},
	},
	bfcl.JavaScript: {
		{"String", "", strVal}, {"integer", "", intVal}, {"float", "", floatVal}, {"Boolean", "", boolVal},
		{"Bigint", "", intVal}, {"any", "", strVal},
		{"array", "integer", func(r *rand.Rand) pyval.Value { return pyval.List(intVal(r), intVal(r)) }},
		{"dict", "", func(r *rand.Rand) pyval.Value { return pyval.Dict("mode", pyval.Str("fast")) }},
	},
}

// synthFunction makes a function definition and a maker of expected
// calls of it (fresh values each).
func synthFunction(r *rand.Rand, subset string, i, j int) (pyval.Value, func() pyval.Value) {
	kinds := paramKinds[bfcl.LanguageOf(subset)]
	name := fmt.Sprintf("synth_%s.op%d_%d", strings.ReplaceAll(subset, "_", ""), i, j)
	python := bfcl.LanguageOf(subset) == bfcl.Python
	var props pyval.DictBuilder
	var required []pyval.Value
	var chosen []synthParam
	var optional []bool
	for p := 0; p < 1+r.IntN(3); p++ {
		k := kinds[r.IntN(len(kinds))]
		pname := fmt.Sprintf("p%d_%s", p, strings.ToLower(k.typ))
		spec := pyval.Dict("type", pyval.Str(k.typ), "description", pyval.Str("The "+pname+" parameter."))
		if k.items != "" {
			spec = set(spec, "items", pyval.Dict("type", pyval.Str(k.items)))
		}
		if k.typ == "dict" && python {
			spec = set(spec, "properties", pyval.Dict("unit", pyval.Dict("type", pyval.Str("string")), "count", pyval.Dict("type", pyval.Str("integer"))))
		}
		_ = props.Set(pyval.Str(pname), spec)
		opt := p > 0 && r.IntN(3) == 0
		if !opt {
			required = append(required, pyval.Str(pname))
		}
		chosen, optional = append(chosen, k), append(optional, opt)
	}
	def := pyval.Dict("name", pyval.Str(name), "description", pyval.Str(fmt.Sprintf("Synthetic function %d of %s sample %d.", j, subset, i)),
		"parameters", pyval.Dict("type", pyval.Str("dict"), "properties", props.Dict(), "required", pyval.List(required...)))
	makeCall := func() pyval.Value {
		var answer pyval.DictBuilder
		for p, k := range chosen {
			v := k.value(r)
			if k.typ == "dict" || k.typ == "HashMap" {
				// a dict parameter's possible value lists each key's values
				var d pyval.DictBuilder
				for n, key := range v.Keys {
					_ = d.Set(key, pyval.List(v.Vals[n]))
				}
				v = d.Dict()
			}
			possible := pyval.List(v)
			if optional[p] {
				possible = pyval.List(v, pyval.Str(""))
			}
			_ = answer.Set(props.Dict().Keys[p], possible)
		}
		var call pyval.DictBuilder
		_ = call.Set(pyval.Str(name), answer.Dict())
		return call.Dict()
	}
	return def, makeCall
}

// synthSample writes one question line and its possible-answer line.
func synthSample(r *rand.Rand, subset string, i int) (string, string, error) {
	id := fmt.Sprintf("%s_%d", subset, i)
	nFuncs, nCalls := 1, 1
	switch {
	case strings.Contains(subset, "parallel_multiple"):
		nFuncs, nCalls = 2+r.IntN(2), 2
	case strings.Contains(subset, "parallel"):
		nFuncs, nCalls = 1, 2+r.IntN(2)
	case strings.Contains(subset, "multiple"):
		nFuncs = 2 + r.IntN(3)
	}
	var funcs, truth []pyval.Value
	for j := 0; j < nFuncs; j++ {
		def, makeCall := synthFunction(r, subset, i, j)
		funcs = append(funcs, def)
		switch {
		case nFuncs == 1:
			for c := 0; c < nCalls; c++ {
				truth = append(truth, makeCall())
			}
		case j < nCalls:
			truth = append(truth, makeCall())
		}
	}
	question := pyval.List(pyval.List(pyval.Dict("role", pyval.Str("user"), "content",
		pyval.Str(fmt.Sprintf("[%s] Synthetic request %d: please do the task with the values given.", id, i)))))
	q, err := pyval.DumpsUnicode(pyval.Dict("id", pyval.Str(id), "question", question, "function", pyval.List(funcs...)))
	if err != nil {
		return "", "", err
	}
	a, err := pyval.DumpsUnicode(pyval.Dict("id", pyval.Str(id), "ground_truth", pyval.List(truth...)))
	return q, a, err
}
