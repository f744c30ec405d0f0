package logtest

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
)

// FakeAccLog returns an ASCII accuracy log of exactly n bytes whose every
// byte position is recognisable (so wrong slices show up).
func FakeAccLog(n int) string {
	var b strings.Builder
	b.WriteString("[\n")
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "{ \"seq_id\" : %d, \"qsl_idx\" : %d, \"data\" : \"%08X\" },\n", i, i*7, i*2654435761)
	}
	return b.String()[:n]
}

// Sample is one accuracy-log entry to write: Data are its tokens; nil
// TokenData leaves the token_data field out and nil Count the token_count
// field; BadData (if set) replaces the hex of Data.
type Sample struct {
	Data      []int32
	TokenData []int32
	Count     *int64
	BadData   string
}

// hexTokens is the hex LoadGen logs for int32 little-endian tokens.
func hexTokens(toks []int32) string {
	b := make([]byte, 4*len(toks))
	for i, t := range toks {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(t))
	}
	return strings.ToUpper(hex.EncodeToString(b))
}

// WriteAccLog writes testDir/accuracy/mlperf_log_accuracy.json laid out as
// LoadGen 6.0.17 writes it (logging.cc AsyncLog::LogAccuracy) and returns
// its path.
func WriteAccLog(t testing.TB, testDir string, samples []Sample) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("[")
	for i, s := range samples {
		if i > 0 {
			b.WriteString(",")
		}
		data := hexTokens(s.Data)
		if s.BadData != "" {
			data = s.BadData
		}
		fmt.Fprintf(&b, "\n{ \"seq_id\" : %d, \"qsl_idx\" : %d, \"data\" : \"%s\"", i, i, data)
		if s.TokenData != nil {
			fmt.Fprintf(&b, ", \"token_data\" : \"%s\"", hexTokens(s.TokenData))
		}
		if s.Count != nil {
			fmt.Fprintf(&b, ", \"token_count\" : %d", *s.Count)
		}
		b.WriteString(" }")
	}
	b.WriteString("\n]\n")
	p := filepath.Join(testDir, "accuracy", mllog.AccuracyFile)
	MustWrite(t, p, b.String())
	return p
}

// Cnt returns a pointer to n, for Sample.Count.
func Cnt(n int64) *int64 { return &n }

// EOT is llama3.1-8b's end-of-sequence token id (<|eot_id|>).
const EOT = 128009

// LenSamples makes one response per length, of that many (zero) tokens,
// each with its token_count.
func LenSamples(lengths ...int) []Sample {
	var out []Sample
	for _, n := range lengths {
		out = append(out, Sample{Data: make([]int32, n), Count: Cnt(int64(n))})
	}
	return out
}
