package mmlu

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Filter keeps the questions of the named subjects (all when names is
// empty). A name that is not one of the 57 subjects, or has no question in
// qs, is an error naming it.
func Filter(qs []Question, names []string) ([]Question, error) {
	if len(names) == 0 {
		return qs, nil
	}
	want := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if _, ok := subjects[n]; !ok {
			return nil, fmt.Errorf("subject %q is not one of MMLU's 57 (e.g. abstract_algebra, high_school_us_history; all: %s)", n, strings.Join(Subjects(), ", "))
		}
		want[n] = true
	}
	var out []Question
	have := map[string]bool{}
	for _, q := range qs {
		if want[q.Subject] {
			out = append(out, q)
			have[q.Subject] = true
		}
	}
	for n := range want {
		if !have[n] {
			return nil, fmt.Errorf("subject %s has no question in the test split", n)
		}
	}
	return out, nil
}

// Subset returns n of qs (all of them when n is 0 or at least len(qs)),
// stratified by subject, in their original order. Each subject gets
// n × its share of qs, rounded down, and the questions left over go one
// each to the subjects with the largest remainders (ties: the subject
// that sorts first); within a subject the questions are a uniform draw.
// The draw depends only on seed, n and qs: subjects are visited in name
// order, and each shuffles its questions with one PCG stream seeded
// (seed, 0). It is this harness's own draw, not any other tool's.
func Subset(qs []Question, n int, seed uint64) []Question {
	if n <= 0 || n >= len(qs) {
		return qs
	}
	bySubject := map[string][]Question{}
	for _, q := range qs {
		bySubject[q.Subject] = append(bySubject[q.Subject], q)
	}
	names := make([]string, 0, len(bySubject))
	for s := range bySubject {
		names = append(names, s)
	}
	slices.Sort(names)
	quota := allocate(names, bySubject, n, len(qs))
	rng := rand.New(rand.NewPCG(seed, 0))
	var out []Question
	for _, s := range names {
		group := slices.Clone(bySubject[s])
		rng.Shuffle(len(group), func(i, j int) { group[i], group[j] = group[j], group[i] })
		out = append(out, group[:quota[s]]...)
	}
	slices.SortFunc(out, func(a, b Question) int { return a.Index - b.Index })
	return out
}

// allocate splits n among the subjects in proportion to their sizes
// (largest remainder method).
func allocate(names []string, bySubject map[string][]Question, n, total int) map[string]int {
	type remainder struct {
		name string
		r    int
	}
	quota := map[string]int{}
	rem := make([]remainder, 0, len(names))
	given := 0
	for _, s := range names {
		share := n * len(bySubject[s])
		quota[s] = share / total
		given += quota[s]
		rem = append(rem, remainder{s, share % total})
	}
	// Stable: among equal remainders the name order of names decides.
	slices.SortStableFunc(rem, func(a, b remainder) int { return b.r - a.r })
	for i := 0; given < n; i++ {
		quota[rem[i].name]++
		given++
	}
	return quota
}
