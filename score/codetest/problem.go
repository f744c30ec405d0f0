package codetest

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
)

// Test is one LiveCodeBench test case. For stdin/stdout problems Input is
// the program's standard input and Output its expected standard output; for
// functional problems Input holds one JSON argument per line and Output the
// JSON of the expected return value.
type Test struct {
	Input  string `json:"input"`
	Output string `json:"output"`
}

// Problem is one LiveCodeBench question: its tests, public first then
// private (the order of CodeGenerationProblem.get_evaluation_sample), and
// FuncName, the method functional tests call ("" for stdin/stdout).
type Problem struct {
	ID       string
	Tests    []Test
	FuncName string
}

// DecodeLCB builds a Problem from the columns of LiveCodeBench's
// code_generation_lite dataset: public_test_cases (JSON), private_test_cases
// (JSON, or base64 of zlib of a pickled JSON string, as the dataset ships
// them) and metadata (JSON with an optional "func_name").
func DecodeLCB(id, public, private, metadata string) (Problem, error) {
	p := Problem{ID: id}
	var pub, priv []Test
	if err := json.Unmarshal([]byte(public), &pub); err != nil {
		return p, fmt.Errorf("question %s: public_test_cases is not a JSON list of tests: %v", id, err)
	}
	if err := json.Unmarshal([]byte(private), &priv); err != nil {
		raw, derr := unpackPrivate(private)
		if derr != nil {
			return p, fmt.Errorf("question %s: private_test_cases is neither JSON nor base64-zlib-pickle: %v", id, derr)
		}
		if err := json.Unmarshal([]byte(raw), &priv); err != nil {
			return p, fmt.Errorf("question %s: unpacked private_test_cases is not a JSON list of tests: %v", id, err)
		}
	}
	var meta struct {
		FuncName *string `json:"func_name"`
	}
	if err := json.Unmarshal([]byte(metadata), &meta); err != nil {
		return p, fmt.Errorf("question %s: metadata is not JSON: %v", id, err)
	}
	if meta.FuncName != nil {
		p.FuncName = *meta.FuncName
	}
	p.Tests = append(pub, priv...)
	return p, nil
}

// unpackPrivate undoes base64 → zlib → pickle of one str.
func unpackPrivate(s string) (string, error) {
	z, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return "", fmt.Errorf("base64: %v", err)
	}
	zr, err := zlib.NewReader(bytes.NewReader(z))
	if err != nil {
		return "", fmt.Errorf("zlib: %v", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return "", fmt.Errorf("zlib: %v", err)
	}
	return unpickleString(raw)
}

// unpickleString reads a pickle (protocol 2 to 5) whose only object is a
// str: PROTO, FRAME, one of the BINUNICODE opcodes, memo opcodes and STOP.
func unpickleString(b []byte) (string, error) {
	var out *string
	for i := 0; i < len(b); {
		op := b[i]
		i++
		var n uint64
		switch op {
		case 0x80: // PROTO
			i++
			continue
		case 0x95: // FRAME
			i += 8
			continue
		case 0x94: // MEMOIZE
			continue
		case 'q': // BINPUT
			i++
			continue
		case 'r': // LONG_BINPUT
			i += 4
			continue
		case '.': // STOP
			if out == nil {
				return "", fmt.Errorf("pickle holds no string")
			}
			return *out, nil
		case 0x8c: // SHORT_BINUNICODE
			if i+1 > len(b) {
				return "", fmt.Errorf("pickle truncated")
			}
			n, i = uint64(b[i]), i+1
		case 'X': // BINUNICODE
			if i+4 > len(b) {
				return "", fmt.Errorf("pickle truncated")
			}
			n, i = uint64(binary.LittleEndian.Uint32(b[i:])), i+4
		case 0x8d: // BINUNICODE8
			if i+8 > len(b) {
				return "", fmt.Errorf("pickle truncated")
			}
			n, i = binary.LittleEndian.Uint64(b[i:]), i+8
		default:
			return "", fmt.Errorf("pickle opcode 0x%02x at byte %d is not part of a pickled str", op, i-1)
		}
		if n > uint64(len(b)-i) || out != nil {
			return "", fmt.Errorf("pickle string of %d bytes does not fit or is not alone", n)
		}
		s := string(b[i : i+int(n)])
		out, i = &s, i+int(n)
	}
	return "", fmt.Errorf("pickle has no STOP")
}
