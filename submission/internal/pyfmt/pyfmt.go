// Package pyfmt formats numbers as Python prints them, so that text the
// official reference scripts write (verification files, checker
// messages) can be reproduced to the character.
package pyfmt

import (
	"math"
	"strconv"
	"strings"
)

// Float formats x as Python's repr/str of a float does ("60.0",
// "1150.38", "1e+16", "1.5e-05", "nan", "-inf").
func Float(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	if x == 0 {
		if math.Signbit(x) {
			return "-0.0"
		}
		return "0.0"
	}
	if a := math.Abs(x); a < 1e-4 || a >= 1e16 {
		return strconv.FormatFloat(x, 'e', -1, 64)
	}
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
