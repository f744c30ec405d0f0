package codetest

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"testing"
)

// pickleStr writes s as pickle protocol 4 does: PROTO 4, FRAME,
// SHORT_BINUNICODE or BINUNICODE, MEMOIZE, STOP.
func pickleStr(s string) []byte {
	var body bytes.Buffer
	if len(s) < 256 {
		body.Write([]byte{0x8c, byte(len(s))})
	} else {
		body.WriteByte('X')
		binary.Write(&body, binary.LittleEndian, uint32(len(s)))
	}
	body.WriteString(s)
	body.Write([]byte{0x94, '.'})
	var b bytes.Buffer
	b.Write([]byte{0x80, 4, 0x95})
	binary.Write(&b, binary.LittleEndian, uint64(body.Len()))
	b.Write(body.Bytes())
	return b.Bytes()
}

// FuzzUnpickleString checks that any string survives a pickle round trip
// and that arbitrary bytes never panic the reader.
func FuzzUnpickleString(f *testing.F) {
	f.Add("[]", []byte{0x80, 4, '.'})
	f.Add(`[{"input": "1", "output": "2"}]`, []byte("X\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, s string, junk []byte) {
		unpickleString(junk)
		got, err := unpickleString(pickleStr(s))
		if err != nil || got != s {
			t.Fatalf("round trip of %q: %q, %v", s, got, err)
		}
	})
}

// FuzzDecodeLCB checks that private tests packed as the dataset packs
// them decode to the same tests as their JSON form.
func FuzzDecodeLCB(f *testing.F) {
	f.Add("1\n2", "3", "add")
	f.Add("", "", "")
	f.Fuzz(func(t *testing.T, in, out, fn string) {
		tests, _ := json.Marshal([]Test{{Input: in, Output: out}})
		var z bytes.Buffer
		w := zlib.NewWriter(&z)
		w.Write(pickleStr(string(tests)))
		w.Close()
		packed := base64.StdEncoding.EncodeToString(z.Bytes())
		meta, _ := json.Marshal(map[string]string{"func_name": fn})
		a, err1 := DecodeLCB("q", "[]", packed, string(meta))
		b, err2 := DecodeLCB("q", "[]", string(tests), string(meta))
		if err1 != nil || err2 != nil || len(a.Tests) != 1 || a.Tests[0] != b.Tests[0] || a.FuncName != b.FuncName {
			t.Fatalf("packed %+v %v, plain %+v %v", a, err1, b, err2)
		}
	})
}
