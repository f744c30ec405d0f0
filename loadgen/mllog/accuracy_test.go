package mllog

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// loadgenLog is laid out byte for byte as LoadGen 6.0.17 writes it
// (logging.cc: "[" then ",\n{ " / "\n{ " before each entry, LogArgs joins
// `"name" : value` with ", ", " }" after each, "\n]\n" at the end).
const loadgenLog = "[\n" +
	`{ "seq_id" : 0, "qsl_idx" : 12, "data" : "48656C6C6F", "token_count" : 5 },` + "\n" +
	`{ "seq_id" : 1, "qsl_idx" : 3, "data" : "", "token_count" : 0 },` + "\n" +
	`{ "seq_id" : 7, "qsl_idx" : 0, "data" : "E282AC", "token_data" : "E2", "token_count" : 1 }` +
	"\n]\n"

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []AccuracyEntry
	}{
		{
			name: "loadgen layout with token counts",
			in:   loadgenLog,
			want: []AccuracyEntry{
				{SeqID: 0, QSLIndex: 12, Data: []byte("Hello"), TokenCount: 5, HasTokenCount: true},
				{SeqID: 1, QSLIndex: 3, Data: []byte{}, TokenCount: 0, HasTokenCount: true},
				{SeqID: 7, QSLIndex: 0, Data: []byte("€"), TokenData: []byte{0xe2}, TokenCount: 1, HasTokenCount: true},
			},
		},
		{
			name: "no token counts (accuracy-only SUT)",
			in:   "[\n{ \"seq_id\" : 3, \"qsl_idx\" : 1, \"data\" : \"7B7D\" }\n]\n",
			want: []AccuracyEntry{{SeqID: 3, QSLIndex: 1, Data: []byte("{}")}},
		},
		{
			name: "empty log as LoadGen closes it with no samples",
			in:   "[\n]\n",
			want: nil,
		},
		{
			name: "lower-case hex and compact JSON without trailing newline",
			in:   `[{"seq_id":18446744073709551615,"qsl_idx":48288,"data":"6869"}]`,
			want: []AccuracyEntry{{SeqID: 18446744073709551615, QSLIndex: 48288, Data: []byte("hi")}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseAccuracy(strings.NewReader(tc.in))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Parse mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		truncated bool
		wantSub   string
	}{
		{"empty file", "", true, "empty"},
		{"crash before first entry", "[", true, "no closing ']' after 0 complete entries"},
		{"crash after an entry", "[\n{ \"seq_id\" : 0, \"qsl_idx\" : 1, \"data\" : \"\" }", true, "no closing ']' after 1 complete entries"},
		{"crash after a comma", "[\n{ \"seq_id\" : 0, \"qsl_idx\" : 1, \"data\" : \"\" },", true, "after 1 complete entries"},
		{"crash inside an entry", "[\n{ \"seq_id\" : 0, \"qsl_idx\" : 1, \"data\" : \"\" },\n{ \"seq_id\" : 1, \"qsl_idx\" : 2, \"da", true, "entry 1 is cut off"},
		{"submission's truncated copy", "[\n{ \"seq_id\" : 0, \"qsl_idx\" : 1, \"data\" : \"4142\n\n...\n\n\" }\n]\n", false, "entry 0"},
		{"object not array", `{"seq_id":0}`, false, "want '['"},
		{"not JSON", "hello", false, "not a JSON array"},
		{"missing seq_id", `[{"qsl_idx":1,"data":""}]`, false, `entry 0: missing "seq_id"`},
		{"missing qsl_idx", `[{"seq_id":4,"data":""}]`, false, `entry 0: seq_id 4: missing "qsl_idx"`},
		{"missing data", `[{"seq_id":0,"qsl_idx":1,"data":""},{"seq_id":4,"qsl_idx":1}]`, false, `entry 1: seq_id 4: missing "data"`},
		{"negative qsl_idx", `[{"seq_id":4,"qsl_idx":-1,"data":""}]`, false, `negative "qsl_idx" -1`},
		{"odd hex", `[{"seq_id":4,"qsl_idx":1,"data":"ABC"}]`, false, `entry 0: seq_id 4: "data" is not hex`},
		{"non-hex", `[{"seq_id":4,"qsl_idx":1,"data":"ZZ"}]`, false, `"data" is not hex`},
		{"string seq_id", `[{"seq_id":"4","qsl_idx":1,"data":""}]`, false, "entry 0"},
		{"array element not object", `[1]`, false, "entry 0"},
		{"trailing garbage", "[\n]\n]", false, "after the closing ']'"},
		{"two arrays", "[]\n[]", false, "after the closing ']'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseAccuracy(strings.NewReader(tc.in))
			if err == nil {
				t.Fatalf("ParseAccuracy(%q) = %v, want error", tc.in, got)
			}
			if errors.Is(err, ErrTruncated) != tc.truncated {
				t.Errorf("errors.Is(%v, ErrTruncated) = %v, want %v", err, !tc.truncated, tc.truncated)
			}
			if !strings.Contains(err.Error(), tc.wantSub) {
				t.Errorf("error %q does not contain %q", err, tc.wantSub)
			}
		})
	}
}

func TestReadNamesFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mlperf_log_accuracy.json")
	if err := os.WriteFile(path, []byte(loadgenLog[:len(loadgenLog)-3]), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadAccuracy(path)
	if err == nil || !strings.Contains(err.Error(), path) || !errors.Is(err, ErrTruncated) {
		t.Fatalf("ReadAccuracy(truncated) error = %v, want ErrTruncated naming %s", err, path)
	}
	// The submission's copy keeps the first and last 4,096 bytes around "\n\n...\n\n".
	cut := "[\n{ \"seq_id\" : 0, \"qsl_idx\" : 1, \"data\" : \"41" + "\n\n...\n\n" + "42\" }\n]\n"
	if err := os.WriteFile(path, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadAccuracy(path); err == nil || !strings.Contains(err.Error(), "truncated copy") {
		t.Errorf("ReadAccuracy(submission copy) error = %v, want a hint about the truncated copy", err)
	}
	if _, err := ReadAccuracy(filepath.Join(dir, "absent.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadAccuracy(absent) error = %v, want os.ErrNotExist", err)
	}
	if err := os.WriteFile(path, []byte(loadgenLog), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadAccuracy(path)
	if err != nil || len(got) != 3 {
		t.Fatalf("Read = %d entries, %v; want 3, nil", len(got), err)
	}
}

// TestWriteMatchesLoadGen checks Write against the hand-written LoadGen layout.
func TestWriteMatchesLoadGen(t *testing.T) {
	entries := []AccuracyEntry{
		{SeqID: 0, QSLIndex: 12, Data: []byte("Hello"), TokenCount: 5, HasTokenCount: true},
		{SeqID: 1, QSLIndex: 3, Data: nil, TokenCount: 0, HasTokenCount: true},
	}
	want := "[\n" +
		`{ "seq_id" : 0, "qsl_idx" : 12, "data" : "48656C6C6F", "token_count" : 5 },` + "\n" +
		`{ "seq_id" : 1, "qsl_idx" : 3, "data" : "", "token_count" : 0 }` +
		"\n]\n"
	var buf bytes.Buffer
	if err := WriteAccuracy(&buf, entries); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("Write mismatch (-want +got):\n%s", diff)
	}
	buf.Reset()
	if err := WriteAccuracy(&buf, nil); err != nil || buf.String() != "[\n]\n" {
		t.Errorf("WriteAccuracy(nil) = %q, %v; want %q", buf.String(), err, "[\n]\n")
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(loadgenLog))
	f.Add([]byte("[\n]\n"))
	f.Add([]byte(`[{"seq_id":1,"qsl_idx":2,"data":"00FF"}]`))
	f.Add([]byte("[\n{ \"seq_id\" : 0, \"qsl_idx\" : 1, \"da"))
	f.Fuzz(func(t *testing.T, in []byte) {
		entries, err := ParseAccuracy(bytes.NewReader(in))
		if err != nil {
			return
		}
		// Whatever parses must survive a round trip through LoadGen's layout.
		var buf bytes.Buffer
		if err := WriteAccuracy(&buf, entries); err != nil {
			t.Fatal(err)
		}
		again, err := ParseAccuracy(&buf)
		if err != nil {
			t.Fatalf("re-parse of written log: %v\n%s", err, buf.Bytes())
		}
		if diff := cmp.Diff(entries, again, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round trip mismatch (-first +second):\n%s", diff)
		}
	})
}

// FuzzRoundTrip builds entries from fuzzed fields and checks Write→Parse is lossless.
func FuzzRoundTrip(f *testing.F) {
	f.Add(uint64(0), uint32(12), []byte("Hello"), int64(5), true)
	f.Add(uint64(1<<63), uint32(0), []byte{}, int64(-1), false)
	f.Fuzz(func(t *testing.T, seq uint64, idx uint32, data []byte, n int64, hasN bool) {
		in := []AccuracyEntry{{SeqID: seq, QSLIndex: int(idx), Data: data, HasTokenCount: hasN}, {SeqID: seq + 1, QSLIndex: 1, Data: []byte("x")}}
		if hasN {
			in[0].TokenCount = n
		}
		var buf bytes.Buffer
		if err := WriteAccuracy(&buf, in); err != nil {
			t.Fatal(err)
		}
		got, err := ParseAccuracy(&buf)
		if err != nil {
			t.Fatalf("ParseAccuracy(WriteAccuracy(%v)): %v", in, err)
		}
		if diff := cmp.Diff(in, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round trip mismatch (-want +got):\n%s", diff)
		}
	})
}

func BenchmarkParse48k(b *testing.B) {
	// A log shaped like a full qwen3-vl accuracy run: 48,289 entries with
	// ~150-byte JSON responses.
	resp := []byte(`{"category": "Apparel & Accessories > Clothing > Shirts & Tops", "brand": "Acme Outfitters", "is_secondhand": false}`)
	entries := make([]AccuracyEntry, 48289)
	for i := range entries {
		entries[i] = AccuracyEntry{SeqID: uint64(i), QSLIndex: (i * 7919) % 48289, Data: resp, TokenCount: 40, HasTokenCount: true}
	}
	var buf bytes.Buffer
	if err := WriteAccuracy(&buf, entries); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		got, err := ParseAccuracy(bytes.NewReader(buf.Bytes()))
		if err != nil || len(got) != len(entries) {
			b.Fatal(fmt.Sprint(len(got), err))
		}
	}
}

// TestTokenData: LoadGen logs "token_data" (the first token(s)) between
// "data" and "token_count" when it measures token latencies outside
// Offline; it is decoded, and written back in the same place.
func TestTokenData(t *testing.T) {
	const log = "[\n{ \"seq_id\" : 3, \"qsl_idx\" : 1, \"data\" : \"0A000000\", \"token_data\" : \"0A000000\", \"token_count\" : 1 },\n" +
		"{ \"seq_id\" : 4, \"qsl_idx\" : 0, \"data\" : \"\", \"token_data\" : \"\", \"token_count\" : 0 }\n]\n"
	entries, err := ParseAccuracy(strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	want := []AccuracyEntry{
		{SeqID: 3, QSLIndex: 1, Data: []byte{10, 0, 0, 0}, TokenData: []byte{10, 0, 0, 0}, TokenCount: 1, HasTokenCount: true},
		{SeqID: 4, QSLIndex: 0, Data: []byte{}, TokenData: []byte{}, TokenCount: 0, HasTokenCount: true},
	}
	if d := cmp.Diff(want, entries); d != "" {
		t.Errorf("entries (-want +got):\n%s", d)
	}
	var buf strings.Builder
	if err := WriteAccuracy(&buf, entries); err != nil {
		t.Fatal(err)
	}
	if buf.String() != log {
		t.Errorf("Write:\n%q\nwant\n%q", buf.String(), log)
	}
	if _, err := ParseAccuracy(strings.NewReader(`[{ "seq_id" : 1, "qsl_idx" : 0, "data" : "00", "token_data" : "zz" }]`)); err == nil || !strings.Contains(err.Error(), "token_data") {
		t.Errorf("bad token_data hex: error %v", err)
	}
}
