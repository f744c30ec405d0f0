package mllog

import (
	"encoding/binary"
	"slices"
	"testing"
)

// TestAppendTokenIDs: little-endian and signed in every size numpy's
// --dtype allows, appended after what dst holds, and refused (dst as it
// was) where numpy.frombuffer raises.
func TestAppendTokenIDs(t *testing.T) {
	t.Parallel()
	i32 := []byte{1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x00, 0x01, 0x02, 0x03}
	if got, ok := AppendTokenIDs([]int{7}, i32, Int32Size); !ok || !slices.Equal(got, []int{7, 1, -1, 0x03020100}) {
		t.Errorf("int32: %v, %v", got, ok)
	}
	if got, ok := AppendTokenIDs[int64](nil, []byte{0xfe, 0xff, 5, 0}, 2); !ok || !slices.Equal(got, []int64{-2, 5}) {
		t.Errorf("int16: %v, %v", got, ok)
	}
	i64 := binary.LittleEndian.AppendUint64(nil, uint64(1<<40))
	i64 = binary.LittleEndian.AppendUint64(i64, ^uint64(0))
	if got, ok := AppendTokenIDs[int64](nil, i64, 8); !ok || !slices.Equal(got, []int64{1 << 40, -1}) {
		t.Errorf("int64: %v, %v", got, ok)
	}
	if got, ok := AppendTokenIDs[int32](nil, nil, Int32Size); !ok || len(got) != 0 {
		t.Errorf("no data: %v, %v", got, ok)
	}
	for _, tc := range []struct {
		data []byte
		size int
	}{{i32[:5], 4}, {i32[:3], 2}, {i32, 8}, {i32, 3}, {i32, 0}} {
		if got, ok := AppendTokenIDs([]int32{9}, tc.data, tc.size); ok || !slices.Equal(got, []int32{9}) {
			t.Errorf("%d bytes of size %d: %v, %v; want refused, dst unchanged", len(tc.data), tc.size, got, ok)
		}
	}
}

// FuzzAppendTokenIDs: int32 IDs written as LoadGen logs them come back.
func FuzzAppendTokenIDs(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, raw []byte) {
		var want []int32
		var data []byte
		for p := 0; p+4 <= len(raw); p += 4 {
			v := int32(binary.BigEndian.Uint32(raw[p:]))
			want = append(want, v)
			data = binary.LittleEndian.AppendUint32(data, uint32(v))
		}
		got, ok := AppendTokenIDs[int32](nil, data, Int32Size)
		if !ok || !slices.Equal(got, want) {
			t.Fatalf("decoded %v (%v), want %v", got, ok, want)
		}
	})
}
