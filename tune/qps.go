package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/mlperf-go/mlperf-go/loadgen"
)

// QPSSearch configures SearchQPS. Zero values take the defaults stated.
type QPSSearch struct {
	// Start is the first QPS tried. Required.
	Start float64
	// Ceiling, if above Start, is the QPS tried second when Start is
	// VALID: a rate the system is not expected to sustain, such as its
	// Offline throughput. 0: none, the search doubles.
	Ceiling float64
	// TrialDuration is each trial's min_duration. Required.
	TrialDuration time.Duration
	// TrialMinQueries is each trial's min_query_count (default
	// DefaultTrialMinQueries): LoadGen's early stopping cannot pass on
	// fewer, so a trial lasts TrialDuration or until it issued these,
	// whichever is longer.
	TrialMinQueries int
	// MaxTrials bounds the number of trials (default DefaultMaxTrials).
	MaxTrials int
	// Tolerance ends the search once the lowest INVALID QPS is within
	// this fraction above the highest VALID one (default
	// DefaultTolerance).
	Tolerance float64
}

// Defaults of QPSSearch and SweepSearch.
const (
	// DefaultTrialMinQueries: with no query over its latency limit,
	// LoadGen's Server early stopping needs 459 queries at the 99th
	// percentile and 99% confidence (0.99^459 < 0.01); 1000 still passes
	// with two queries over it.
	DefaultTrialMinQueries = 1000
	// DefaultMaxTrials: from an Offline-derived start, the ceiling and four
	// bisections reach a 2.5% bracket in six trials; ten leave room for a
	// start far off.
	DefaultMaxTrials = 10
	// DefaultTolerance: 5%, about what a one-minute trial can resolve
	// above capacity at LLM latency limits of a few seconds.
	DefaultTolerance = 0.05
)

// growth is how far past the highest VALID QPS the search looks while it
// has no INVALID one: doubling, as LoadGen's own find-peak-performance
// does; past a Ceiling that proved VALID (a Server faster than its
// Offline run is unexpected, so it cannot be far), a quarter.
const (
	growth            = 2.0
	growthPastCeiling = 1.25
)

// qpsDigits is the significant digits of the QPS a trial tries: the value
// tried is the one printed and written to user.conf, exactly.
const qpsDigits = 4

// QPSResult is what SearchQPS found.
type QPSResult struct {
	// Best is the highest QPS whose trial was VALID (0: none was).
	Best float64 `json:"best"`
	// InvalidAbove is the lowest QPS above Best whose trial was INVALID
	// (0: none tried).
	InvalidAbove float64 `json:"invalid_above,omitempty"`
	// Converged says InvalidAbove is within Tolerance of Best; false when
	// MaxTrials ran out first.
	Converged bool    `json:"converged"`
	Tolerance float64 `json:"tolerance"`
	// Recommended is the QPS to run at: Best, or KeptUp when the trial at
	// Best fell behind its schedule (it was VALID only for being short, so
	// a full run at Best would likely be INVALID). RecommendedWhy says
	// which and why, for the user.
	Recommended    float64 `json:"recommended"`
	RecommendedWhy string  `json:"recommended_why"`
	// UserConf is the user.conf line setting Recommended, e.g.
	// "llama3_1-8b.Server.target_qps = 123.4".
	UserConf string `json:"user_conf,omitempty"`
	// BestFellBehind is Trial.FellBehind of the trial at Best: above 0,
	// that trial was VALID only for being short, and KeptUp is the highest
	// VALID QPS whose trial kept up with its schedule (0: none).
	BestFellBehind float64 `json:"best_fell_behind,omitempty"`
	KeptUp         float64 `json:"kept_up,omitempty"`
}

// ErrNoValidTrial is wrapped by SearchQPS's error when no trial was VALID.
var ErrNoValidTrial = errors.New("no trial was VALID")

// ErrLatencyFloor is wrapped (with ErrNoValidTrial) by SearchQPS's error
// when it stopped halving because the latency over its limit did not
// come down with the load (see latencyNotLoad): no QPS would be VALID.
var ErrLatencyFloor = errors.New("the endpoint's own latency at light load is over the limit")

// SearchQPS searches the highest Server target QPS whose trial is VALID.
// It tries s.Start; while it has no VALID trial it halves (and gives up
// when halving left the latency over its limit where it was: see
// latencyNotLoad), while it has no
// INVALID one it tries s.Ceiling, then grows; then it bisects between the
// highest VALID and the lowest INVALID QPS until they are within
// s.Tolerance. It stops after s.MaxTrials trials. Each trial runs at the
// QPS for s.TrialDuration (and at least s.TrialMinQueries queries); a trial
// at QPS C(1+e), e above the system's capacity C, builds a queue of about
// e*TrialDuration of waiting by its end, so the search only tells such a
// rate from C when that wait breaks the latency limit: trials much longer
// than the limit resolve finer.
func SearchQPS(ctx context.Context, ts *Trials, s QPSSearch) (QPSResult, error) {
	if ts.Base.Scenario != loadgen.Server {
		return QPSResult{}, fmt.Errorf("tune: a QPS search runs the Server scenario (or Interactive), not %s", ts.Base.Scenario)
	}
	if s.Start <= 0 || math.IsInf(s.Start, 0) || math.IsNaN(s.Start) {
		return QPSResult{}, fmt.Errorf("tune: the first QPS must be positive, not %g", s.Start)
	}
	if s.TrialDuration <= 0 {
		return QPSResult{}, fmt.Errorf("tune: the trial duration must be positive, not %v", s.TrialDuration)
	}
	if s.TrialMinQueries <= 0 {
		s.TrialMinQueries = DefaultTrialMinQueries
	}
	if s.MaxTrials <= 0 {
		s.MaxTrials = DefaultMaxTrials
	}
	if s.Tolerance == 0 {
		s.Tolerance = DefaultTolerance
	}
	if s.Tolerance < 0.001 || s.Tolerance >= 1 {
		return QPSResult{}, fmt.Errorf("tune: the tolerance must be a fraction in [0.001, 1), not %g", s.Tolerance)
	}
	if err := ts.begin("server-qps", ts.Base.SubmissionScenario()); err != nil {
		return QPSResult{}, err
	}
	ts.describe = func(t Trial) string { return t.qpsLine(s.MaxTrials) }
	res := QPSResult{Tolerance: s.Tolerance}
	var lowestInvalid Trial // the INVALID trial at res.InvalidAbove
	// The ceiling is tried as rounded, like every QPS, so that the search
	// knows it when it has tried it.
	s.Ceiling = roundSig(s.Ceiling, qpsDigits)
	ts.say(s.plan())
	ceilingTried := s.Ceiling <= 0
	q := roundSig(s.Start, qpsDigits)
	for n := 1; n <= s.MaxTrials; n++ {
		// The loaded set is cut to the trial's queries: mlperf.conf's
		// sample_concatenate_permutation (the LLM benchmarks') pads a
		// Server run to whole passes over the loaded set, which would make
		// every trial issue the whole official sample count (13,368 for
		// llama3_1-8b: minutes at tens of QPS, whatever TrialDuration).
		queries := s.trialQueries(q)
		t, err := ts.run(ctx, fmt.Sprintf("trial-%02d-qps-%s", n, FormatQPS(q)), []string{
			"target_qps=" + FormatQPS(q),
			fmt.Sprintf("min_duration=%d", s.TrialDuration.Milliseconds()),
			fmt.Sprintf("min_query_count=%d", queries),
			fmt.Sprintf("performance_sample_count_override=%d", queries),
		}, 0, q)
		if err != nil {
			return res, ts.finishQPS(res, err)
		}
		if q >= s.Ceiling {
			ceilingTried = true
		}
		if t.Valid() {
			if q > res.Best {
				res.Best, res.BestFellBehind = q, t.FellBehind()
			}
			if t.FellBehind() == 0 {
				res.KeptUp = max(res.KeptUp, q)
			}
		} else if res.InvalidAbove == 0 || q < res.InvalidAbove {
			if res.Best == 0 && res.InvalidAbove > 0 && latencyNotLoad(lowestInvalid, t) {
				res.InvalidAbove = q
				l, h := t.Latency, lowestInvalid.Latency
				return res, ts.finishQPS(res, fmt.Errorf("%w: %w: halving the load from %s to %s QPS left the %s at %.4g ms, then %.4g ms, over its %.4g ms limit, so no lower QPS would be VALID (logs in %s); make the deployment faster for this limit (its batching, parallelism or model settings) before searching a QPS",
					ErrNoValidTrial, ErrLatencyFloor, FormatQPS(lowestInvalid.TargetQPS), FormatQPS(q), l.Name, h.ValueMs, l.ValueMs, l.LimitMs, t.Dir))
			}
			res.InvalidAbove, lowestInvalid = q, t
		}
		next, why, done := nextQPS(res, s, ceilingTried)
		ts.say(s.nextLine(n, next, why, done))
		if done {
			res.Converged = true
			break
		}
		q = next
	}
	if res.Best == 0 {
		low := lowestInvalid
		return res, ts.finishQPS(res, fmt.Errorf("%w: the lowest QPS tried, %s, was %s (%s; logs in %s)",
			ErrNoValidTrial, FormatQPS(low.TargetQPS), low.Outcome, low.Reason, low.Dir))
	}
	// The key is the model name LoadGen reads the run under, which a
	// variant may share with its base benchmark (qwen3-vl Interactive).
	res.Recommended, res.RecommendedWhy = recommend(res)
	res.UserConf = fmt.Sprintf("%s.%s.target_qps = %s", ts.Base.Benchmark.LoadGenModel(), ts.Base.Scenario, FormatQPS(res.Recommended))
	return res, ts.finishQPS(res, nil)
}

// qpsLine is a Server trial's progress line: its QPS, verdict and deciding
// latency, and why it is not VALID or fell behind its schedule.
func (t Trial) qpsLine(maxTrials int) string {
	lat := "no latency logged"
	if t.Latency != nil {
		lat = t.Latency.String()
	}
	line := fmt.Sprintf("trial %d/%d: %8.4g QPS  %-7s  %s", t.N, maxTrials, t.TargetQPS, t.Outcome, lat)
	if t.Reason != "" {
		line += "  (" + t.Reason + ")"
	}
	if b := t.FellBehind(); b > 0 && t.Valid() {
		line += fmt.Sprintf("  (completions fell %.1f%% behind the schedule: the queue was still growing)", 100*b)
	}
	return fmt.Sprintf("%s  [%.4g samples/s, %.1fs]", line, t.SamplesPerSecond, t.Seconds)
}

// lightLoadDrop is how much lower, at least, a trial's deciding latency
// must be at half the QPS for the search to go on halving (see
// latencyNotLoad).
const lightLoadDrop = 0.10

// latencyNotLoad reports whether halving the load (higher, then lower:
// two INVALID trials, the second at half the QPS, no sample failed) left
// the latency that broke its limit nearly where it was. A queue would
// not: above capacity C a trial's queue grows with q - C, so at q it
// grows more than twice as fast as at q/2 (and at q/2 <= C not at all).
// The latency is then the endpoint's own, and lower QPS would only make
// longer trials (each runs at least TrialMinQueries queries: 1,000 at 1
// QPS is 17 minutes) that fail alike. (Trial.FellBehind cannot tell: an
// LLM's completions trail a trial's schedule by their whole latency,
// whatever the load.)
func latencyNotLoad(higher, lower Trial) bool {
	h, l := higher.Latency, lower.Latency
	return h != nil && l != nil && h.Name == l.Name && h.Over() && l.Over() &&
		lower.Failed == 0 && l.ValueMs >= (1-lightLoadDrop)*h.ValueMs
}

// recommend picks the QPS to write into user.conf, and says why: the highest
// VALID one, unless its trial fell behind its schedule; then the highest
// VALID one that kept up, which a full run can hold.
func recommend(res QPSResult) (float64, string) {
	switch {
	case res.BestFellBehind == 0:
		return res.Best, "the highest VALID target QPS"
	case res.KeptUp > 0:
		return res.KeptUp, fmt.Sprintf("the highest VALID target QPS whose trial kept up with its schedule (the trial at %s fell %.1f%% behind: VALID only for being short)",
			FormatQPS(res.Best), 100*res.BestFellBehind)
	}
	return res.Best, fmt.Sprintf("the highest VALID target QPS, though its trial fell %.1f%% behind its schedule and no VALID trial kept up: lengthen --trial-duration before trusting it",
		100*res.BestFellBehind)
}

// nextQPS picks the next QPS to try and says why, or says the search has
// converged and why.
func nextQPS(res QPSResult, s QPSSearch, ceilingTried bool) (next float64, why string, done bool) {
	lo, hi := res.Best, res.InvalidAbove
	switch {
	case lo == 0:
		next, why = hi/2, "no trial VALID yet: half the lowest INVALID QPS, "+FormatQPS(hi)
	case hi == 0 && !ceilingTried && s.Ceiling > lo:
		next, why = s.Ceiling, "no trial INVALID yet: the Offline throughput"
	case hi == 0 && s.Ceiling > 0 && lo >= s.Ceiling:
		next, why = lo*growthPastCeiling, "no trial INVALID yet: a quarter above "+FormatQPS(lo)+", VALID at or above the Offline throughput"
	case hi == 0:
		next, why = lo*growth, "no trial INVALID yet: twice the highest VALID QPS, "+FormatQPS(lo)
	default:
		if (hi-lo)/hi <= s.Tolerance {
			return 0, fmt.Sprintf("VALID at %s and INVALID at %s are within the tolerance %g", FormatQPS(lo), FormatQPS(hi), s.Tolerance), true
		}
		next, why = (lo+hi)/2, "midway between VALID at "+FormatQPS(lo)+" and INVALID at "+FormatQPS(hi)
	}
	next = roundSig(next, qpsDigits)
	// A bracket the rounding cannot split further is as narrow as the
	// search can make it.
	if lo > 0 && hi > 0 && (next <= lo || next >= hi) {
		return 0, fmt.Sprintf("VALID at %s and INVALID at %s: %d significant digits split them no further", FormatQPS(lo), FormatQPS(hi), qpsDigits), true
	}
	return next, why, false
}

// scheduleMargin is how many standard deviations of LoadGen's Poisson
// schedule a trial's query count allows past QPS x TrialDuration, so that
// its last query is scheduled after TrialDuration: else LoadGen, padding
// to whole passes over the loaded set (sample_concatenate_permutation),
// would add another pass and double the trial.
const scheduleMargin = 4

// trialQueries is how many queries a trial at q issues: TrialMinQueries,
// or QPS x TrialDuration and a margin for the schedule's randomness
// (scheduleMargin), whichever is more. SearchQPS makes it the trial's
// min_query_count and its loaded set, so LoadGen issues exactly these,
// each sample once, with or without sample_concatenate_permutation.
func (s QPSSearch) trialQueries(q float64) int {
	mean := q * s.TrialDuration.Seconds()
	return max(s.TrialMinQueries, int(math.Ceil(mean+scheduleMargin*math.Sqrt(mean))))
}

// TrialLength estimates how long a trial at q issues queries (its queries
// at q per second), for the user to plan the search's time on; loading
// and the last answers come on top. TrialMinQueries 0 means its default.
func (s QPSSearch) TrialLength(q float64) time.Duration {
	if s.TrialMinQueries <= 0 {
		s.TrialMinQueries = DefaultTrialMinQueries
	}
	return time.Duration(float64(s.trialQueries(q)) / q * float64(time.Second)).Round(100 * time.Millisecond)
}

// plan says, before the first trial, what the search will do and what it
// costs: a trial lasts its queries at its QPS (TrialLength), not
// TrialDuration, when TrialMinQueries is more, and the search's trials
// stay at or above half the start unless no trial there is VALID.
func (s QPSSearch) plan() string {
	start := roundSig(s.Start, qpsDigits)
	ifValid, _, _ := nextQPS(QPSResult{Best: start}, s, s.Ceiling <= 0)
	ifInvalid, _, _ := nextQPS(QPSResult{InvalidAbove: start}, s, false)
	half := roundSig(start/2, qpsDigits)
	first, low := s.TrialLength(start), s.TrialLength(half)
	total := first + time.Duration(s.MaxTrials-1)*max(first, low)
	return fmt.Sprintf("tune: Server search: the first trial at %s QPS; if it is VALID the next at %s, if INVALID at %s; "+
		"then it halves while no trial is VALID, grows while none is INVALID, and bisects until the highest VALID and the lowest INVALID QPS are within %g; at most %d trials\n"+
		"tune: each trial issues max(--trial-min-queries %d, QPS x --trial-duration %s and %d standard deviations of the random schedule) queries, each sample once "+
		"(its loaded set is cut to them, so mlperf.conf's sample_concatenate_permutation does not pad it to the whole dataset), and lasts as long as they take at its QPS: "+
		"about %s at %s QPS (%d queries), %s at %s QPS (%d queries), loading and the last answers on top; %d trials take about %s if the QPS stays at or above %s",
		FormatQPS(start), FormatQPS(ifValid), FormatQPS(ifInvalid), s.Tolerance, s.MaxTrials,
		s.TrialMinQueries, s.TrialDuration, scheduleMargin,
		first, FormatQPS(start), s.trialQueries(start), low, FormatQPS(half), s.trialQueries(half), s.MaxTrials, total.Round(time.Second), FormatQPS(half))
}

// nextLine says, after a trial, what the search does next and why, and
// what that trial costs.
func (s QPSSearch) nextLine(n int, next float64, why string, done bool) string {
	switch {
	case done:
		return "  done: " + why
	case n >= s.MaxTrials:
		return fmt.Sprintf("  --max-trials %d ran out (next would have been %s QPS: %s)", s.MaxTrials, FormatQPS(next), why)
	}
	return fmt.Sprintf("  next: trial %d at %s QPS (%s), about %s (%d queries)", n+1, FormatQPS(next), why, s.TrialLength(next), s.trialQueries(next))
}

// finishQPS records the result in tune.json; err is the search's error,
// joined with a failure to write the record.
func (ts *Trials) finishQPS(res QPSResult, err error) error {
	ts.summary.QPS = &res
	return errors.Join(err, ts.write())
}

// roundSig rounds q to digits significant digits.
func roundSig(q float64, digits int) float64 {
	if q <= 0 {
		return q
	}
	p := math.Pow(10, float64(digits)-math.Ceil(math.Log10(q)))
	return math.Round(q*p) / p
}

// FormatQPS writes a QPS as user.conf and folder names carry it: the
// shortest decimal that reads back the same.
func FormatQPS(q float64) string {
	return strconv.FormatFloat(q, 'f', -1, 64)
}
