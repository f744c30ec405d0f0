package eval

import (
	"strings"
	"testing"
)

// TestValidateResponseLongIntegers: pydantic refuses the whole document when
// a number's integer part, sign included, is longer than 4,300 characters,
// even in a value a later duplicate key overwrites. Each want is what
// pydantic 2.13.4's ProductMetadata.model_validate_json said of the same
// text.
func TestValidateResponseLongIntegers(t *testing.T) {
	const pre, post = `{"category":"a","brand":"b","is_secondhand":`, `,"is_secondhand":true}`
	ones := func(n int) string { return strings.Repeat("1", n) }
	for _, tc := range []struct {
		name  string
		num   string
		valid bool
	}{
		{"4,299 digits", ones(4299), true},
		{"4,300 digits", ones(4300), true},
		{"4,301 digits", ones(4301), false},
		{"5,000 digits", ones(5000), false},
		{"minus and 4,299 digits", "-" + ones(4299), true},
		{"minus and 4,300 digits", "-" + ones(4300), false},
		{"4,300 digits and a fraction", ones(4300) + ".5", true},
		{"4,301 digits and a fraction", ones(4301) + ".5", false},
		{"minus, 4,299 digits and a fraction", "-" + ones(4299) + ".5", true},
		{"minus, 4,300 digits and a fraction", "-" + ones(4300) + ".5", false},
		{"4,300 digits and an exponent", ones(4300) + "e5", true},
		{"4,301 digits and an exponent", ones(4301) + "e2", false},
		{"long fraction", "0." + ones(4301), true},
		{"long zero fraction", "0." + strings.Repeat("0", 5000) + "1", true},
		{"1 and 4,299 zeros", "1" + strings.Repeat("0", 4299), true},
		{"1e400", "1e400", true},
	} {
		for _, where := range []string{"value", "array", "object"} {
			v := tc.num
			switch where {
			case "array":
				v = "[" + v + "]"
			case "object":
				v = `{"k":` + v + "}"
			}
			_, err := ValidateResponse(pre + v + post)
			if (err == nil) != tc.valid {
				t.Errorf("%s in %s: error %v, want valid=%v", tc.name, where, err, tc.valid)
			}
			if !tc.valid && err != nil && !strings.Contains(err.Error(), "number out of range") {
				t.Errorf("%s in %s: error %q does not say the number is out of range", tc.name, where, err)
			}
		}
	}
}
