package mllog

import "encoding/binary"

// Int32Size is the size of the token IDs the LLM benchmarks log: their
// responses are little-endian int32s, read by the references with
// numpy.frombuffer(..., dtype=int32) (--dtype int32).
const Int32Size = 4

// AppendTokenIDs decodes data, the response of an accuracy-log entry (or
// its first token), as little-endian signed integers of size bytes each
// (2, 4 or 8: numpy's int16, int32 and int64, the references' --dtype
// choices) and appends them to dst. ok is false, and dst comes back as it
// was, when data is not a whole number of them, where numpy.frombuffer
// raises, or size is none of those.
func AppendTokenIDs[T ~int | ~int32 | ~int64](dst []T, data []byte, size int) (out []T, ok bool) {
	if (size != 2 && size != 4 && size != 8) || len(data)%size != 0 {
		return dst, false
	}
	for p := 0; p < len(data); p += size {
		switch size {
		case 2:
			dst = append(dst, T(int16(binary.LittleEndian.Uint16(data[p:]))))
		case 4:
			dst = append(dst, T(int32(binary.LittleEndian.Uint32(data[p:]))))
		default:
			dst = append(dst, T(int64(binary.LittleEndian.Uint64(data[p:]))))
		}
	}
	return dst, true
}
