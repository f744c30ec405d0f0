package answer

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pystr"
)

// DefaultIntMaxStrDigits is CPython's default sys.int_info
// default_max_str_digits: int() of a longer digit string raises ValueError.
const DefaultIntMaxStrDigits = 4300

// LCBIntMaxStrDigits is the limit once LiveCodeBench's evaluation module is
// imported: lcb_runner/evaluation/compute_code_generation_metrics.py calls
// sys.set_int_max_str_digits(50000). gpt-oss-120b's eval_mlperf_accuracy.py
// imports it in the main process whenever the log holds a livecodebench
// sample, before any AIME answer is parsed.
const LCBIntMaxStrDigits = 50000

// ParseAIME extracts an AIME answer (0..999) the way parse_aime_answer does
// (identical in both evaluators): the digits of the last \boxed{ N } or, when
// there is none, of the last "Answer: N" not followed by '.' or a word
// character. Digits are any Unicode decimal digits, as Python's \d and int()
// accept them. maxDigits is the interpreter's int max_str_digits: a longer
// digit string makes int() raise, and the answer counts as missing.
func ParseAIME(text string, maxDigits int) (int, bool) {
	s := []rune(pystr.Strip(text))
	if len(s) == 0 {
		return 0, false
	}
	digits, ok := lastBoxedDigits(s)
	if !ok {
		digits, ok = lastAnswerDigits(s)
	}
	if !ok || len(digits) > maxDigits {
		return 0, false
	}
	v := 0
	for _, r := range digits {
		v = v*10 + pyDigit(r)
		if v > 999 {
			return 0, false
		}
	}
	return v, true
}

// lastBoxedDigits is the last match of re.finditer(r"\\boxed{\s*(\d+)\s*}", s).
func lastBoxedDigits(s []rune) ([]rune, bool) {
	var last []rune
	found := false
	for i := 0; i < len(s); i++ {
		if !matchExact(s, i, `\boxed{`) {
			continue
		}
		j := skipSpace(s, i+7)
		d := j
		for d < len(s) && pyDigit(s[d]) >= 0 {
			d++
		}
		if d == j {
			continue
		}
		k := skipSpace(s, d)
		if k < len(s) && s[k] == '}' {
			last, found = s[j:d], true
			i = k
		}
	}
	return last, found
}

// lastAnswerDigits is the last match of
// re.finditer(r"Answer:\s*(\d+)(?!\.)\b", s, re.IGNORECASE | re.MULTILINE).
// After the greedy digit run the look-ahead and \b must hold; a shorter run
// cannot help, as \b never holds between two digits.
func lastAnswerDigits(s []rune) ([]rune, bool) {
	var last []rune
	found := false
	for i := 0; i < len(s); i++ {
		if !matchFoldAt(s, i, "answer") || i+6 >= len(s) || s[i+6] != ':' {
			continue
		}
		j := skipSpace(s, i+7)
		d := j
		for d < len(s) && pyDigit(s[d]) >= 0 {
			d++
		}
		if d == j || (d < len(s) && (s[d] == '.' || pystr.IsWord(s[d]))) {
			continue
		}
		last, found = s[j:d], true
		i = d - 1
	}
	return last, found
}

// matchExact reports whether the runes of s at i spell lit exactly.
func matchExact(s []rune, i int, lit string) bool {
	k := i
	for _, r := range lit {
		if k >= len(s) || s[k] != r {
			return false
		}
		k++
	}
	return true
}

// EvaluateAIME is evaluate_aime: the parsed answer equals int(groundTruth).
// groundTruth is the dataset value as text; Python's int() rules apply
// (surrounding whitespace, a sign, '_' between digits, Unicode digits), and a
// ground truth int() rejects grades false.
func EvaluateAIME(parsed int, groundTruth string) bool {
	gt, ok := PyInt(groundTruth, DefaultIntMaxStrDigits)
	return ok && gt.IsInt64() && gt.Int64() == int64(parsed)
}

// EvaluateAIMEFloat is evaluate_aime for a ground truth the dataset holds
// as a float, given as Python's repr of it: int() truncates toward zero
// (int(42.0) is 42, as is int(42.9)). int() of an infinity raises
// OverflowError, which evaluate_aime does not catch, so the reference's
// evaluation stops: that is the error.
func EvaluateAIMEFloat(parsed int, groundTruth string) (bool, error) {
	f, err := strconv.ParseFloat(groundTruth, 64)
	if err != nil || math.IsNaN(f) {
		return false, fmt.Errorf("float ground truth %q is not a number", groundTruth)
	}
	if math.IsInf(f, 0) {
		return false, fmt.Errorf("ground truth %s: int() raises OverflowError (cannot convert float infinity to integer), which evaluate_aime does not catch, so the reference's evaluation stops", groundTruth)
	}
	gt, _ := big.NewFloat(f).Int(nil)
	return gt.Cmp(big.NewInt(int64(parsed))) == 0, nil
}

// PyInt parses s as Python's int(s) (base 10) does and reports whether it
// would succeed under the given max_str_digits.
func PyInt(s string, maxDigits int) (*big.Int, bool) {
	s = pystr.Strip(s)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	var b strings.Builder
	prevDigit := false
	for _, r := range s {
		if r == '_' {
			if !prevDigit {
				return nil, false
			}
			prevDigit = false
			continue
		}
		d := pyDigit(r)
		if d < 0 {
			return nil, false
		}
		b.WriteByte(byte('0' + d))
		prevDigit = true
	}
	if !prevDigit || b.Len() > maxDigits {
		return nil, false
	}
	v, ok := new(big.Int).SetString(b.String(), 10)
	if ok && neg {
		v.Neg(v)
	}
	return v, ok
}
