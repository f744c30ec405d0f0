package mmlu

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// Question is one MMLU question.
type Question struct {
	// Subject is one of the 57 subjects (Subjects).
	Subject string `json:"subject"`
	// Question is the question's text as stored.
	Question string `json:"question"`
	// Choices are the four answers, A to D.
	Choices [4]string `json:"choices"`
	// Answer is the index of the right choice, 0 (A) to 3 (D).
	Answer int `json:"answer"`
	// Index is the question's row in its split (over the split's shards in
	// name order): in cais/mmlu's "all" configuration, sorted by subject.
	Index int `json:"index"`
	// SubjectIndex is the question's row among its subject's questions:
	// lm-evaluation-harness's doc_id in the task mmlu_<subject>.
	SubjectIndex int `json:"subject_index"`
}

// Letters are the answer letters, in choice order.
const Letters = "ABCD"

// Dataset is MMLU's test split and, for few-shot prompts, its dev split.
type Dataset struct {
	// Test holds the questions asked, in file order.
	Test []Question
	// Dev holds the few-shot examples of each subject, in file order
	// (cais/mmlu has five per subject); empty when no dev split was found.
	Dev map[string][]Question
	// TestFiles and DevFiles are the shards read.
	TestFiles, DevFiles []string
}

// Open reads MMLU from a local copy of the Hugging Face data set cais/mmlu
// (parquet; columns question, subject, choices list<string>, answer int):
// path is its folder (holding all/), the all/ folder itself, or one test
// shard. The test split is every test-*.parquet in that folder (or every
// *.parquet in its test/ folder, the hub's converted layout); the dev split
// likewise (dev-*.parquet, dev/), and is optional: Open leaves Dev empty
// when there is none, and Prompts refuses few-shot prompts without it.
// dev, if not empty, names the dev split's folder or shard instead.
func Open(path, dev string) (*Dataset, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("mmlu: %w: point it at a copy of cais/mmlu (the folder holding all/test-00000-of-00001.parquet)", err)
	}
	dir := path
	var test []string
	if st.IsDir() {
		if sub := filepath.Join(path, "all"); isDir(sub) {
			dir = sub
		}
		test = shards(dir, "test")
		if len(test) == 0 {
			return nil, fmt.Errorf("mmlu: no test split in %s: want all/test-*.parquet (or test/*.parquet) as in the Hugging Face data set cais/mmlu", path)
		}
	} else {
		dir, test = filepath.Dir(path), []string{path}
	}
	d := &Dataset{TestFiles: test, Dev: map[string][]Question{}}
	if d.Test, err = readSplit(test); err != nil {
		return nil, err
	}
	d.DevFiles = shards(dir, "dev")
	if dev != "" {
		if isDir(dev) {
			d.DevFiles = shards(dev, "dev")
		} else {
			d.DevFiles = []string{dev}
		}
		if len(d.DevFiles) == 0 {
			return nil, fmt.Errorf("mmlu: no dev split in %s: want dev-*.parquet (or dev/*.parquet)", dev)
		}
	}
	devQs, err := readSplit(d.DevFiles)
	if err != nil {
		return nil, err
	}
	for _, q := range devQs {
		d.Dev[q.Subject] = append(d.Dev[q.Subject], q)
	}
	return d, nil
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// shards lists a split's parquet files in dir, in name order: dir/<split>-*.parquet,
// else dir/<split>/*.parquet.
func shards(dir, split string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, split+"-*.parquet")) // the pattern is well formed
	if len(m) == 0 {
		m, _ = filepath.Glob(filepath.Join(dir, split, "*.parquet"))
	}
	slices.Sort(m)
	return m
}

// readSplit reads a split's shards in order and numbers its questions.
func readSplit(files []string) ([]Question, error) {
	var qs []Question
	perSubject := map[string]int{}
	for _, f := range files {
		part, err := readShard(f)
		if err != nil {
			return nil, err
		}
		for _, q := range part {
			q.Index = len(qs)
			q.SubjectIndex = perSubject[q.Subject]
			perSubject[q.Subject]++
			qs = append(qs, q)
		}
	}
	return qs, nil
}

// columns are the leaf column indexes of the four MMLU columns in a file.
type columns struct{ question, subject, choices, answer int }

// findColumns locates the MMLU columns by name. choices is a LIST, whose
// leaf pyarrow names "element" (the parquet spec's name, pyarrow's default
// since 13) or "item" (older writers): any name is taken, so both read.
func findColumns(s *parquet.Schema) (columns, error) {
	c := columns{-1, -1, -1, -1}
	for i, path := range s.Columns() {
		switch {
		case len(path) == 1 && path[0] == "question":
			c.question = i
		case len(path) == 1 && path[0] == "subject":
			c.subject = i
		case len(path) == 1 && path[0] == "answer":
			c.answer = i
		case len(path) >= 2 && path[0] == "choices":
			c.choices = i
		}
	}
	var missing []string
	for name, i := range map[string]int{"question": c.question, "subject": c.subject, "choices": c.choices, "answer": c.answer} {
		if i < 0 {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return c, fmt.Errorf("no column %s: want cais/mmlu's columns question, subject, choices (list of strings), answer (integer)", strings.Join(missing, ", "))
	}
	return c, nil
}

// readShard reads one parquet file's questions.
func readShard(path string) ([]Question, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("mmlu: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("mmlu: %w", err)
	}
	return readShardFrom(f, st.Size(), path)
}

// readShardFrom reads the questions of the parquet file r of size bytes,
// named path in errors. A file parquet-go cannot read (it panics on some
// corrupt metadata) is an error naming the file.
func readShardFrom(r io.ReaderAt, size int64, path string) (qs []Question, err error) {
	defer func() {
		if p := recover(); p != nil {
			qs, err = nil, fmt.Errorf("mmlu: %s: not a readable parquet file (the reader panicked: %v)", path, p)
		}
	}()
	if err := checkFooter(r, size); err != nil {
		return nil, fmt.Errorf("mmlu: %s: not a readable parquet file: %w", path, err)
	}
	pf, err := parquet.OpenFile(r, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("mmlu: %s: not a readable parquet file: %w", path, err)
	}
	cols, err := findColumns(pf.Schema())
	if err != nil {
		return nil, fmt.Errorf("mmlu: %s: %w", path, err)
	}
	// Corrupt metadata can claim billions of rows, which the reader would
	// make up one by one; an MMLU row takes far more than a byte.
	for i, g := range pf.RowGroups() {
		if n := g.NumRows(); n < 0 || n > size {
			return nil, fmt.Errorf("mmlu: %s: row group %d claims %d rows in a %d-byte file (corrupt metadata)", path, i, n, size)
		}
	}
	rows := parquet.NewReader(pf)
	defer rows.Close()
	buf := make([]parquet.Row, 256)
	for {
		n, err := rows.ReadRows(buf)
		for _, row := range buf[:n] {
			q, qerr := cols.question1(row)
			if qerr != nil {
				return nil, fmt.Errorf("mmlu: %s row %d: %w", path, len(qs), qerr)
			}
			qs = append(qs, q)
		}
		if errors.Is(err, io.EOF) {
			return qs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("mmlu: %s row %d: %w", path, len(qs), err)
		}
	}
}

// checkFooter refuses a file whose footer claims more bytes than the file
// has: parquet-go would allocate what it claims (up to 4 GiB) first.
func checkFooter(r io.ReaderAt, size int64) error {
	if size < 12 {
		return fmt.Errorf("%d bytes is too short for parquet", size)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if string(tail[4:]) != "PAR1" {
		return errors.New("no PAR1 magic at its end (not parquet, or cut short)")
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n > size-12 {
		return fmt.Errorf("footer length %d exceeds the file's %d bytes (truncated or corrupt file)", n, size)
	}
	return nil
}

// name is the column name of leaf col.
func (c columns) name(col int) string {
	switch col {
	case c.question:
		return "question"
	case c.subject:
		return "subject"
	case c.answer:
		return "answer"
	}
	return "choices"
}

// question1 makes a Question of one row, checking what the prompt needs:
// a known subject, four choices, an answer from 0 to 3.
func (c columns) question1(row parquet.Row) (Question, error) {
	var q Question
	nChoices, answer := 0, int64(-1)
	for _, v := range row {
		col := v.Column()
		if v.IsNull() {
			switch {
			case col == c.choices && v.RepetitionLevel() == 0:
				continue // a null or empty list: counted as no choices
			case col == c.choices:
				return q, fmt.Errorf("choice %d is null", nChoices)
			case col == c.question || col == c.subject || col == c.answer:
				return q, fmt.Errorf("%s is null", c.name(col))
			}
			continue
		}
		if (col == c.question || col == c.subject || col == c.choices) && v.Kind() != parquet.ByteArray {
			return q, fmt.Errorf("%s is of type %v, want a string", c.name(col), v.Kind())
		}
		switch col {
		case c.question:
			q.Question = string(v.ByteArray())
		case c.subject:
			q.Subject = string(v.ByteArray())
		case c.choices:
			if nChoices < len(q.Choices) {
				q.Choices[nChoices] = string(v.ByteArray())
			}
			nChoices++
		case c.answer:
			switch v.Kind() {
			case parquet.Int64:
				answer = v.Int64()
			case parquet.Int32:
				answer = int64(v.Int32())
			default:
				return q, fmt.Errorf("answer is of type %v, want an integer (0 to 3)", v.Kind())
			}
		}
	}
	if _, ok := subjects[q.Subject]; !ok {
		return q, fmt.Errorf("subject %q is not one of MMLU's 57 subjects (e.g. %q)", q.Subject, "abstract_algebra")
	}
	if nChoices != len(q.Choices) {
		return q, fmt.Errorf("%d choices, want 4 (A to D)", nChoices)
	}
	if answer < 0 || answer > 3 {
		return q, fmt.Errorf("answer %d, want 0 to 3 (the index of the right choice)", answer)
	}
	q.Answer = int(answer)
	return q, nil
}
