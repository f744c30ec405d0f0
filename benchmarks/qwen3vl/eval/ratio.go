package eval

import "unicode/utf8"

// fuzzRatio is rapidfuzz's fuzz.ratio(a, b) with no processor: the
// normalised Indel similarity over Unicode code points,
// (1 - dist/(len(a)+len(b))) * 100 where dist = len(a)+len(b) - 2·LCS(a, b),
// computed with the same float64 operations (rapidfuzz Indel
// normalized_similarity * 100), so the reference's "> 90" test agrees at the
// boundary. Two empty strings score 100.
func fuzzRatio(a, b string, buf *[]int) float64 {
	ra, rb := runesOf(a), runesOf(b)
	lensum := len(ra) + len(rb)
	if lensum == 0 {
		return 100
	}
	dist := lensum - 2*lcsLen(ra, rb, buf)
	normDist := float64(dist) / float64(lensum)
	return (1.0 - normDist) * 100
}

func runesOf(s string) []rune {
	rs := make([]rune, 0, utf8.RuneCountInString(s))
	for _, r := range s {
		rs = append(rs, r)
	}
	return rs
}

// lcsLen is the length of the longest common subsequence, O(len(a)·len(b))
// time with one reused row.
func lcsLen(a, b []rune, buf *[]int) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(b) == 0 {
		return 0
	}
	if cap(*buf) < len(b)+1 {
		*buf = make([]int, len(b)+1)
	}
	row := (*buf)[:len(b)+1]
	clear(row)
	for _, ca := range a {
		diag := 0 // row[j-1] from the previous iteration of a
		for j, cb := range b {
			up := row[j+1]
			switch {
			case ca == cb:
				row[j+1] = diag + 1
			case row[j] > up:
				row[j+1] = row[j]
			}
			diag = up
		}
	}
	return row[len(b)]
}
