package whispernorm

import (
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

func regexpMust(p string) *regexp.Regexp { return regexp.MustCompile(p) }

// numberState is process_words' state: the number being built and the
// prefix symbol it will carry, and the words written so far.
type numberState struct {
	value  value
	prefix string // "" is None
	out    []string
}

// output is process_words' output(): the result with the pending prefix,
// which resets the value and the prefix.
func (st *numberState) output(result string) {
	if st.prefix != "" {
		result = st.prefix + result
	}
	st.value, st.prefix = value{}, ""
	st.out = append(st.out, result)
}

// flush outputs the value when there is one.
func (st *numberState) flush() {
	if st.value.kind != vNone {
		st.output(st.value.String())
	}
}

// processWords is EnglishNumberNormalizer.process_words: spelled-out
// numbers become digits, word by word, each word seen with the one before
// and after it.
func processWords(ws []string) []string {
	st := &numberState{}
	skip := false
	for i, current := range ws {
		if skip {
			skip = false
			continue
		}
		prev, next, hasNext := "", "", i+1 < len(ws)
		if i > 0 {
			prev = ws[i-1]
		}
		if hasNext {
			next = ws[i+1]
		}
		skip = st.word(prev, current, next, hasNext)
	}
	st.flush()
	return st.out
}

// word handles one word; it returns whether the next word was consumed.
// prev is "" for none (no word of the vocabulary is empty, so the lookups
// below never match it).
func (st *numberState) word(prev, current, next string, hasNext bool) bool {
	nextNumeric := hasNext && isNumeric(next)
	first, rest := firstRune(current)
	hasPrefix := strings.Contains(prefixes, first)
	bare := current
	if hasPrefix {
		bare = rest
	}
	switch {
	case isNumeric(bare):
		st.arabic(current, bare, first, hasPrefix)
	case !words[current]:
		st.flush()
		st.output(current)
	case zeros[current]:
		st.value = strValue(st.value.orEmpty() + "0")
	case ones[current] > 0:
		st.one(prev, ones[current])
	case onesSuffixed[current].suffix != "":
		st.oneSuffixed(prev, onesSuffixed[current])
	case tens[current] > 0:
		st.ten(tens[current])
	case tensSuffixed[current].suffix != "":
		st.tenSuffixed(tensSuffixed[current])
	case multipliers[current] != nil:
		st.multiplier(multipliers[current])
	case multipliersSuffixed[current].value != nil:
		st.multiplierSuffixed(multipliersSuffixed[current])
	case precedingPrefixers[current] != "":
		st.flush()
		if words[next] || nextNumeric {
			st.prefix = precedingPrefixers[current]
		} else {
			st.output(current)
		}
	case followingPrefixers[current] != "":
		if st.value.kind != vNone {
			st.prefix = followingPrefixers[current]
			st.output(st.value.String())
		} else {
			st.output(current)
		}
	case current == "per" || current == "percent":
		return st.suffixer(current, next)
	default: // specials
		return st.special(prev, current, next, nextNumeric)
	}
	return false
}

// arabic handles a number written in digits, maybe with a prefix symbol.
func (st *numberState) arabic(current, bare, first string, hasPrefix bool) {
	f, _ := fraction(bare) // isNumeric(bare), so it parses
	if st.value.kind != vNone {
		if st.value.kind == vStr && strings.HasSuffix(st.value.s, ".") {
			// concatenate decimals / ip address components
			st.value = strValue(st.value.s + current)
			return
		}
		st.output(st.value.String())
	}
	if hasPrefix {
		st.prefix = first
	}
	if f.IsInt() {
		st.value = intValue(new(big.Int).Set(f.Num()))
	} else {
		st.value = strValue(bare)
	}
}

func (st *numberState) one(prev string, n int) {
	v := st.value
	switch {
	case v.kind == vNone:
		st.value = intValue(big.NewInt(int64(n)))
	case v.kind == vStr || ones[prev] > 0:
		s := v.String()
		if tens[prev] > 0 && n < 10 {
			// replace the last zero with the digit (the reference asserts it
			// is a zero)
			st.value = strValue(dropLastRune(s) + strconv.Itoa(n))
		} else {
			st.value = strValue(s + strconv.Itoa(n))
		}
	case n < 10 && v.mod(10) == 0, n >= 10 && v.mod(100) == 0:
		st.value = v.addInt(n)
	default:
		st.value = strValue(v.String() + strconv.Itoa(n))
	}
}

func (st *numberState) oneSuffixed(prev string, o suffixed) {
	v, n := st.value, o.value
	switch {
	case v.kind == vNone:
		st.output(strconv.Itoa(n) + o.suffix)
	case v.kind == vStr || ones[prev] > 0:
		s := v.String()
		if tens[prev] > 0 && n < 10 {
			st.output(dropLastRune(s) + strconv.Itoa(n) + o.suffix)
		} else {
			st.output(s + strconv.Itoa(n) + o.suffix)
		}
	case n < 10 && v.mod(10) == 0, n >= 10 && v.mod(100) == 0:
		st.output(v.addInt(n).String() + o.suffix)
	default:
		st.output(v.String() + strconv.Itoa(n) + o.suffix)
	}
	st.value = value{}
}

func (st *numberState) ten(n int) {
	v := st.value
	switch {
	case v.kind == vNone:
		st.value = intValue(big.NewInt(int64(n)))
	case v.kind == vStr:
		st.value = strValue(v.s + strconv.Itoa(n))
	case v.mod(100) == 0:
		st.value = v.addInt(n)
	default:
		st.value = strValue(v.String() + strconv.Itoa(n))
	}
}

func (st *numberState) tenSuffixed(t suffixed) {
	v := st.value
	switch {
	case v.kind == vNone:
		st.output(strconv.Itoa(t.value) + t.suffix)
	case v.kind == vStr:
		st.output(v.s + strconv.Itoa(t.value) + t.suffix)
	case v.mod(100) == 0:
		st.output(v.addInt(t.value).String() + t.suffix)
	default:
		st.output(v.String() + strconv.Itoa(t.value) + t.suffix)
	}
}

// scaled returns Fraction(value) * m when it is a whole number.
func scaled(v value, m *big.Int) (*big.Int, bool) {
	var f *big.Rat
	if v.kind == vInt {
		f = new(big.Rat).SetInt(v.i)
	} else {
		var ok bool
		if f, ok = fraction(v.s); !ok {
			return nil, false
		}
	}
	p := new(big.Rat).Mul(f, new(big.Rat).SetInt(m))
	if !p.IsInt() {
		return nil, false
	}
	return new(big.Int).Set(p.Num()), true
}

func (st *numberState) multiplier(m *big.Int) {
	v := st.value
	switch {
	case v.kind == vNone:
		st.value = intValue(m)
	case v.kind == vStr || v.i.Sign() == 0:
		if p, ok := scaled(v, m); ok {
			st.value = intValue(p)
		} else {
			st.output(v.String())
			st.value = intValue(m)
		}
	default:
		st.value = v.scale(m)
	}
}

func (st *numberState) multiplierSuffixed(m bigSuffixed) {
	v := st.value
	switch {
	case v.kind == vNone:
		st.output(m.value.String() + m.suffix)
	case v.kind == vStr:
		if p, ok := scaled(v, m.value); ok {
			st.output(p.String() + m.suffix)
		} else {
			st.output(v.s)
			st.output(m.value.String() + m.suffix)
		}
	default:
		st.output(v.scale(m.value).String() + m.suffix)
	}
	st.value = value{}
}

// suffixer handles "per" ({"cent": "%"}) and "percent" ("%").
func (st *numberState) suffixer(current, next string) bool {
	if st.value.kind == vNone {
		st.output(current)
		return false
	}
	if current == "percent" {
		st.output(st.value.String() + "%")
		return false
	}
	if next == "cent" {
		st.output(st.value.String() + "%")
		return true
	}
	st.output(st.value.String())
	st.output(current)
	return false
}

// special handles "and", "double", "triple" and "point".
func (st *numberState) special(prev, current, next string, nextNumeric bool) bool {
	if !words[next] && !nextNumeric {
		// only special when the next word can be numeric
		st.flush()
		st.output(current)
		return false
	}
	switch current {
	case "and":
		// ignore "and" after hundreds, thousands, etc.
		if multipliers[prev] == nil {
			st.flush()
			st.output(current)
		}
	case "double", "triple":
		if ones[next] > 0 || zeros[next] {
			repeats := 2
			if current == "triple" {
				repeats = 3
			}
			st.value = strValue(st.value.orEmpty() + strings.Repeat(strconv.Itoa(ones[next]), repeats))
			return true
		}
		st.flush()
		st.output(current)
	case "point":
		if decimals[next] || nextNumeric {
			st.value = strValue(st.value.orEmpty() + ".")
		}
	}
	return false
}

func dropLastRune(s string) string {
	_, rest := firstRuneLast(s)
	return rest
}

// firstRuneLast returns s's last character and what precedes it.
func firstRuneLast(s string) (string, string) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] < 0x80 || s[i] >= 0xC0 {
			return s[i:], s[:i]
		}
	}
	return s, ""
}
