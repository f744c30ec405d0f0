package eval

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// Expected outcomes below are what pydantic (2.13.4 and 2.14.3) returns for
// ProductMetadata.model_validate_json on the same text.

func TestValidateResponse(t *testing.T) {
	const pre = `{"category":"a","brand":"b","is_secondhand":`
	valid := func(sh bool) *ProductMetadata { return &ProductMetadata{"a", "b", sh} }
	tests := []struct {
		name string
		in   string
		want *ProductMetadata // nil: invalid
	}{
		{"plain", pre + `true}`, valid(true)},
		{"whitespace around and inside", " \n{ \"category\" : \"a\" ,\r\n\"brand\" : \"b\" , \"is_secondhand\" :\tfalse }\n\t\r", valid(false)},
		{"unicode escapes in key and value", `{"c\u0061tegory":"\u00e9\ud83d\ude00","brand":"b","is_secondhand":true}`, &ProductMetadata{"é😀", "b", true}},
		{"escapes", `{"category":"a\/b\u0020","brand":"\"b","is_secondhand":true}`, &ProductMetadata{"a/b ", `"b`, true}},
		{"raw UTF-8", `{"category":"玩具 > 积木","brand":"Zoë","is_secondhand":false}`, &ProductMetadata{"玩具 > 积木", "Zoë", false}},
		{"duplicate key: last wins", `{"category":"a","category":"z","brand":"b","is_secondhand":true}`, &ProductMetadata{"z", "b", true}},
		{"duplicate: invalid then valid", pre + `"x", "is_secondhand": true}`, valid(true)},
		{"duplicate: valid then invalid", pre + `true, "is_secondhand": "x"}`, nil},
		{"NaN in an overwritten value", pre + `NaN, "is_secondhand": true}`, valid(true)},
		{"-Infinity overwritten", pre + `-Infinity, "is_secondhand": false}`, valid(false)},
		{"deep but allowed", pre + strings.Repeat("[", 199) + "1" + strings.Repeat("]", 199) + `,"is_secondhand":true}`, valid(true)},
		{"too deep", pre + strings.Repeat("[", 200) + "1" + strings.Repeat("]", 200) + `,"is_secondhand":true}`, nil},
		{"empty arrays count one less", pre + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `,"is_secondhand":true}`, valid(true)},

		// Lax bool coercions.
		{"int 1", pre + `1}`, valid(true)},
		{"int 0", pre + `0}`, valid(false)},
		{"-0", pre + `-0}`, valid(false)},
		{"1.0", pre + `1.0}`, valid(true)},
		{"1e0", pre + `1E0}`, valid(true)},
		{"10e-1", pre + `10e-1}`, valid(true)},
		{"rounds to 1", pre + `0.99999999999999999}`, valid(true)},
		{"underflows to -0", pre + `-1e-400}`, valid(false)},
		{"2", pre + `2}`, nil},
		{"1.5", pre + `1.5}`, nil},
		{"-1.0", pre + `-1.0}`, nil},
		{"overflow", pre + `1e999}`, nil},
		{"huge int", pre + `100000000000000000000000}`, nil},
		{`"true"`, pre + `"true"}`, valid(true)},
		{`"TRUE"`, pre + `"TRUE"}`, valid(true)},
		{`"Yes"`, pre + `"Yes"}`, valid(true)},
		{`"on"`, pre + `"on"}`, valid(true)},
		{`"t"`, pre + `"t"}`, valid(true)},
		{`"1"`, pre + `"1"}`, valid(true)},
		{`"0"`, pre + `"0"}`, valid(false)},
		{`"FaLsE"`, pre + `"FaLsE"}`, valid(false)},
		{`"off"`, pre + `"off"}`, valid(false)},
		{`"n"`, pre + `"n"}`, valid(false)},
		{`" true"`, pre + `" true"}`, nil},
		{`"01"`, pre + `"01"}`, nil},
		{`"1.0"`, pre + `"1.0"}`, nil},
		{`""`, pre + `""}`, nil},
		{"fullwidth t", pre + `"ｔrue"}`, nil},
		{"null", pre + `null}`, nil},
		{"NaN", pre + `NaN}`, nil},
		{"array", pre + `[]}`, nil},

		// Schema.
		{"extra field", pre + `true,"x":1}`, nil},
		{"key case", `{"Category":"a","brand":"b","is_secondhand":true}`, nil},
		{"missing field", `{"category":"a","brand":"b"}`, nil},
		{"number category", `{"category":1,"brand":"b","is_secondhand":true}`, nil},
		{"null brand", `{"category":"a","brand":null,"is_secondhand":true}`, nil},
		{"not an object", `"x"`, nil},
		{"array of objects", `[` + pre + `true}]`, nil},

		// JSON syntax.
		{"markdown fence", "```json\n" + pre + "true}\n```", nil},
		{"BOM", "\ufeff" + pre + "true}", nil},
		{"trailing text", pre + `true} x`, nil},
		{"two objects", pre + `true}{}`, nil},
		{"trailing comma", pre + `true,}`, nil},
		{"form feed after", pre + "true}\f", nil},
		{"NBSP after", pre + "true}\u00a0", nil},
		{"raw tab in string", "{\"category\":\"a\tb\",\"brand\":\"b\",\"is_secondhand\":true}", nil},
		{"lone high surrogate", `{"category":"\ud800","brand":"b","is_secondhand":true}`, nil},
		{"lone low surrogate", `{"category":"\udc00x","brand":"b","is_secondhand":true}`, nil},
		{"reversed surrogates", `{"category":"\ude00\ud83d","brand":"b","is_secondhand":true}`, nil},
		{"bad escape", `{"category":"\a","brand":"b","is_secondhand":true}`, nil},
		{"leading zero", pre + `01}`, nil},
		{"bare dot", pre + `1.}`, nil},
		{"-NaN", pre + `-NaN}`, nil},
		{"+1", pre + `+1}`, nil},
		{"truncated", pre + `tru`, nil},
		{"single quotes", `{'category':'a'}`, nil},
		{"empty", ``, nil},
		{"spaces only", `   `, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ValidateResponse(tc.in)
			if tc.want == nil {
				if err == nil {
					t.Fatalf("ValidateResponse(%q) = %+v, want an error", tc.in, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("ValidateResponse(%q): %v", tc.in, err)
			}
			if diff := cmp.Diff(*tc.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzValidateResponse(f *testing.F) {
	f.Add(`{"category":"A > B","brand":"Acme","is_secondhand":false}`)
	f.Add(`{"category":"\u00e9","brand":"b","is_secondhand":"yes","x":[1,{"y":NaN}]}`)
	f.Add("```json\n{}\n```")
	f.Add(`{"category":"a","brand":"b","is_secondhand":1e0}`)
	f.Fuzz(func(t *testing.T, in string) {
		if !utf8.ValidString(in) {
			return // Evaluate rejects these before validation, as the reference's decode does
		}
		pm, err := ValidateResponse(in)
		if err != nil {
			return
		}
		// Whatever validates re-validates to the same value once re-encoded
		// canonically, and Go's own JSON decoder agrees on the strings for
		// documents without the jiter-only literals.
		b, _ := json.Marshal(map[string]any{"category": pm.Category, "brand": pm.Brand, "is_secondhand": pm.IsSecondhand})
		again, err := ValidateResponse(string(b))
		if err != nil || again != pm {
			t.Fatalf("re-validate of %s: %+v, %v; want %+v", b, again, err, pm)
		}
		if !strings.Contains(in, "NaN") && !strings.Contains(in, "Infinity") {
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(in), &m); err != nil {
				t.Fatalf("encoding/json rejects %q which validated: %v", in, err)
			}
			var cat string
			if err := json.Unmarshal(m["category"], &cat); err != nil || cat != pm.Category {
				t.Fatalf("category %q, encoding/json says %q (%v)", pm.Category, cat, err)
			}
		}
	})
}
