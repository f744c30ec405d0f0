package tokencheck

// EndsWithRepeatedEOS is TEST06's EOS check for one sample
// (compliance/TEST06/run_verification.py eos_check, which scans back from
// the last token down to index 1, so index 0 never counts): true if the
// output ends with two or more tokens each equal to one of eos (a model
// may have several end-of-sequence IDs; any counts). A sample that fails
// it fails TEST06.
func EndsWithRepeatedEOS(t []int32, eos ...int32) bool {
	n := 0
	for i := len(t) - 1; i > 0 && isOneOf(t[i], eos); i-- {
		if n++; n >= 2 {
			return true
		}
	}
	return false
}

func isOneOf(x int32, set []int32) bool {
	for _, e := range set {
		if x == e {
			return true
		}
	}
	return false
}
