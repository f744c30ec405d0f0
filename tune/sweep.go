package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
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
// A trial issues the samples the last VALID trial's throughput serves in
// s.TrialDuration, and at least samplesPerSlot per request in flight,
// from a loaded set of as many samples (fewer if the dataset is smaller).
// It plans on the throughput measured, not on growth it might bring: a
// level that gains lasts less than s.TrialDuration, one on the plateau
// about s.TrialDuration (planned on a doubled throughput, as it once was,
// it lasted twice that), and samplesPerSlot lengthens a trial at a
// concurrency far above what the system serves at once; the sweep says
// before each trial how long it expects it to take. A trial with failed
// samples is listed but never recommended. With the default series the
// sweep stops once two successive concurrencies did not raise the best
// throughput by more than 1-s.Plateau.
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
	lib := 0 // unknown without an open dataset: no rounding
	if ts.Base.Data != nil {
		lib = ts.Base.LibrarySize(ts.Base.Data.Len())
	}
	ts.say(s.plan(levels, stopWhenFlat, lib))
	res := SweepResult{Plateau: s.Plateau}
	var rate float64 // the last VALID trial's samples/s
	for i, c := range levels {
		n := s.trialSamples(c, rate, lib)
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
		flat := false
		if t.Valid() && t.SamplesPerSecond > 0 {
			res.Best = max(res.Best, t.SamplesPerSecond)
			rate = t.SamplesPerSecond
			flat = stopWhenFlat && flatLevels(res.Points, s.Plateau) >= 2
		}
		switch {
		case flat:
			ts.say(fmt.Sprintf("  done: two levels in a row did not raise the best samples/s by more than %g%%", 100*(1-s.Plateau)))
		case i+1 < len(levels):
			ts.say("  next: " + s.trialPlan(i+2, levels[i+1], rate, lib))
		}
		if flat {
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

// trialSamples is how many samples the trial at concurrency c issues, given
// rate, the last VALID trial's samples/s (0: none yet), from a library of
// lib samples (0: unknown). LoadGen's Offline query holds whole
// permutations of the loaded set, so a trial wanting more samples than
// the library holds issues a whole number of libraries: that number is
// the one announced and run.
func (s SweepSearch) trialSamples(c int, rate float64, lib int) int {
	n := max(samplesPerSlot*c, int(math.Ceil(rate*s.TrialDuration.Seconds())))
	if lib > 0 && n > lib {
		n = (n + lib - 1) / lib * lib
	}
	return n
}

// trialPlan says what trial n, at concurrency c, issues and, from rate (the
// last VALID trial's samples/s; 0: none yet), how long it should take.
func (s SweepSearch) trialPlan(n, c int, rate float64, lib int) string {
	samples := s.trialSamples(c, rate, lib)
	line := fmt.Sprintf("trial %d at concurrency %d: %d samples", n, c, samples)
	if rate <= 0 {
		return line + fmt.Sprintf(" (%d per request in flight), as long as %d rounds of requests take", samplesPerSlot, samplesPerSlot)
	}
	est := time.Duration(float64(samples) / rate * float64(time.Second)).Round(100 * time.Millisecond)
	line += fmt.Sprintf(", about %s at the %.4g samples/s measured last, less if it serves more", est, rate)
	if samplesPerSlot*c > int(math.Ceil(rate*s.TrialDuration.Seconds())) {
		line += fmt.Sprintf(" (%d per request in flight, so that every request slot serves several: longer than --trial-duration %s)", samplesPerSlot, s.TrialDuration)
	}
	return line
}

// plan says, before the first trial, what the sweep will do and what it
// costs.
func (s SweepSearch) plan(levels []int, stopWhenFlat bool, lib int) string {
	list := make([]string, len(levels))
	for i, c := range levels {
		list[i] = strconv.Itoa(c)
	}
	stop := ""
	if stopWhenFlat {
		stop = fmt.Sprintf(", stopping once two levels in a row do not raise the best samples/s by more than %.4g%%", 100*(1-s.Plateau))
	}
	return fmt.Sprintf("tune: Offline sweep: concurrency %s%s; at most %d trials; recommends the smallest reaching %g%% of the best samples/s\n"+
		"tune: each trial issues the samples the last VALID trial's samples/s serve in --trial-duration %s, and at least %d per request in flight, each sample once "+
		"(its loaded set is cut to them, so mlperf.conf's sample_concatenate_permutation does not pad it to the whole dataset): "+
		"a trial lasts up to --trial-duration, longer where %d rounds of requests at its concurrency take longer; %d trials take about %s, loading on top, and more for such trials; "+
		"the first: %s",
		strings.Join(list, ", "), stop, len(levels), 100*s.Plateau,
		s.TrialDuration, samplesPerSlot, samplesPerSlot, len(levels), time.Duration(len(levels))*s.TrialDuration, s.trialPlan(1, levels[0], 0, lib))
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
