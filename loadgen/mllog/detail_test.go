package mllog

import (
	"strings"
	"testing"
)

func TestParseLine(t *testing.T) {
	good := `:::MLLOG {"key": "result_validity", "value": "VALID", "time_ms": 12.5, "namespace": "mlperf::logging", "event_type": "POINT_IN_TIME", "metadata": {"is_error": false, "is_warning": false, "file": "results.cc", "line_no": 674, "pid": 1, "tid": 2}}`
	e, err := ParseLine([]byte(good + "\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if e.Key != "result_validity" || string(e.Value) != `"VALID"` || e.TimeMs != 12.5 || e.Metadata.File != "results.cc" || e.Metadata.LineNo != 674 {
		t.Errorf("parsed %+v", e)
	}
	for _, c := range []struct{ line, want string }{
		{`MLLOG {"key": "a", "value": 1}`, "does not start with"},
		{`:::MLLOG {"key": "a", "value": 1`, "invalid :::MLLOG JSON"},
		{`:::MLLOG ["key", "value"]`, "invalid :::MLLOG JSON"},
		{`:::MLLOG {"value": 1}`, `no "key"`},
		{`:::MLLOG {"key": "a"}`, `"a" has no "value"`},
		{`:::MLLOG {"key": "a", "value": 1} {"key": "b", "value": 2}`, "text after"},
		{`:::MLLOG {"key": "a", "value": 1} trailing`, "text after"},
		{`:::MLLOG {"key": 5, "value": 1}`, "invalid :::MLLOG JSON"},
		{`:::MLLOG `, "invalid :::MLLOG JSON"},
	} {
		if _, err := ParseLine([]byte(c.line)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseLine(%q) error %v, want one containing %q", c.line, err, c.want)
		}
	}
}

func TestParseDetailNamesFileAndLine(t *testing.T) {
	log := `:::MLLOG {"key": "effective_scenario", "value": "Offline"}

:::MLLOG {"key": "result_validity", "value": "VALID"
`
	_, err := ParseDetail(strings.NewReader(log), "run/mlperf_log_detail.txt", Strict)
	if err == nil || !strings.Contains(err.Error(), "run/mlperf_log_detail.txt, line 3:") {
		t.Fatalf("error %v, want one naming the file and line 3", err)
	}
	_, err = ParseDetail(strings.NewReader("\n\n"), "empty.txt", Strict)
	if err == nil || !strings.Contains(err.Error(), "empty.txt: no :::MLLOG lines") {
		t.Errorf("empty log: %v", err)
	}
	_, err = ParseDetail(strings.NewReader("================\nMLPerf Results Summary\n"), "summary.txt", Strict)
	if err == nil || !strings.Contains(err.Error(), "summary.txt, line 1: does not start with") {
		t.Errorf("a summary file given as the detail log: %v", err)
	}

	// A value of the wrong type is an error naming the line it is on.
	d, err := ParseDetail(strings.NewReader(`:::MLLOG {"key": "effective_scenario", "value": "Offline"}
:::MLLOG {"key": "result_samples_per_second", "value": "fast"}
:::MLLOG {"key": "result_samples_per_second", "value": 12.5}
`), "d.txt", Strict)
	if err != nil {
		t.Fatal(err)
	}
	_, ok, err := d.Float("result_samples_per_second")
	if !ok || err == nil || !strings.Contains(err.Error(), `d.txt, line 2: "result_samples_per_second" is "fast", want a number`) {
		t.Errorf("Float on a string: ok %v err %v", ok, err)
	}
	if s, ok, err := d.String("effective_scenario"); s != "Offline" || !ok || err != nil {
		t.Errorf("String = %q %v %v", s, ok, err)
	}
	if _, ok, err := d.Bool("missing"); ok || err != nil {
		t.Errorf("missing key: ok %v err %v", ok, err)
	}
}

func FuzzParseLine(f *testing.F) {
	for _, s := range []string{
		`:::MLLOG {"key": "result_validity", "value": "VALID", "time_ms": 1.5, "namespace": "mlperf::logging", "event_type": "POINT_IN_TIME", "metadata": {"is_error": false, "is_warning": false, "file": "results.cc", "line_no": 674, "pid": 1, "tid": 2}}`,
		`:::MLLOG {"key": "loaded_qsl_set", "value": [1,2,3]}`,
		`:::MLLOG {"key": "effective_qsl_rng_seed", "value": 16159082839903944936}`,
		`:::MLLOG {"key": "a", "value": {"x": null}}`,
		`:::MLLOG {"key": "", "value": 1}`,
		`:::MLLOG`,
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		e, err := ParseLine(line)
		if err != nil {
			if e.Key != "" {
				t.Errorf("error %v with a non-empty entry %+v", err, e)
			}
			return
		}
		if e.Key == "" || len(e.Value) == 0 {
			t.Errorf("accepted %q as %+v: key and value are required", line, e)
		}
		if !strings.HasPrefix(string(line), Prefix) {
			t.Errorf("accepted %q without the %s prefix", line, Prefix)
		}
		// A parsed line parses the same when read as a one-line log.
		d, err := ParseDetail(strings.NewReader(strings.ReplaceAll(string(line), "\n", " ")), "fuzz", Strict)
		if err == nil && (len(d.Entries) != 1 || d.Entries[0].Key != e.Key) {
			t.Errorf("ParseDetail disagrees with ParseLine on %q", line)
		}
	})
}

// The checker's reading: line 1 must be an MLLOG line, others that are not
// are ignored; numbers keep their decimal text; true reads as a number.
func TestDetailAsChecker(t *testing.T) {
	raw := `:::MLLOG {"key": "effective_schedule_rng_seed", "value": 16159082839903944936, "metadata": {"is_error": false, "is_warning": false}}
:::MLLOG {"key": "effective_scenario", "value": "Server"}
:::MLLOG {"key": "early_stopping_met", "value": true}
:::MLLOG {"key": "duplicated", "value": 1, "metadata": {"is_warning": true}}
:::MLLOG {"key": "duplicated", "value": 2, "metadata": {"is_error": true}}
not a marker line
`
	log, err := ParseDetail(strings.NewReader(raw), "d.txt", AsChecker)
	if err != nil {
		t.Fatal(err)
	}
	if u, err := log.Uint("effective_schedule_rng_seed"); err != nil || u != 16159082839903944936 {
		t.Errorf("uint64 seed = %d, %v (must not lose precision)", u, err)
	}
	if f, _ := log.NumberFloat("duplicated"); f != 1 {
		t.Errorf("first value of a repeated key = %v, want 1", f)
	}
	if b, err := log.Truth("early_stopping_met"); err != nil || !b {
		t.Errorf("Truth = %v, %v", b, err)
	}
	if n, err := log.Number("early_stopping_met"); err != nil || n != "1" {
		t.Errorf("Number(true) = %v, %v, want 1 as in Python", n, err)
	}
	if _, err := log.NumberFloat("effective_scenario"); err == nil {
		t.Error("string read as a number")
	}
	if s, ok := log.Text("effective_scenario"); !ok || s != "Server" {
		t.Errorf("Text = %q %v", s, ok)
	}
	if w, e := log.Warnings(), log.Errors(); len(w) != 1 || w[0] != "duplicated: 1" || len(e) != 1 || e[0] != "duplicated: 2" {
		t.Errorf("warnings %q errors %q", w, e)
	}
	if _, err := ParseDetail(strings.NewReader(raw), "d.txt", Strict); err == nil || !strings.Contains(err.Error(), "line 6") {
		t.Errorf("strict reading of a foreign line: %v, want an error naming line 6", err)
	}
	if _, err := ParseDetail(strings.NewReader(":::MLLOG {bad json\n"), "d.txt", AsChecker); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("bad JSON: %v", err)
	}
	if _, err := ParseDetail(strings.NewReader("x\n:::MLLOG {\"key\": \"a\", \"value\": 1}\n"), "d.txt", AsChecker); err == nil || !strings.Contains(err.Error(), "line 1 does not start") {
		t.Errorf("foreign first line: %v", err)
	}
}

func FuzzParseDetail(f *testing.F) {
	f.Add(":::MLLOG {\"key\": \"a\", \"value\": 18446744073709551615, \"metadata\": {\"is_error\": true}}\n")
	f.Add(":::MLLOG {}\nx\n:::MLLOG {\"key\": 1}\n")
	f.Add(":::MLLOG {\"key\": \"b\", \"value\": true}\n\n:::MLLOG {\"key\": \"c\", \"value\": \"s\"}\n")
	f.Fuzz(func(t *testing.T, s string) {
		for _, mode := range []Strictness{Strict, AsChecker} {
			d, err := ParseDetail(strings.NewReader(s), "fuzz", mode)
			if err != nil {
				continue
			}
			for _, k := range d.Keys() {
				if !d.Has(k) {
					t.Fatalf("Has(%q) false for a parsed key", k)
				}
				d.Text(k)
				d.String(k)
				d.Float(k)
				d.NumberFloat(k)
				d.Uint(k)
				d.Truth(k)
				d.Bool(k)
			}
			d.Errors()
			d.Warnings()
		}
	})
}
