package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/mlperf-go/mlperf-go/loadgen"
)

// SweepSearch configures SweepConcurrency. Zero values take the defaults
// stated.
type SweepSearch struct {
	// Levels are the concurrencies to try, in order; nil tries
	// DoublingLevels(MaxConcurrency) and stops once throughput is flat.
	Levels []int
	// MaxConcurrency ends the default doubling series (default 1024).
	MaxConcurrency int
	// TrialDuration is about how long each trial should take. Required.
	TrialDuration time.Duration
	// Plateau is the fraction of the best throughput a concurrency must
	// reach to be recommended (default DefaultPlateau).
	Plateau float64
}

// DefaultPlateau: the smallest concurrency reaching 95% of the best
// throughput is recommended; the last 5% would cost more requests in
// flight, and so latency, than it is worth.
const DefaultPlateau = 0.95

// samplesPerSlot is the fewest samples a sweep trial issues per request in
// flight, so every slot serves several requests and the ramp-up and the
// tail (the last requests finishing alone) stay a small part of the trial.
const samplesPerSlot = 8

// SweepPoint is the throughput of one concurrency.
type SweepPoint struct {
	Concurrency      int     `json:"concurrency"`
	SamplesPerSecond float64 `json:"samples_per_second"`
	Valid            bool    `json:"valid"`
}

// SweepResult is what SweepConcurrency found.
type SweepResult struct {
	// Points are the concurrencies tried, in order.
	Points []SweepPoint `json:"points"`
	// Best is the highest throughput of a VALID trial; Recommended the
	// smallest concurrency whose VALID trial reached Plateau of it.
	Best        float64 `json:"best_samples_per_second"`
	Recommended int     `json:"recommended_concurrency"`
	Plateau     float64 `json:"plateau"`
}

// DoublingLevels returns 1, 2, 4, … up to max, and max itself.
func DoublingLevels(max int) []int {
	var l []int
	c := 1
	for ; c < max; c *= 2 {
		l = append(l, c)
	}
	return append(l, max)
}

// SweepConcurrency runs a short Offline trial at each concurrency and
// recommends the smallest whose throughput reaches s.Plateau of the best.
// A trial issues about s.TrialDuration's worth of samples at the
// throughput the previous trial suggests (its rate, scaled by the growth
// in concurrency, at most doubled), and at least samplesPerSlot per
// request in flight, from a loaded set of as many samples (fewer if the
// dataset is smaller). A trial with failed samples is listed but never
// recommended. With the default series the sweep stops once two
// successive concurrencies did not raise the best throughput by more than
// 1-s.Plateau.
func SweepConcurrency(ctx context.Context, ts *Trials, s SweepSearch) (SweepResult, error) {
	if ts.Base.Scenario != loadgen.Offline {
		return SweepResult{}, fmt.Errorf("tune: a concurrency sweep runs the Offline scenario, not %s", ts.Base.Scenario)
	}
	if s.TrialDuration <= 0 {
		return SweepResult{}, fmt.Errorf("tune: the trial duration must be positive, not %v", s.TrialDuration)
	}
	if s.Plateau == 0 {
		s.Plateau = DefaultPlateau
	}
	if s.Plateau <= 0 || s.Plateau > 1 {
		return SweepResult{}, fmt.Errorf("tune: the plateau fraction must be in (0, 1], not %g", s.Plateau)
	}
	levels, stopWhenFlat := s.Levels, false
	if len(levels) == 0 {
		if s.MaxConcurrency <= 0 {
			s.MaxConcurrency = 1024
		}
		levels, stopWhenFlat = DoublingLevels(s.MaxConcurrency), true
	}
	for _, c := range levels {
		if c <= 0 {
			return SweepResult{}, fmt.Errorf("tune: concurrency %d: want a positive number of requests in flight", c)
		}
	}
	if err := ts.begin("offline-concurrency", ts.Base.SubmissionScenario()); err != nil {
		return SweepResult{}, err
	}
	ts.describe = Trial.sweepLine
	res := SweepResult{Plateau: s.Plateau}
	var prevRate float64
	var prevC int
	for i, c := range levels {
		n := samplesPerSlot * c
		if prevRate > 0 {
			rate := prevRate * math.Min(float64(c)/float64(prevC), 2)
			n = max(n, int(math.Ceil(rate*s.TrialDuration.Seconds())))
		}
		// LoadGen's Offline query holds whole permutations of the loaded
		// samples (sample_concatenate_permutation in mlperf.conf), so the
		// loaded set is cut to n too: else every trial would issue the
		// whole official sample count.
		t, err := ts.run(ctx, fmt.Sprintf("trial-%02d-concurrency-%d", i+1, c), []string{
			"min_duration=0",
			fmt.Sprintf("min_query_count=%d", n),
			fmt.Sprintf("performance_sample_count_override=%d", n),
		}, c, 0)
		if err != nil {
			return res, ts.finishSweep(res, err)
		}
		res.Points = append(res.Points, SweepPoint{Concurrency: c, SamplesPerSecond: t.SamplesPerSecond, Valid: t.Valid()})
		if !t.Valid() || t.SamplesPerSecond <= 0 {
			continue
		}
		res.Best = max(res.Best, t.SamplesPerSecond)
		prevRate, prevC = t.SamplesPerSecond, c
		if stopWhenFlat && flatLevels(res.Points, s.Plateau) >= 2 {
			break
		}
	}
	if res.Best == 0 {
		return res, ts.finishSweep(res, fmt.Errorf("%w: every concurrency's trial failed or measured no throughput (see %s)", ErrNoValidTrial, ts.Dir))
	}
	for _, p := range res.Points {
		if p.Valid && p.SamplesPerSecond >= s.Plateau*res.Best && (res.Recommended == 0 || p.Concurrency < res.Recommended) {
			res.Recommended = p.Concurrency
		}
	}
	return res, ts.finishSweep(res, nil)
}

// sweepLine is an Offline trial's progress line: its concurrency,
// throughput and verdict.
func (t Trial) sweepLine() string {
	line := fmt.Sprintf("trial %d: concurrency %5d  %10.4g samples/s  %s", t.N, t.Concurrency, t.SamplesPerSecond, t.Outcome)
	if t.Reason != "" {
		line += "  (" + t.Reason + ")"
	}
	return fmt.Sprintf("%s  [%d samples, %.1fs]", line, t.Issued, t.Seconds)
}

// finishSweep records the result in tune.json; err is the sweep's error,
// joined with a failure to write the record.
func (ts *Trials) finishSweep(res SweepResult, err error) error {
	ts.summary.Concurrency = &res
	return errors.Join(err, ts.write())
}

// flatLevels counts the VALID points at the end of points that did not
// raise the best throughput before them by more than 1-plateau: how long
// throughput has been flat.
func flatLevels(points []SweepPoint, plateau float64) int {
	var best float64
	flat := 0
	for _, p := range points {
		if !p.Valid || p.SamplesPerSecond <= 0 {
			continue
		}
		if p.SamplesPerSecond > best*(1+(1-plateau)) {
			flat = 0
		} else {
			flat++
		}
		best = max(best, p.SamplesPerSecond)
	}
	return flat
}
