package tune

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/atomicfile"
	"github.com/mlperf-go/mlperf-go/loadgen"
)

// SetUserConf writes one "key = value" line (such as QPSResult.UserConf)
// into the user.conf at path, keeping every other line (comments and other
// keys) as it is: each line that sets the same key (LoadGen reads the
// last) is replaced in place, or, if none does, the line is appended. A missing file is created. The file must
// parse as LoadGen reads user.conf before and after, so a mistake is
// reported at its line instead of being written over. It returns whether
// a line was replaced.
func SetUserConf(path, line string) (replaced bool, err error) {
	entries, err := loadgen.ParseConf("the new line", []byte(line))
	if err != nil {
		return false, err
	}
	if len(entries) != 1 || strings.Contains(line, "\n") {
		return false, fmt.Errorf("tune: %q: want one 'key = value' line", line)
	}
	key := strings.Fields(line)[0]
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	if _, err := loadgen.ParseConf(path, old); err != nil {
		return false, fmt.Errorf("%w (fix it, then tune again or add the line by hand: %s)", err, line)
	}
	var out bytes.Buffer
	text := string(old)
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		// ParseConf has checked every line: a setting is "key = value".
		if f := strings.Fields(l); len(f) == 3 && f[0] == key && f[1] == "=" {
			out.WriteString(line + "\n")
			replaced = true
			continue
		}
		out.WriteString(l)
	}
	if !replaced {
		out.WriteString(line + "\n")
	}
	return replaced, atomicfile.WriteMode(path, out.Bytes(), mode)
}
