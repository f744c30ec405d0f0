package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
)

// DefaultRendezvousTimeout is how long a process waits at a rendezvous
// for the others (Options.RendezvousTimeout when zero): hosts of one
// Slurm job start within seconds of each other, but a container may take
// minutes to load.
const DefaultRendezvousTimeout = 10 * time.Minute

// DefaultRendezvousLead is how long after the last process is ready they
// all start (Options.RendezvousLead when zero): time for every process to
// see the last one's file on a shared file system (an NFS client caches a
// folder's listing for a few seconds) and to read the engine's counters.
const DefaultRendezvousLead = 3 * time.Second

// A rendezvous starts the shards of a job together, run by run, through
// a folder they share: before each run (a target at a load point) every
// process writes a file saying it is ready (after its warm-up) and with
// what settings, waits until all Count have, and all start at the same
// moment: the last one's ready time plus a lead, on each host's
// clock (NTP keeps a cluster's clocks within milliseconds). A process
// whose settings differ from another's stops every process there, naming
// what differs, before anything is sent.
type rendezvous struct {
	dir      string
	shard    Shard
	host     string
	settings map[string]string
	timeout  time.Duration
	lead     time.Duration
	// since is when this process began: a ready file older by more than
	// the timeout is an earlier job's (the processes of one start within
	// the timeout of each other).
	since time.Time
	// now and poll are time.Now and how often the folder is read; tests
	// set them.
	now  func() time.Time
	poll time.Duration
}

// readyFile is what a process writes at a rendezvous.
type readyFile struct {
	Index    int               `json:"index"`
	Count    int               `json:"count"`
	Host     string            `json:"host"`
	ReadyNs  int64             `json:"ready_unix_ns"`
	Settings map[string]string `json:"settings"`
}

// meet announces that this process is ready for run k and returns when
// every process is, with the moment they all start.
func (z *rendezvous) meet(ctx context.Context, k int) (time.Time, error) {
	dir := filepath.Join(z.dir, "run-"+strconv.Itoa(k))
	if err := dirwalk.MkdirAll(dir, 0o755); err != nil {
		return time.Time{}, fmt.Errorf("--rendezvous: %w", err)
	}
	me := readyFile{Index: z.shard.Index, Count: z.shard.Count, Host: z.host, ReadyNs: z.now().UnixNano(), Settings: z.settings}
	if err := writeAtomic(filepath.Join(dir, strconv.Itoa(z.shard.Index)+".json"), me); err != nil {
		return time.Time{}, fmt.Errorf("--rendezvous: %w", err)
	}
	deadline := z.now().Add(z.timeout)
	for {
		all, err := readReady(dir)
		if err != nil {
			return time.Time{}, err
		}
		if err := z.check(all, me); err != nil {
			return time.Time{}, err
		}
		if len(all) == z.shard.Count {
			last := int64(0)
			for _, r := range all {
				last = max(last, r.ReadyNs)
			}
			return time.Unix(0, last).Add(z.lead), nil
		}
		if z.now().After(deadline) {
			var missing []string
			for i := range z.shard.Count {
				if _, ok := all[i]; !ok {
					missing = append(missing, strconv.Itoa(i))
				}
			}
			return time.Time{}, fmt.Errorf("--rendezvous %s: after %v, shards %s of %d are not ready for run %d (did their processes start? raise --rendezvous-timeout if they are slow to load)",
				z.dir, z.timeout, strings.Join(missing, ", "), z.shard.Count, k+1)
		}
		select {
		case <-ctx.Done():
			return time.Time{}, context.Cause(ctx)
		case <-time.After(z.poll):
		}
	}
}

// check says why the processes ready so far cannot run together; me is
// what this process wrote.
func (z *rendezvous) check(all map[int]readyFile, me readyFile) error {
	if r, ok := all[me.Index]; ok && (r.Host != me.Host || r.ReadyNs != me.ReadyNs) {
		return fmt.Errorf("--rendezvous %s: %s wrote shard %d's ready file too: give each process its own --shard index (Slurm: $SLURM_PROCID)", z.dir, r.Host, me.Index)
	}
	for _, r := range all {
		if z.since.Sub(time.Unix(0, r.ReadyNs)) > z.timeout {
			return fmt.Errorf("--rendezvous %s: shard %d's ready file (%s) is from %s, before this process began: an earlier job's; give each job a new folder",
				z.dir, r.Index, r.Host, time.Unix(0, r.ReadyNs).UTC().Format(time.RFC3339))
		}
		if r.Count != z.shard.Count {
			return fmt.Errorf("--rendezvous %s: %s is shard %d of %d, this process (%s) one of %d: give every process the same --shard count", z.dir, r.Host, r.Index, r.Count, z.host, z.shard.Count)
		}
		if d := settingsDiff(z.settings, r.Settings); len(d) > 0 {
			return fmt.Errorf("--rendezvous %s: %s (shard %d) runs other settings than %s (shard %d): %s; give every process the same workload and flags",
				z.dir, r.Host, r.Index, z.host, z.shard.Index, strings.Join(d, "; "))
		}
	}
	return nil
}

// readReady reads the ready files in dir, by shard index (files being
// written are named with a leading dot and left out).
func readReady(dir string) (map[int]readyFile, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("--rendezvous: %w", err)
	}
	out := map[int]readyFile{}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("--rendezvous: %w", err)
		}
		var r readyFile
		if err := json.Unmarshal(b, &r); err != nil || e.Name() != strconv.Itoa(r.Index)+".json" {
			return nil, fmt.Errorf("--rendezvous: %s is not a ready file of mlperf-go bench (%v): use a folder of its own for each job", filepath.Join(dir, e.Name()), err)
		}
		out[r.Index] = r
	}
	return out, nil
}

// writeAtomic writes v as JSON to path through a hidden temporary file,
// so a reader sees all of it or nothing.
func writeAtomic(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// settingsOf are the settings processes must share to run one job, or
// runs to be merged, each as text: the workload, the API and model, what
// the requests ask, the objectives, percentiles and the sweep.
func settingsOf(res *Results) map[string]string {
	js := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	m := map[string]string{
		"workload":     js(res.Workload),
		"api":          res.API,
		"model":        res.Model,
		"stream":       strconv.FormatBool(res.Stream),
		"exact_output": strconv.FormatBool(res.ExactOutput),
		"warmup":       strconv.Itoa(res.Warmup),
		"slo":          js(res.SLO),
		"percentiles":  js(res.Percentiles),
		"loads":        js(res.Loads),
	}
	var names []string
	for _, t := range res.Targets {
		names = append(names, t.Name)
	}
	m["targets"] = strings.Join(names, ",")
	return m
}

// settingsDiff names the settings a and b differ in, with both values.
func settingsDiff(a, b map[string]string) []string {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var out []string
	for k := range keys {
		if a[k] != b[k] {
			out = append(out, fmt.Sprintf("%s %s vs %s", k, clipSetting(a[k]), clipSetting(b[k])))
		}
	}
	sort.Strings(out)
	return out
}

func clipSetting(s string) string {
	if s == "" {
		return "(none)"
	}
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// sleepUntil waits until t, or ctx ends.
func sleepUntil(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return nil
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
