package mmlu

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// pqRow is a row of cais/mmlu as parquet-go writes it (choices as a
// parquet LIST of strings).
type pqRow struct {
	Question string   `parquet:"question"`
	Subject  string   `parquet:"subject"`
	Choices  []string `parquet:"choices,list"`
	Answer   int64    `parquet:"answer"`
}

// writeShard writes rows as the parquet file dir/name, making dir.
func writeShard(t *testing.T, dir, name string, rows []pqRow) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := parquet.WriteFile(p, rows); err != nil {
		t.Fatal(err)
	}
	return p
}

// row is a question of subject with four choices.
func row(subject, question string, answer int64) pqRow {
	return pqRow{Question: question, Subject: subject, Choices: []string{"w", "x", "y", "z"}, Answer: answer}
}

// devRows are n dev questions of each subject.
func devRows(n int, subjects ...string) []pqRow {
	var rows []pqRow
	for _, s := range subjects {
		for i := range n {
			rows = append(rows, row(s, "dev "+s+" "+string(rune('0'+i)), int64(i%4)))
		}
	}
	return rows
}

func writeParquet[T any](path string, rows []T) error { return parquet.WriteFile(path, rows) }
