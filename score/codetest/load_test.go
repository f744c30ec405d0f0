package codetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadLCB reads code_generation_lite rows from a file and from a folder
// of them, and names the file and line of a bad row.
func TestLoadLCB(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	row := `{"question_id": "q1", "public_test_cases": "[{\"input\": \"1\\n\", \"output\": \"2\\n\", \"testtype\": \"stdin\"}]", "private_test_cases": "[]", "metadata": "{}"}`
	fn := `{"question_id": "q2", "public_test_cases": "[{\"input\": \"[1]\", \"output\": \"1\", \"testtype\": \"functional\"}]", "private_test_cases": "[]", "metadata": "{\"func_name\": \"f\"}"}`
	if err := os.WriteFile(filepath.Join(dir, "test.jsonl"), []byte(row+"\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "test2.jsonl"), []byte(fn+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ps, err := LoadLCB(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || len(ps["q1"].Tests) != 1 || ps["q1"].Tests[0].Output != "2\n" || ps["q2"].FuncName != "f" {
		t.Fatalf("problems %+v", ps)
	}
	if ps, err := LoadLCB(filepath.Join(dir, "test.jsonl")); err != nil || len(ps) != 1 {
		t.Fatalf("one file: %v, %v", ps, err)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(row+"\n{not json\n"), 0o644)
	if _, err := LoadLCB(bad); err == nil || !strings.Contains(err.Error(), "bad.jsonl:2") {
		t.Errorf("bad row: %v, want the file and line", err)
	}
	if _, err := LoadLCB(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no .jsonl") {
		t.Errorf("empty folder: %v", err)
	}
}
