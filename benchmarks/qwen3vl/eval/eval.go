// Package eval scores a qwen3-vl-235b-a22b accuracy run the way the reference
// evaluator does (mlcommons/inference multimodal/qwen3-vl/src/
// mlperf_inf_mm_q3vl/evaluation.py, run_evaluation), re-implemented in Go.
//
// Every response in the accuracy log is validated against the reference's
// ProductMetadata schema (ValidateResponse). A response that does not validate
// is replaced, as the reference does, by a category of padding levels (as many
// as the ground truth has, so it adds to both totals and matches none), a
// padding brand and a random is_secondhand. Then:
//   - category: hierarchical F1, micro-averaged over the whole log — levels
//     split on " > " and stripped (round v6.1 strips the whole path first;
//     see round.V61), the intersection is the common prefix;
//     hP = Σ∩/Σ|pred|, hR = Σ∩/Σ|true|, F1 = 2·hP·hR/(hP+hR). This is the
//     "f1" the submission checker reads.
//   - brand: the fraction of samples whose stripped, lower-cased brand has a
//     rapidfuzz fuzz.ratio strictly above 90 against the ground truth.
//   - is_secondhand: scikit-learn's binary f1_score (positive class True),
//     2·TP/(2·TP+FP+FN), 0 when there is no positive at all.
//   - a "random selection" baseline: a uniformly drawn potential category, a
//     uniformly drawn brand among the log's ground-truth brands, and a coin
//     flip for is_secondhand.
//
// Randomness reproduces NumPy exactly (default_rng(seed) → chunk seeds →
// per-chunk default_rng), see Options. The one row the reference itself
// cannot reproduce is the random brand baseline: it draws from
// list(set(brands)), whose order depends on Python's per-process string hash
// seed; this package draws from the sorted distinct brands instead.
package eval

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
)

// Padding the reference substitutes for an unparsable response
// (evaluation.py _PRED_CATEGORY_PAD, _PRED_BRAND_PAD).
const (
	predCategoryPad   = "<|__PRED_CATEGORY_PAD__|>"
	predBrandPad      = "<|__PRED_BRAND_PAD__|>"
	categorySeparator = " > "
	// brandThreshold is the fuzz.ratio a brand must exceed (strictly).
	brandThreshold = 90
)

// Reference accuracy and the checker's recovery factor
// (tools/submission/submission_checker/constants.py, qwen3-vl-235b-a22b).
const (
	// ReferenceF1 is the reference category F1 for Offline and Server.
	ReferenceF1 = 0.7903
	// ReferenceF1Interactive is the reference category F1 on the
	// Interactive scenario's 8,000-sample subset.
	ReferenceF1Interactive = 0.7878
	// TargetRecovery is the fraction of the reference a submission must reach.
	TargetRecovery = 0.99
)

// Target returns the category F1 the submission checker requires,
// computed as the checker does (a float64 product, 0.782397 for Offline and
// Server; 0.779922 for Interactive).
func Target(interactive bool) float64 {
	ref, rec := ReferenceF1, TargetRecovery
	if interactive {
		ref = ReferenceF1Interactive
	}
	return ref * rec
}

// Truth is the ground truth of one dataset sample, indexed by QSL index.
type Truth struct {
	// Category is ground_truth_category, levels joined by " > ".
	Category string
	// Brand is ground_truth_brand.
	Brand string
	// IsSecondhand is ground_truth_is_secondhand.
	IsSecondhand bool
	// Categories is potential_product_categories, the candidates the random
	// baseline draws from. It must not be empty.
	Categories []string
}

// Options tunes Evaluate. DefaultOptions gives the reference's defaults.
type Options struct {
	// Seed seeds numpy.random.default_rng, as the reference's --random-seed
	// (default 12345).
	Seed uint64
	// Workers is the reference's worker count, min(os.cpu_count(), 4)
	// (default DefaultWorkers(), that count on this machine). It decides how
	// the log is cut into chunks, each with its own generator, so it changes
	// the random draws: use the value of the machine that ran the reference
	// to reproduce its numbers exactly.
	Workers int
	// Round selects the round's scorer, round.V60 or round.V61 (see
	// DefaultRound for ""): they differ in where category paths are
	// stripped.
	Round string
	// Interactive selects the Interactive scenario's target (Target(true)).
	Interactive bool
}

// DefaultOptions returns the reference defaults: seed 12345,
// min(os.cpu_count(), 4) workers, DefaultRound's scorer, Offline/Server
// target.
func DefaultOptions() Options {
	return Options{Seed: 12345, Workers: DefaultWorkers(), Round: DefaultRound}
}

// Invalid describes one response that did not validate against the schema.
type Invalid struct {
	// Entry is the position in the accuracy log, counting from 0.
	Entry int
	// QSLIndex is the sample's dataset index.
	QSLIndex int
	// Reason says why the response was rejected.
	Reason string
	// Response is the response text.
	Response string
}

// Result holds every number the reference prints, plus coverage facts.
type Result struct {
	// Samples is the number of log entries evaluated (duplicates included,
	// as the reference counts them).
	Samples int
	// DatasetSize is len(truth).
	DatasetSize int
	// Unparsable counts responses that failed schema validation.
	Unparsable int
	// Invalid lists those responses in log order.
	Invalid []Invalid
	// CategoryF1 is the category hierarchical F1, the submission's "f1".
	CategoryF1 float64
	// BrandScore is the reference's "Brand F1 Score" (an accuracy).
	BrandScore float64
	// IsSecondhandF1 is the binary F1 of is_secondhand.
	IsSecondhandF1 float64
	// RandomCategoryF1, RandomBrandScore and RandomIsSecondhandF1 are the
	// "Random selection" row.
	RandomCategoryF1, RandomBrandScore, RandomIsSecondhandF1 float64
	// Missing lists dataset indices absent from the log (ascending). The
	// reference does not check coverage; a submission must have none.
	Missing []int
	// Duplicated lists dataset indices logged more than once (ascending);
	// each occurrence is scored, as in the reference.
	Duplicated []int
	// Target is the category F1 the checker requires for the scenario.
	Target float64
	// Entries are the log entries as scored, in log order, for per-sample
	// audits.
	Entries []Entry
}

// Entry is one log entry as the evaluator scored it.
type Entry struct {
	// QSLIndex is the sample's dataset index.
	QSLIndex int
	// Parsed is the response as validated; nil when validation failed and
	// the padded response was scored in its place (Reason says why).
	Parsed *ProductMetadata
	Reason string
	// Category is this entry's part of the hierarchical counts: matching
	// leading levels, predicted levels, true levels.
	Category hierCounts
	// BrandMatch and SecondhandMatch say whether the brand's fuzzy ratio
	// passed the threshold and is_secondhand equals the truth.
	BrandMatch, SecondhandMatch bool
}

// CategoryF1 is the entry's own hierarchical F1 (the corpus F1 sums the
// counts first, so it is not the mean of these).
func (e Entry) CategoryF1() float64 { return e.Category.f1() }

// MeetsTarget reports whether CategoryF1 reaches Target, compared as the
// checker compares float(repr(f1)) >= target.
func (r Result) MeetsTarget() bool { return r.CategoryF1 >= r.Target }

// Complete reports whether every dataset sample was logged exactly once.
func (r Result) Complete() bool { return len(r.Missing) == 0 && len(r.Duplicated) == 0 }

// Evaluate scores entries against truth with DefaultOptions.
func Evaluate(entries []mllog.AccuracyEntry, truth []Truth) (Result, error) {
	return DefaultOptions().Evaluate(entries, truth)
}

// hierCounts accumulates hierarchical precision/recall components.
type hierCounts struct{ inter, pred, true int }

func (h *hierCounts) add(pred, truth string) hierCounts {
	ps := strings.Split(pred, categorySeparator)
	ts := strings.Split(truth, categorySeparator)
	n := 0
	for n < len(ps) && n < len(ts) && pystr.Strip(ps[n]) == pystr.Strip(ts[n]) {
		n++
	}
	h.inter += n
	h.pred += len(ps)
	h.true += len(ts)
	return hierCounts{n, len(ps), len(ts)}
}

// f1 is calculate_hierarchical_f1's final step, in the same float order.
func (h hierCounts) f1() float64 {
	hp, hr := 0.0, 0.0
	if h.pred > 0 {
		hp = float64(h.inter) / float64(h.pred)
	}
	if h.true > 0 {
		hr = float64(h.inter) / float64(h.true)
	}
	if hp+hr == 0 {
		return 0
	}
	return 2 * (hp * hr) / (hp + hr)
}

// binCounts is a binary confusion count with True as the positive class.
type binCounts struct{ tp, fp, fn int }

func (b *binCounts) add(pred, truth bool) {
	switch {
	case pred && truth:
		b.tp++
	case pred:
		b.fp++
	case truth:
		b.fn++
	}
}

// f1 is sklearn's f1_score(average="binary"): 2tp/(true_sum+pred_sum),
// 0 (zero_division="warn") when both sums are 0.
func (b binCounts) f1() float64 {
	den := (b.tp + b.fn) + (b.tp + b.fp)
	if den == 0 {
		return 0
	}
	return float64(2*b.tp) / float64(den)
}

// brandCounts is calculate_brand_f1_score's running tally.
type brandCounts struct {
	match, n int
	buf      []int
}

func (c *brandCounts) add(pred, truth string) bool {
	ok := fuzzRatio(pystr.Lower(pystr.Strip(truth)), pystr.Lower(pystr.Strip(pred)), &c.buf) > brandThreshold
	if ok {
		c.match++
	}
	c.n++
	return ok
}

func (c brandCounts) score() float64 { return float64(c.match) / float64(c.n) }

// Evaluate scores entries against truth (indexed by QSL index) as the
// reference's run_evaluation does. It fails, where the reference would
// crash, on an empty log, a QSL index outside truth, a response that is not
// valid UTF-8 and a sample with no potential categories; errors name the
// log entry and QSL index.
func (o Options) Evaluate(entries []mllog.AccuracyEntry, truth []Truth) (Result, error) {
	if len(entries) == 0 {
		return Result{}, errors.New("q3vl: the accuracy log has no entries (the reference divides by zero here); was the run in accuracy mode?")
	}
	if o.Workers < 1 {
		return Result{}, fmt.Errorf("q3vl: Workers = %d, want ≥ 1 (the reference uses min(os.cpu_count(), 4))", o.Workers)
	}
	strip, err := stripWhole(o.Round)
	if err != nil {
		return Result{}, err
	}
	res := Result{Samples: len(entries), DatasetSize: len(truth), Target: Target(o.Interactive)}
	if res.Missing, res.Duplicated, err = coverage(entries, truth); err != nil {
		return Result{}, err
	}

	// Chunking and seeding as run_evaluation: chunk_size = max(n // cpus, 1),
	// one seed per chunk from the master generator, in chunk order.
	master := newNumpyRNG(o.Seed)
	chunkSize := max(len(entries)/o.Workers, 1)
	var chunkSeeds []uint64
	for start := 0; start < len(entries); start += chunkSize {
		chunkSeeds = append(chunkSeeds, master.seed32())
	}
	t := tally{res: &res, strip: strip, brandSet: make(map[string]struct{})}
	for c, seed := range chunkSeeds {
		local := newNumpyRNG(seed)
		lo := c * chunkSize
		hi := min(lo+chunkSize, len(entries))
		for i := lo; i < hi; i++ {
			if err := t.add(i, entries[i], truth[entries[i].QSLIndex], local); err != nil {
				return Result{}, err
			}
		}
	}
	res.CategoryF1 = t.cat.f1()
	res.IsSecondhandF1 = t.sh.f1()
	res.BrandScore = t.brand.score()
	res.RandomCategoryF1 = t.randCat.f1()
	res.RandomIsSecondhandF1 = t.randSH.f1()
	res.RandomBrandScore = randomBrandScore(master, entries, truth, t.brandSet)
	return res, nil
}

// coverage checks every entry's QSL index is in truth and lists the dataset
// indices absent from the log and those logged more than once.
func coverage(entries []mllog.AccuracyEntry, truth []Truth) (missing, duplicated []int, err error) {
	seen := make([]int32, len(truth))
	for i, e := range entries {
		if e.QSLIndex < 0 || e.QSLIndex >= len(truth) {
			return nil, nil, fmt.Errorf("q3vl: log entry %d (seq_id %d): qsl_idx %d is outside the dataset of %d samples; is this the right dataset split?", i, e.SeqID, e.QSLIndex, len(truth))
		}
		seen[e.QSLIndex]++
	}
	for idx, n := range seen {
		switch {
		case n == 0:
			missing = append(missing, idx)
		case n > 1:
			duplicated = append(duplicated, idx)
		}
	}
	return missing, duplicated, nil
}

// boolChoice is local_rng.choice([True, False]).
var boolChoice = [2]bool{true, false}

// tally accumulates the scores over the log, entry by entry, in log order
// (the chunks' generators are drawn from in that order).
type tally struct {
	res          *Result // gets Unparsable and Invalid
	strip        bool    // the round strips whole category paths
	cat, randCat hierCounts
	sh, randSH   binCounts
	brand        brandCounts
	brandSet     map[string]struct{} // the log's ground-truth brands
}

// add scores log entry i, whose ground truth is gt, drawing from its
// chunk's generator local exactly where the reference does: is_secondhand
// for an unparsable response, then the random baseline's category and
// is_secondhand.
func (t *tally) add(i int, e mllog.AccuracyEntry, gt Truth, local *pcg64) error {
	t.brandSet[gt.Brand] = struct{}{}
	response, ok := decodeUTF8(e.Data)
	if !ok {
		return fmt.Errorf("q3vl: log entry %d (qsl_idx %d): the response is not valid UTF-8 (the reference's bytes.decode(\"utf-8\") fails here)", i, e.QSLIndex)
	}
	gtCategory := gt.Category
	if t.strip {
		gtCategory = pystr.Strip(gtCategory)
	}
	pm, err := ValidateResponse(response)
	if err == nil && t.strip {
		pm.Category = pystr.Strip(pm.Category)
	}
	entry := Entry{QSLIndex: e.QSLIndex}
	if err != nil {
		t.res.Unparsable++
		t.res.Invalid = append(t.res.Invalid, Invalid{Entry: i, QSLIndex: e.QSLIndex, Reason: err.Error(), Response: response})
		pm = paddedResponse(gtCategory, boolChoice[local.index(2)])
		entry.Reason = err.Error()
	} else {
		parsed := pm
		entry.Parsed = &parsed
	}
	entry.Category = t.cat.add(pm.Category, gtCategory)
	t.sh.add(pm.IsSecondhand, gt.IsSecondhand)
	entry.SecondhandMatch = pm.IsSecondhand == gt.IsSecondhand
	entry.BrandMatch = t.brand.add(pm.Brand, gt.Brand)
	t.res.Entries = append(t.res.Entries, entry)
	if len(gt.Categories) == 0 {
		return fmt.Errorf("q3vl: dataset sample %d (log entry %d) has no potential_product_categories; the random baseline needs at least one", e.QSLIndex, i)
	}
	t.randCat.add(gt.Categories[local.index(len(gt.Categories))], gt.Category)
	t.randSH.add(boolChoice[local.index(2)], gt.IsSecondhand)
	return nil
}

// paddedResponse is what the reference scores in place of an unparsable
// response: as many padding levels as the ground truth's category has (so
// it adds to both totals and matches none), a padding brand and a random
// is_secondhand.
func paddedResponse(gtCategory string, isSecondhand bool) ProductMetadata {
	levels := len(strings.Split(gtCategory, categorySeparator))
	return ProductMetadata{
		Category:     strings.Join(slices.Repeat([]string{predCategoryPad}, levels), categorySeparator),
		Brand:        predBrandPad,
		IsSecondhand: isSecondhand,
	}
}

// randomBrandScore is the random baseline's brand score:
// master_rng.choice(list(set(brands)), size=len(log)), drawn from the
// sorted distinct brands (see the package comment).
func randomBrandScore(master *pcg64, entries []mllog.AccuracyEntry, truth []Truth, brandSet map[string]struct{}) float64 {
	brands := make([]string, 0, len(brandSet))
	for b := range brandSet {
		brands = append(brands, b)
	}
	slices.Sort(brands)
	var randBrand brandCounts
	for _, e := range entries {
		randBrand.add(brands[master.index(len(brands))], truth[e.QSLIndex].Brand)
	}
	return randBrand.score()
}
