package loadgen_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmark"
	_ "github.com/mlperf-go/mlperf-go/benchmarks/all"
	"github.com/mlperf-go/mlperf-go/loadgen"
)

// settingLine matches a commented-out setting of the template: "# " and a
// model.scenario.key = value line.
var settingLine = regexp.MustCompile(`^# (\S+\.\S+\.\S+ = \S+)$`)

// TestUserConfTemplate checks the top-level user.conf template with the
// parser `mlperf-go run --user-conf` uses: as shipped it sets nothing, and
// with every setting uncommented it is still valid, names only models the
// release's mlperf.conf knows, and covers Offline and Server of every
// registered benchmark.
func TestUserConfTemplate(t *testing.T) {
	const path = "../user.conf"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := loadgen.ParseConf(path, data)
	if err != nil {
		t.Fatalf("the template as shipped: %v", err)
	}
	if len(entries) != 0 {
		t.Fatalf("the template as shipped sets %d keys (first: line %d %s.%s.%s); every setting must be commented out",
			len(entries), entries[0].Line, entries[0].Model, entries[0].Scenario, entries[0].Key)
	}

	lines := strings.Split(string(data), "\n")
	uncommented := 0
	for i, l := range lines {
		if m := settingLine.FindStringSubmatch(l); m != nil {
			lines[i] = m[1]
			uncommented++
		}
	}
	entries, err = loadgen.ParseConf(path+" (uncommented)", []byte(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatalf("the template with its settings uncommented: %v", err)
	}
	if len(entries) != uncommented {
		t.Fatalf("uncommented %d setting lines, ParseConf returned %d entries", uncommented, len(entries))
	}

	official, err := os.ReadFile("../mlperf.conf")
	if err != nil {
		t.Fatal(err)
	}
	inConf := func(model string) bool { return strings.Contains(string(official), "\n"+model+".") }
	registered := map[string]bool{}
	for _, b := range benchmark.All() {
		registered[b.Name] = true
	}
	have := map[string]bool{}
	for _, e := range entries {
		// A benchmark mlperf.conf has no entry for (qwen3.6-27b) runs under
		// its own name on the wildcards: its lines are read all the same.
		if e.Model != "*" && !inConf(e.Model) && !registered[e.Model] {
			t.Errorf("line %d: model %q does not appear in mlperf.conf: LoadGen would never read the line", e.Line, e.Model)
		}
		have[e.Model+"."+e.Scenario+"."+e.Key] = true
	}
	// The registered benchmarks' LoadGen names, without their Interactive
	// and edge variants, whose LoadGen names take their own scenarios
	// (llama2-70b-99 runs as llama2-70b): Offline for each, Server for
	// those some round's rules run in Server (whisper is Offline only).
	all := benchmark.All()
	if len(all) == 0 {
		t.Fatal("no benchmarks registered: import the package that registers them")
	}
	for _, b := range all {
		name := b.LoadGenModel()
		keys := []string{name + ".Offline.target_qps"}
		if hasServer(b) {
			keys = append(keys, name+".Server.target_qps")
		}
		if !inConf(name) { // the SingleStream-only qwen3.6-27b
			keys = []string{name + ".SingleStream.target_latency"}
		}
		for _, key := range keys {
			if !have[key] {
				t.Errorf("the template has no line for %s", key)
			}
		}
	}
}

// hasServer reports whether some round's rules list the Server scenario
// for b, required or optional, on some system type.
func hasServer(b benchmark.Benchmark) bool {
	for _, r := range b.Submission.Rounds {
		for _, m := range []map[string][]string{r.Required, r.Optional} {
			for _, scens := range m {
				for _, s := range scens {
					if s == benchmark.ScenarioServer {
						return true
					}
				}
			}
		}
	}
	return false
}
