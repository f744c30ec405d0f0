package bench

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mlperf-go/mlperf-go/fake"
)

// saveAndRead writes res and recs into a folder and reads them back, as
// bench merge reads each host's.
func saveAndRead(t *testing.T, res *Results, recs [][]Record) *Saved {
	t.Helper()
	dir := t.TempDir()
	if err := WriteFiles(dir, res, recs); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSaved(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// splitAsHosts cuts one process's run into what n hosts would have
// written, had each sent every n-th conversation with its clock's start
// later by skew: each part's records count from its own start.
func splitAsHosts(t *testing.T, res *Results, recs [][]Record, n int, skew time.Duration) []*Saved {
	t.Helper()
	var out []*Saved
	for h := range n {
		part := *res
		part.Host, part.Shard, part.Runs = "host"+string(rune('a'+h)), &Shard{Index: h, Count: n}, nil
		var precs [][]Record
		for j, run := range res.Runs {
			shift := time.Duration(h) * skew
			run.StartUnixNs += int64(shift)
			var mine []Record
			for _, r := range recs[j] {
				var k int
				if _, err := fmtSscan(r.Conversation, &k); err != nil {
					t.Fatal(err)
				}
				if k%n != h {
					continue
				}
				if r.Endpoint != "" {
					r.SentS -= shift.Seconds()
				}
				if r.EndS != 0 {
					r.EndS -= shift.Seconds()
				}
				mine = append(mine, r)
			}
			// The host's own figures, as it computed them.
			own := aggregate(mine, SLO{TTFT: 50 * time.Millisecond}, res.Percentiles, 0)
			own.Target, own.Load, own.Label, own.StartUnixNs, own.PrefixCache = run.Target, run.Load, run.Label, run.StartUnixNs, run.PrefixCache
			part.Runs = append(part.Runs, own)
			precs = append(precs, mine)
		}
		convs := map[string]bool{}
		for _, r := range precs[0] {
			convs[r.Conversation] = true
		}
		part.Requests, part.Conversations = len(precs[0]), len(convs)
		out = append(out, saveAndRead(t, &part, precs))
	}
	return out
}

// fmtSscan reads the number at the end of a synthetic conversation ID.
func fmtSscan(id string, k *int) (int, error) {
	i := strings.LastIndexByte(id, '-')
	n := 0
	for _, c := range id[i+1:] {
		n = 10*n + int(c-'0')
	}
	*k = n
	return 1, nil
}

// TestMergeIsExact: one process's run, cut into what three hosts with
// skewed clocks would have written, merges back into the same figures:
// the same counts and tokens, every latency distribution equal to the
// last digit (each is computed over the same requests), throughput over
// the same window and the same peak in flight; each host's own figures
// are kept, and the prefix-cache rate the workload implies is the same.
func TestMergeIsExact(t *testing.T) {
	t.Parallel()
	w, err := Synthetic(SyntheticOptions{Requests: 30, InputLen: 16, OutputLen: 8, MultiTurn: 2, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	url := startFake(t, fake.Config{PrefixCache: true, TTFT: time.Millisecond}, nil)
	res, recs, err := Run(context.Background(), w, Options{Targets: []Target{{Name: "f", URLs: []string{url}}}, Stream: true,
		Loads: []Load{{Concurrency: 6}, {Rate: 200}}, SLO: SLO{TTFT: 50 * time.Millisecond}, Percentiles: []float64{50, 90, 99, 99.9}})
	if err != nil {
		t.Fatal(err)
	}
	parts := splitAsHosts(t, res, recs, 3, 1500*time.Millisecond)
	merged, mrecs, err := Merge(parts)
	if err != nil {
		t.Fatal(err)
	}
	if len(merged.Runs) != 2 || len(merged.Hosts) != 3 || merged.Requests != res.Requests || merged.Conversations != 30 {
		t.Fatalf("merged %d runs from %d hosts, %d requests", len(merged.Runs), len(merged.Hosts), merged.Requests)
	}
	near := cmp.Comparer(func(a, b float64) bool { return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) })
	for j, want := range res.Runs {
		got := merged.Runs[j]
		if d := cmp.Diff(want, got, near, cmpopts.IgnoreFields(RunResult{}, "Hosts", "RequestsFile"),
			cmpopts.IgnoreFields(CacheResult{}, "Endpoints", "HitTokens", "QueryTokens", "HitRate")); d != "" {
			t.Errorf("run %s: merged figures differ from the one process's (-one +merged):\n%s", want.Label, d)
		}
		if len(got.Hosts) != 3 || got.Hosts[0].Completed+got.Hosts[1].Completed+got.Hosts[2].Completed != want.Completed ||
			got.Hosts[1].Name != "hostb" || got.Hosts[1].Completed != 30 {
			t.Errorf("run %s: hosts %+v", want.Label, got.Hosts)
		}
		if len(mrecs[j]) != len(recs[j]) {
			t.Errorf("run %s: %d merged records, %d sent", want.Label, len(mrecs[j]), len(recs[j]))
		}
	}
	// Written and read back, bench compare reads it as any results.
	out := t.TempDir()
	if err := WriteFiles(out, merged, mrecs); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSaved(out); err != nil {
		t.Fatal(err)
	}
}

// TestMergeRefuses: runs of other workloads or settings, a shard given
// twice or missing, and interrupted runs are not merged, and the error
// names what differs.
func TestMergeRefuses(t *testing.T) {
	t.Parallel()
	url := startFake(t, fake.Config{}, nil)
	run := func(in int, shard Shard, c int) *Saved {
		w, err := Synthetic(SyntheticOptions{Requests: 6, InputLen: in, OutputLen: 2})
		if err != nil {
			t.Fatal(err)
		}
		res, recs, err := Run(context.Background(), w, Options{Targets: []Target{{Name: "f", URLs: []string{url}}}, Stream: true,
			Shard: &shard, Loads: []Load{{Concurrency: c}}})
		if err != nil {
			t.Fatal(err)
		}
		return saveAndRead(t, res, recs)
	}
	a, b := run(8, Shard{0, 2}, 2), run(8, Shard{1, 2}, 2)
	if _, _, err := Merge([]*Saved{a, b}); err != nil {
		t.Fatalf("two shards of one job: %v", err)
	}
	longer, otherLoad := run(9, Shard{1, 2}, 2), run(8, Shard{1, 2}, 4)
	interrupted := run(8, Shard{1, 2}, 2)
	interrupted.Res.Interrupted = true
	for _, tc := range []struct {
		name  string
		parts []*Saved
		want  []string
	}{
		{"another workload", []*Saved{a, longer}, []string{"ran different settings", `workload {"kind":"synthetic"`, `"input_len":8`, `"input_len":9`}},
		{"another load", []*Saved{a, otherLoad}, []string{"loads", `"concurrency":2`, `"concurrency":4`}},
		{"a shard twice", []*Saved{a, a}, []string{"are both shard 0/2"}},
		{"a shard missing", []*Saved{b}, []string{"shards 0 of 2 are missing"}},
		{"interrupted", []*Saved{a, interrupted}, []string{"was interrupted"}},
	} {
		_, _, err := Merge(tc.parts)
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %v, want it to say %q", tc.name, err, w)
			}
		}
	}
}

// TestShardsStartTogether: two processes sharing a job (--shard 0/2 and
// 1/2) meet at a rendezvous folder before each run of a sweep, each
// starting no sooner than the last one's ready time plus the lead; each
// sends its half at its share of the concurrency, and their merge holds
// every request of the workload once. A process with other settings is
// stopped at the rendezvous, naming what differs.
func TestShardsStartTogether(t *testing.T) {
	t.Parallel()
	url := startFake(t, fake.Config{}, nil)
	w, err := Synthetic(SyntheticOptions{Requests: 21, InputLen: 8, OutputLen: 3})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var wg sync.WaitGroup
	saved := make([]*Saved, 2)
	errs := make([]error, 2)
	for i := range 2 {
		wg.Go(func() {
			res, recs, err := Run(context.Background(), w, Options{Targets: []Target{{Name: "f", URLs: []string{url}}}, Stream: true,
				Loads: []Load{{Concurrency: 5}, {Concurrency: 2}}, Shard: &Shard{Index: i, Count: 2}, Host: []string{"n1", "n2"}[i],
				Rendezvous: dir, RendezvousLead: 50 * time.Millisecond})
			if errs[i] = err; err == nil {
				saved[i] = saveAndRead(t, res, recs)
			}
		})
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	for k := range 2 {
		ready, err := readReady(filepath.Join(dir, "run-"+string(rune('0'+k))))
		if err != nil || len(ready) != 2 {
			t.Fatalf("run %d: ready files %v, %v", k, ready, err)
		}
		start := max(ready[0].ReadyNs, ready[1].ReadyNs) + int64(50*time.Millisecond)
		for i, s := range saved {
			if s.Res.Runs[k].StartUnixNs < start {
				t.Errorf("run %d: shard %d started %v before the rendezvous said", k, i, time.Duration(start-s.Res.Runs[k].StartUnixNs))
			}
		}
	}
	if a, b := saved[0].Res.Runs[0].MaxConcurrent, saved[1].Res.Runs[0].MaxConcurrent; a > 3 || b > 2 {
		t.Errorf("peaks in flight %d and %d: the shares of 5 are 3 and 2", a, b)
	}
	merged, recs, err := Merge(saved)
	if err != nil {
		t.Fatal(err)
	}
	for j, r := range merged.Runs {
		ids := map[string]int{}
		for _, rec := range recs[j] {
			ids[rec.Conversation]++
		}
		if r.Completed != 21 || len(ids) != 21 || len(r.Hosts) != 2 || r.Hosts[0].Name != "n1" || r.Hosts[0].Completed != 11 {
			t.Errorf("run %s: %d completed, %d conversations, hosts %+v", r.Label, r.Completed, len(ids), r.Hosts)
		}
	}

	// Another workload meets the first at its rendezvous and is stopped.
	other, err := Synthetic(SyntheticOptions{Requests: 21, InputLen: 9, OutputLen: 3})
	if err != nil {
		t.Fatal(err)
	}
	dir2 := t.TempDir()
	for i, wl := range []*Workload{w, other} {
		wg.Go(func() {
			_, _, errs[i] = Run(context.Background(), wl, Options{Targets: []Target{{Name: "f", URLs: []string{url}}}, Stream: true,
				Shard: &Shard{Index: i, Count: 2}, Host: []string{"n1", "n2"}[i], Rendezvous: dir2, RendezvousTimeout: time.Minute})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err == nil || !strings.Contains(err.Error(), "runs other settings") || !strings.Contains(err.Error(), `"input_len":9`) {
			t.Errorf("shard %d with another workload at the rendezvous: %v", i, err)
		}
	}
}

// TestShardArrivals: the shards' arrival times together are the whole
// workload's, and their concurrencies add up to the whole cap.
func TestShardArrivals(t *testing.T) {
	t.Parallel()
	l := Load{Concurrency: 7, Rate: 50, Burstiness: 0.5}
	whole := arrivals(l, 23, 3)
	var joined []time.Duration
	conc := 0
	for i := range 3 {
		s := &Shard{Index: i, Count: 3}
		joined = append(joined, shardArrivals(s, l, 23, 3)...)
		conc += s.concurrency(7)
	}
	if conc != 7 || len(joined) != 23 {
		t.Fatalf("concurrency %d of 7, %d arrivals of 23", conc, len(joined))
	}
	got := map[time.Duration]int{}
	for _, a := range joined {
		got[a]++
	}
	for _, a := range whole {
		got[a]--
	}
	for a, n := range got {
		if n != 0 {
			t.Errorf("arrival %v: %+d", a, n)
		}
	}
	for _, bad := range []string{"2/2", "-1/2", "a/b", "3", "1/0"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("--shard %q accepted", bad)
		}
	}
}

// TestRendezvousRefusals: a ready file of an earlier job left in the
// folder, and a second process claiming this one's shard, stop the
// process at once, saying what to do.
func TestRendezvousRefusals(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	settings := map[string]string{"workload": "w"}
	newZ := func(dir string, i int, host string) *rendezvous {
		return &rendezvous{dir: dir, shard: Shard{Index: i, Count: 2}, host: host, settings: settings, timeout: time.Minute,
			lead: time.Second, since: now, now: func() time.Time { return now }, poll: time.Millisecond}
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "run-0"), 0o755); err != nil {
		t.Fatal(err)
	}
	old := readyFile{Index: 1, Count: 2, Host: "yesterday", ReadyNs: now.Add(-24 * time.Hour).UnixNano(), Settings: settings}
	if err := writeAtomic(filepath.Join(dir, "run-0", "1.json"), old); err != nil {
		t.Fatal(err)
	}
	if _, err := newZ(dir, 0, "n1").meet(context.Background(), 0); err == nil || !strings.Contains(err.Error(), "an earlier job's") {
		t.Errorf("a stale ready file: %v", err)
	}
	dir = t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "run-0"), 0o755); err != nil {
		t.Fatal(err)
	}
	other := readyFile{Index: 0, Count: 2, Host: "n2", ReadyNs: now.UnixNano() + 1, Settings: settings}
	z := newZ(dir, 0, "n1")
	z.now = func() time.Time { // n2 writes shard 0's file just after n1
		_ = writeAtomic(filepath.Join(dir, "run-0", "0.json"), other)
		return now
	}
	if _, err := z.meet(context.Background(), 0); err == nil || !strings.Contains(err.Error(), "its own --shard index") {
		t.Errorf("two processes as shard 0: %v", err)
	}
}
