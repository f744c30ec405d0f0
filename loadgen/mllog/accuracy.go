package mllog

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// AccuracyEntry is one sample of the accuracy log.
type AccuracyEntry struct {
	// SeqID is LoadGen's sequence id of the sample ("seq_id").
	SeqID uint64
	// QSLIndex is the sample's index in the QSL ("qsl_idx").
	QSLIndex int
	// Data is the response the SUT completed the sample with, decoded from
	// the log's hex ("data"); empty (not nil) for a logged "".
	Data []byte
	// TokenCount is the response's token count ("token_count"); 0 when the
	// log has none, which HasTokenCount tells apart from a logged 0.
	TokenCount int64
	// HasTokenCount reports whether the entry carried "token_count".
	HasTokenCount bool
	// TokenData is what the SUT reported as the sample's first token(s)
	// ("token_data"), which LoadGen logs when it measures token latencies
	// outside Offline; nil when absent, empty (not nil) for a logged "".
	// Compliance TEST06 checks it against the start of Data.
	TokenData []byte
}

// rawAccuracyEntry mirrors one logged object. Pointers tell a missing field from a zero.
type rawAccuracyEntry struct {
	SeqID      *uint64 `json:"seq_id"`
	QSLIndex   *int64  `json:"qsl_idx"`
	Data       *string `json:"data"`
	TokenCount *int64  `json:"token_count"`
	TokenData  *string `json:"token_data"`
}

// ErrTruncated is wrapped by the error ParseAccuracy and ReadAccuracy return for a log that
// ends before its closing "]" — what LoadGen leaves behind when the run
// crashed or was killed, and what the submission's truncated copy looks like.
var ErrTruncated = errors.New("accuracy log is truncated")

// truncatedMaxSize is the size below which the submission checker takes an
// accuracy log as already truncated (MAX_ACCURACY_LOG_SIZE, 10 KiB).
const truncatedMaxSize = 10 * 1024

// ReadAccuracy parses the accuracy log at path. Errors name the file and, where one is
// at fault, the entry (counting from 0).
func ReadAccuracy(path string) ([]AccuracyEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("accuracy log: %w", err)
	}
	defer f.Close()
	entries, err := ParseAccuracy(f)
	if err != nil {
		// truncate_accuracy_log.py (tools/submission) cuts a submitted log to
		// its first and last 4,096 bytes joined by "\n\n...\n\n"; such a copy
		// cannot be evaluated, so say so instead of leaving a JSON error alone.
		if st, serr := f.Stat(); serr == nil && st.Size() <= truncatedMaxSize {
			return nil, fmt.Errorf("accuracy log: %s: %w (the file has only %d bytes: if it is a submission's truncated copy, evaluate the full log instead)", path, err, st.Size())
		}
		return nil, fmt.Errorf("accuracy log: %s: %w", path, err)
	}
	return entries, nil
}

// ParseAccuracy reads a whole accuracy log from r. It streams the array with a
// json.Decoder, so a 48,289-entry log is never held twice in memory. Every
// entry must have "seq_id", "qsl_idx" (non-negative) and "data" (hex, either
// case, as Python's bytes.fromhex in the reference evaluators accepts).
// Nothing but white space may follow the closing "]".
func ParseAccuracy(r io.Reader) ([]AccuracyEntry, error) {
	dec := json.NewDecoder(bufio.NewReaderSize(r, 1<<16))
	tok, err := dec.Token()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w: the file is empty (LoadGen writes at least \"[\\n]\\n\"; did the run start?)", ErrTruncated)
		}
		return nil, fmt.Errorf("not a JSON array at byte %d: %w", dec.InputOffset(), err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, fmt.Errorf("not a JSON array: starts with %v, want '['", tok)
	}
	var entries []AccuracyEntry
	for i := 0; ; i++ {
		if !dec.More() {
			break
		}
		var raw rawAccuracyEntry
		if err := dec.Decode(&raw); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("%w: entry %d is cut off at byte %d after %d complete entries (did the LoadGen run crash, or is this the submission's 8 KiB truncated copy? use the full log)", ErrTruncated, i, dec.InputOffset(), i)
			}
			return nil, fmt.Errorf("entry %d (byte %d): %w", i, dec.InputOffset(), err)
		}
		e, err := raw.entry()
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", i, err)
		}
		entries = append(entries, e)
	}
	tok, err = dec.Token()
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("%w: no closing ']' after %d complete entries (did the LoadGen run crash before it closed the log?)", ErrTruncated, len(entries))
		}
		return nil, fmt.Errorf("after entry %d (byte %d): %w", len(entries)-1, dec.InputOffset(), err)
	}
	if d, ok := tok.(json.Delim); !ok || d != ']' {
		return nil, fmt.Errorf("after entry %d: got %v, want ']'", len(entries)-1, tok)
	}
	if tok, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, fmt.Errorf("after the closing ']' (byte %d): %w", dec.InputOffset(), err)
		}
		return nil, fmt.Errorf("unexpected %v after the closing ']' (byte %d)", tok, dec.InputOffset())
	}
	return entries, nil
}

func (raw *rawAccuracyEntry) entry() (AccuracyEntry, error) {
	switch {
	case raw.SeqID == nil:
		return AccuracyEntry{}, errors.New(`missing "seq_id"`)
	case raw.QSLIndex == nil:
		return AccuracyEntry{}, fmt.Errorf(`seq_id %d: missing "qsl_idx"`, *raw.SeqID)
	case raw.Data == nil:
		return AccuracyEntry{}, fmt.Errorf(`seq_id %d: missing "data"`, *raw.SeqID)
	case *raw.QSLIndex < 0:
		return AccuracyEntry{}, fmt.Errorf(`seq_id %d: negative "qsl_idx" %d`, *raw.SeqID, *raw.QSLIndex)
	}
	data, err := hex.DecodeString(*raw.Data)
	if err != nil {
		return AccuracyEntry{}, fmt.Errorf(`seq_id %d: "data" is not hex: %w`, *raw.SeqID, err)
	}
	e := AccuracyEntry{SeqID: *raw.SeqID, QSLIndex: int(*raw.QSLIndex), Data: data}
	if raw.TokenCount != nil {
		e.TokenCount, e.HasTokenCount = *raw.TokenCount, true
	}
	if raw.TokenData != nil {
		td, err := hex.DecodeString(*raw.TokenData)
		if err != nil {
			return AccuracyEntry{}, fmt.Errorf(`seq_id %d: "token_data" is not hex: %w`, *raw.SeqID, err)
		}
		e.TokenData = td
	}
	return e, nil
}

// WriteAccuracy writes entries in LoadGen's exact layout (header "[", entries joined
// by ",\n", footer "\n]\n", upper-case hex). "token_data" is written for an
// entry only when TokenData is non-nil, "token_count" only when
// HasTokenCount is set. Tests and tools use it to produce logs
// indistinguishable from LoadGen's.
func WriteAccuracy(w io.Writer, entries []AccuracyEntry) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("[")
	var buf []byte
	for i, e := range entries {
		buf = buf[:0]
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, "\n{ \"seq_id\" : "...)
		buf = strconv.AppendUint(buf, e.SeqID, 10)
		buf = append(buf, ", \"qsl_idx\" : "...)
		buf = strconv.AppendInt(buf, int64(e.QSLIndex), 10)
		buf = append(buf, ", \"data\" : \""...)
		buf = appendUpperHex(buf, e.Data)
		buf = append(buf, '"')
		if e.TokenData != nil {
			buf = append(buf, ", \"token_data\" : \""...)
			buf = appendUpperHex(buf, e.TokenData)
			buf = append(buf, '"')
		}
		if e.HasTokenCount {
			buf = append(buf, ", \"token_count\" : "...)
			buf = strconv.AppendInt(buf, e.TokenCount, 10)
		}
		buf = append(buf, " }"...)
		bw.Write(buf)
	}
	bw.WriteString("\n]\n")
	return bw.Flush()
}

func appendUpperHex(dst, src []byte) []byte {
	const digits = "0123456789ABCDEF"
	for _, b := range src {
		dst = append(dst, digits[b>>4], digits[b&0x0F])
	}
	return dst
}
