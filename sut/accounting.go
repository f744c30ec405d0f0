package sut

// firstReport is what a sample's FirstTokenComplete carried: the length of
// its data and its token count.
type firstReport struct {
	bytes  int
	tokens int64
}

// omitFirst applies Config.FinalOmitsFirstToken to a successful streamed
// sample's final response: it drops from buf the bytes reported with
// FirstTokenComplete (they lead the accumulated output) and returns the
// count LoadGen is given, n minus the tokens reported first. The
// references that do this (gpt-oss-120b's server_sut.py) send token 0
// first and tokens[1:] with count n-1, so LoadGen's TPOT is
// (latency-TTFT)/(n-2) and tokens/s counts n-1 per sample. Otherwise, or
// when nothing was reported first, buf and n are returned unchanged.
func (p *Pool) omitFirst(st *reqState, buf *[]byte, n int64) int64 {
	if !p.cfg.Stream || !p.cfg.FinalOmitsFirstToken || st.first.bytes == 0 && st.first.tokens == 0 {
		return n
	}
	if buf != nil {
		k := min(st.first.bytes, len(*buf))
		*buf = append((*buf)[:0], (*buf)[k:]...)
	}
	return max(n-st.first.tokens, 0)
}
