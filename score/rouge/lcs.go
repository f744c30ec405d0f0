package rouge

// lcsWork is scratch space reused across pairs.
type lcsWork struct {
	row   []int32
	table []int32
	union []bool
	cntR  map[int32]int
	cntC  map[int32]int
}

// lcsScore is _score_lcs: precision and recall of the longest common
// subsequence length; 0 when either side has no tokens.
func (s *Scorer) lcsScore(target, pred []int32) Score {
	if len(target) == 0 || len(pred) == 0 {
		return Score{}
	}
	l := s.work.lcsLen(target, pred)
	return newScore(float64(l)/float64(len(pred)), float64(l)/float64(len(target)))
}

// lcsLen is the LCS length, with one row of the table.
func (w *lcsWork) lcsLen(a, b []int32) int {
	if cap(w.row) < len(b)+1 {
		w.row = make([]int32, len(b)+1)
	}
	row := w.row[:len(b)+1]
	clear(row)
	for _, x := range a {
		var diag int32 // table[i-1][j-1]
		for j, y := range b {
			up := row[j+1]
			switch {
			case x == y:
				row[j+1] = diag + 1
			case row[j] > up:
				row[j+1] = row[j]
			}
			diag = up
		}
	}
	return int(row[len(b)])
}

// lcsMark marks in union the indexes of ref that lcs_ind(ref, can) returns:
// the LCS read back from the full table by _backtrack_norec, which on a tie
// moves up (i-1) unless left (j-1) is strictly longer.
func (w *lcsWork) lcsMark(ref, can []int32, union []bool) {
	cols := len(can) + 1
	n := (len(ref) + 1) * cols
	if cap(w.table) < n {
		w.table = make([]int32, n)
	}
	t := w.table[:n]
	clear(t[:cols])
	for i := 1; i <= len(ref); i++ {
		t[i*cols] = 0
		x := ref[i-1]
		for j := 1; j < cols; j++ {
			switch up, left := t[(i-1)*cols+j], t[i*cols+j-1]; {
			case x == can[j-1]:
				t[i*cols+j] = t[(i-1)*cols+j-1] + 1
			case up >= left:
				t[i*cols+j] = up
			default:
				t[i*cols+j] = left
			}
		}
	}
	for i, j := len(ref), len(can); i > 0 && j > 0; {
		switch {
		case ref[i-1] == can[j-1]:
			union[i-1] = true
			i, j = i-1, j-1
		case t[i*cols+j-1] > t[(i-1)*cols+j]:
			j--
		default:
			i--
		}
	}
}

// summaryLCSScore is _summary_level_lcs over the lines of both texts: for
// each target line, the union of its LCS with every prediction line; a
// token of the union is a hit while both texts still have an unmatched
// occurrence of it.
func (s *Scorer) summaryLCSScore(target, pred text) Score {
	m, n := len(target.ids), len(pred.ids)
	if m == 0 || n == 0 {
		return Score{}
	}
	w := &s.work
	if w.cntR == nil {
		w.cntR, w.cntC = map[int32]int{}, map[int32]int{}
	}
	clear(w.cntR)
	clear(w.cntC)
	for _, id := range target.ids {
		w.cntR[id]++
	}
	for _, id := range pred.ids {
		w.cntC[id]++
	}
	hits := 0
	start := 0
	for _, end := range target.lineEnds {
		ref := target.ids[start:end]
		start = end
		if cap(w.union) < len(ref) {
			w.union = make([]bool, len(ref))
		}
		union := w.union[:len(ref)]
		clear(union)
		cstart := 0
		for _, cend := range pred.lineEnds {
			if len(ref) > 0 && cend > cstart {
				w.lcsMark(ref, pred.ids[cstart:cend], union)
			}
			cstart = cend
		}
		for i, in := range union {
			if t := ref[i]; in && w.cntC[t] > 0 && w.cntR[t] > 0 {
				hits++
				w.cntC[t]--
				w.cntR[t]--
			}
		}
	}
	return newScore(float64(hits)/float64(n), float64(hits)/float64(m))
}
