package rouge

import "math/bits"

// lcsWork is scratch space reused across pairs.
type lcsWork struct {
	v        []uint64
	bits     []uint64
	masks    map[int32][]uint64
	rows     []uint64
	lineOff  []int32 // see setLineMasks
	linePool []uint64
	stamp    []uint32 // per global id: w.gen when w.local holds its local id
	local    []int32
	gen      uint32
	tl, pl   []int32 // the pair's tokens as local ids
	union    []bool
	cntR     []int32
	cntC     []int32
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

// lcsLen is the LCS length by the bit-parallel algorithm of Allison and
// Dix (Hyyrö's form): one bit per token of b, 64 columns of the table per
// machine word. It gives the length only, which is all rougeL uses.
func (w *lcsWork) lcsLen(a, b []int32) int {
	words := (len(b) + 63) / 64
	w.setMasks(b)
	v := growUint64s(&w.v, words)
	for i := range v {
		v[i] = ^uint64(0)
	}
	for _, x := range a {
		m, ok := w.masks[x]
		if !ok {
			continue
		}
		var carry, borrow uint64
		for k := range v {
			u := v[k] & m[k]
			sum, c := bits.Add64(v[k], u, carry)
			diff, br := bits.Sub64(v[k], u, borrow)
			carry, borrow = c, br
			v[k] = sum | diff
		}
	}
	zeros := 0
	for k, x := range v {
		if k == words-1 && len(b)%64 != 0 {
			x |= ^uint64(0) << (len(b) % 64)
		}
		zeros += 64 - bits.OnesCount64(x)
	}
	return zeros
}

// growUint64s returns (*buf)[:n], growing it as needed.
func growUint64s(buf *[]uint64, n int) []uint64 {
	if cap(*buf) < n {
		*buf = make([]uint64, n)
	}
	return (*buf)[:n]
}

// lcsMark marks in union the indexes of ref that lcs_ind(ref, can) returns:
// the LCS read back from the full table by _backtrack_norec, which on a tie
// moves up (i-1) unless left (j-1) is strictly longer. The table is kept as
// one bit-parallel row per token of ref (see lcsLen): t[i][j] is j minus the
// set bits among the first j bits of row i. Tokens are local ids; off[x] is
// where the bitmask of can's positions holding x starts in pool, or -1.
func (w *lcsWork) lcsMark(ref, can []int32, off []int32, pool []uint64, union []bool) {
	words := (len(can) + 63) / 64
	rows := growUint64s(&w.rows, (len(ref)+1)*words)
	for k := range words {
		rows[k] = ^uint64(0)
	}
	for i, x := range ref {
		prev, cur := rows[i*words:(i+1)*words], rows[(i+1)*words:(i+2)*words]
		o := off[x]
		if o < 0 {
			copy(cur, prev)
			continue
		}
		m := pool[o : int(o)+words]
		var carry, borrow uint64
		for k, p := range prev {
			u := p & m[k]
			sum, c := bits.Add64(p, u, carry)
			diff, b := bits.Sub64(p, u, borrow)
			carry, borrow = c, b
			cur[k] = sum | diff
		}
	}
	t := func(i, j int) int {
		row := rows[i*words : (i+1)*words]
		ones := 0
		for k := 0; k < j/64; k++ {
			ones += bits.OnesCount64(row[k])
		}
		if j%64 != 0 {
			ones += bits.OnesCount64(row[j/64] & (1<<(j%64) - 1))
		}
		return j - ones
	}
	for i, j := len(ref), len(can); i > 0 && j > 0; {
		switch {
		case ref[i-1] == can[j-1]:
			union[i-1] = true
			i, j = i-1, j-1
		case t(i, j-1) > t(i-1, j):
			j--
		default:
			i--
		}
	}
}

// setMasks fills w.masks with the token bitmasks of b (bit j of an id's
// mask is set where b[j] is that id).
func (w *lcsWork) setMasks(b []int32) {
	words := (len(b) + 63) / 64
	if w.masks == nil {
		w.masks = map[int32][]uint64{}
	}
	clear(w.masks)
	w.bits = w.bits[:0]
	for j, y := range b {
		m, ok := w.masks[y]
		if !ok {
			w.bits = append(w.bits, make([]uint64, words)...)
			m = w.bits[len(w.bits)-words:]
			w.masks[y] = m
		}
		m[j/64] |= 1 << (j % 64)
	}
}

// localize renumbers the tokens of both texts 0..k-1 (k distinct tokens in
// the pair) into w.tl and w.pl, so per-pair tables are slices, not maps.
func (w *lcsWork) localize(target, pred []int32) (k int) {
	w.gen++
	if w.gen == 0 { // stamps wrapped: forget them all
		clear(w.stamp)
		w.gen = 1
	}
	conv := func(ids []int32, dst []int32) []int32 {
		dst = dst[:0]
		for _, id := range ids {
			if int(id) >= len(w.stamp) {
				n := max(int(id)+1, 2*len(w.stamp))
				w.stamp = append(w.stamp, make([]uint32, n-len(w.stamp))...)
				w.local = append(w.local, make([]int32, n-len(w.local))...)
			}
			if w.stamp[id] != w.gen {
				w.stamp[id], w.local[id] = w.gen, int32(k)
				k++
			}
			dst = append(dst, w.local[id])
		}
		return dst
	}
	w.tl = conv(target, w.tl)
	w.pl = conv(pred, w.pl)
	return k
}

// setLineMasks makes, for each line of pred (local ids), the bitmask of
// each token's positions: w.lineOff[line*k+x] is its offset in w.linePool.
func (w *lcsWork) setLineMasks(pred []int32, lineEnds []int, k int) {
	w.lineOff = growInt32s(&w.lineOff, len(lineEnds)*k)
	for i := range w.lineOff {
		w.lineOff[i] = -1
	}
	w.linePool = w.linePool[:0]
	start := 0
	for li, end := range lineEnds {
		line := pred[start:end]
		start = end
		words := (len(line) + 63) / 64
		off := w.lineOff[li*k : (li+1)*k]
		for j, x := range line {
			if off[x] < 0 {
				off[x] = int32(len(w.linePool))
				w.linePool = append(w.linePool, make([]uint64, words)...)
			}
			w.linePool[int(off[x])+j/64] |= 1 << (j % 64)
		}
	}
}

func growInt32s(buf *[]int32, n int) []int32 {
	if cap(*buf) < n {
		*buf = make([]int32, n)
	}
	return (*buf)[:n]
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
	k := w.localize(target.ids, pred.ids)
	cntR, cntC := growInt32s(&w.cntR, k), growInt32s(&w.cntC, k)
	clear(cntR)
	clear(cntC)
	for _, x := range w.tl {
		cntR[x]++
	}
	for _, x := range w.pl {
		cntC[x]++
	}
	w.setLineMasks(w.pl, pred.lineEnds, k)
	hits := 0
	start := 0
	for _, end := range target.lineEnds {
		ref := w.tl[start:end]
		start = end
		if cap(w.union) < len(ref) {
			w.union = make([]bool, len(ref))
		}
		union := w.union[:len(ref)]
		clear(union)
		cstart := 0
		for li, cend := range pred.lineEnds {
			if len(ref) > 0 && cend > cstart {
				w.lcsMark(ref, w.pl[cstart:cend], w.lineOff[li*k:(li+1)*k], w.linePool, union)
			}
			cstart = cend
		}
		for i, in := range union {
			if x := ref[i]; in && cntC[x] > 0 && cntR[x] > 0 {
				hits++
				cntC[x]--
				cntR[x]--
			}
		}
	}
	return newScore(float64(hits)/float64(n), float64(hits)/float64(m))
}
