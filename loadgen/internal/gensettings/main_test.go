package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedFilesAreUpToDate regenerates the Go copies of the
// TestSettings list and compares them with the committed files.
func TestGeneratedFilesAreUpToDate(t *testing.T) {
	const header = "shim/mlpg_settings.h"
	src, err := os.ReadFile(filepath.Join("..", "..", header))
	if err != nil {
		t.Fatal(err)
	}
	plain, cgo, err := generate(header, src)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]byte{"settings_gen.go": plain, "settings_cgo_gen.go": cgo} {
		got, err := os.ReadFile(filepath.Join("..", "..", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("loadgen/%s is stale: run go generate ./loadgen", name)
		}
	}
}

func TestParse(t *testing.T) {
	const good = "/* list */\n" +
		"#define MLPG_TEST_SETTINGS(X) \\\n" +
		"  X(SCENARIO, scenario, Scenario, SingleStream, \"is the scenario.\") \\\n" +
		"  /* a comment inside */ \\\n" +
		"  X(F64, server_target_qps, ServerTargetQPS, 1.5, \\\n" +
		"    \"is the rate, \" \"in (queries) per second.\")\n" +
		"#define OTHER(X) X(U64, ignored, Ignored, 0, \"no\")\n"
	fields, err := parse("h", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(fields) != 2 {
		t.Fatalf("%d fields, want 2: %+v", len(fields), fields)
	}
	f := fields[1]
	if f.kind != "F64" || f.cName != "server_target_qps" || f.goName != "ServerTargetQPS" || f.deflt != "1.5" ||
		f.doc != "is the rate, in (queries) per second." || f.srcLine != 5 {
		t.Errorf("field = %+v", f)
	}

	for _, tc := range []struct{ name, body, want string }{
		{"no list", "#define OTHER 1\n", "no \"#define MLPG_TEST_SETTINGS(X)\" line"},
		{"empty", "#define MLPG_TEST_SETTINGS(X)\n", "lists no fields"},
		{"kind", "#define MLPG_TEST_SETTINGS(X) X(STR, a, A, 0, \"d\")\n", `h:1: unknown kind "STR"`},
		{"unexported", "#define MLPG_TEST_SETTINGS(X) X(U64, a, a, 0, \"d\")\n", `Go name "a" is not exported`},
		{"no doc", "#define MLPG_TEST_SETTINGS(X) X(U64, a, A, 0)\n", "found ), want ,"},
		{"default", "#define MLPG_TEST_SETTINGS(X) X(U64, a, A, \"x\", \"d\")\n", "default of a"},
		{"twice", "#define MLPG_TEST_SETTINGS(X) \\\n X(U64, a, A, 0, \"d\") \\\n X(U64, a, B, 0, \"d\")\n", "h:3: field a (B) listed twice"},
		{"unclosed", "#define MLPG_TEST_SETTINGS(X) X(U64, a, A, 0, \"d\"\n", "want )"},
		{"not X", "#define MLPG_TEST_SETTINGS(X) Y(U64, a, A, 0, \"d\")\n", `found "Y", want X(`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse("h", []byte(tc.body))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// FuzzGenerate: any header either fails with an error or yields two
// gofmt'ed Go files; it never panics.
func FuzzGenerate(f *testing.F) {
	src, err := os.ReadFile(filepath.Join("..", "..", "shim", "mlpg_settings.h"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(src)
	f.Add([]byte("#define MLPG_TEST_SETTINGS(X) X(U64, a, A, 0, \"d\")\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		plain, cgo, err := generate("h", src)
		if err == nil && (len(plain) == 0 || len(cgo) == 0) {
			t.Error("no error and no output")
		}
	})
}
