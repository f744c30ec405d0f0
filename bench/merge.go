package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Saved is a saved bench result: its results.json, each run's request
// records, and where it was read from.
type Saved struct {
	Res     *Results
	Records [][]Record
	Source  string
}

// ReadSaved reads a results.json (or the folder holding one) and the
// requests JSONL of each of its runs.
func ReadSaved(path string) (*Saved, error) {
	res, err := ReadResults(path)
	if err != nil {
		return nil, err
	}
	dir := path
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		dir = filepath.Dir(path)
	}
	s := &Saved{Res: res, Source: strings.TrimSuffix(filepath.Clean(path), string(filepath.Separator)+"results.json")}
	for _, run := range res.Runs {
		if run.RequestsFile == "" {
			return nil, fmt.Errorf("%s: run %s at %s names no requests file", path, run.Target, run.Label)
		}
		recs, err := readJSONL(filepath.Join(dir, run.RequestsFile))
		if err != nil {
			return nil, err
		}
		s.Records = append(s.Records, recs)
	}
	return s, nil
}

func readJSONL(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// HostInfo is one of the hosts whose results a merge joined.
type HostInfo struct {
	Host   string `json:"host"`
	Shard  *Shard `json:"shard,omitempty"`
	Source string `json:"source"`
}

// Merge joins the results of processes that sent one job together from
// several hosts (--shard, usually with --rendezvous) into the results of
// the job, exactly: every figure is computed again from the union of the
// hosts' request records (aggregate, as each host computed its own), on
// one timeline from each run's start on each host's clock, so throughput
// is over the union's window and every percentile is over every request.
// Each run gets its hosts' own figures (Hosts) and, where the requests
// went to several URLs, each one's (Endpoints); the engine's prefix-cache
// counters are taken from the first read before and the last after. Runs
// whose workload or settings differ are refused, naming what differs, as
// are an incomplete set of shards and interrupted runs. Processes without
// --shard each sent the whole workload, and merge as that many copies.
func Merge(parts []*Saved) (*Results, [][]Record, error) {
	if len(parts) == 0 {
		return nil, nil, fmt.Errorf("nothing to merge: give the folders of every host's results")
	}
	if err := checkMergeable(parts); err != nil {
		return nil, nil, err
	}
	first := parts[0].Res
	m := *first
	m.Created, m.Version, m.Command, m.Host, m.Shard, m.Runs = time.Now().UTC(), "", nil, "", nil, nil
	m.Requests, m.Conversations, m.Targets = 0, 0, mergeTargets(parts)
	for _, p := range parts {
		m.Requests += p.Res.Requests
		m.Conversations += p.Res.Conversations
		m.Hosts = append(m.Hosts, HostInfo{Host: p.Res.Host, Shard: p.Res.Shard, Source: p.Source})
	}
	ps := first.Percentiles
	if len(ps) == 0 {
		ps = DefaultPercentiles
	}
	var slo SLO
	if s := first.SLO; s != nil {
		d := func(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }
		slo = SLO{TTFT: d(s.TTFT), TPOT: d(s.TPOT), E2EL: d(s.E2EL)}
	}
	var records [][]Record
	for j, run := range first.Runs {
		start := run.StartUnixNs
		for _, p := range parts {
			start = min(start, p.Res.Runs[j].StartUnixNs)
		}
		var union []Record
		var hosts []Part
		var counters []CacheCounters
		for _, p := range parts {
			hr := p.Res.Runs[j]
			off := float64(hr.StartUnixNs-start) / 1e9
			for _, r := range p.Records[j] {
				if r.Endpoint != "" {
					r.SentS += off
				}
				if r.EndS != 0 {
					r.EndS += off
				}
				r.Host = p.Res.Host
				union = append(union, r)
			}
			hosts = append(hosts, partOf(p.Res.Host, hr))
			if hr.PrefixCache != nil {
				counters = append(counters, hr.PrefixCache.Endpoints...)
			}
		}
		mr := aggregate(union, slo, ps, 0)
		mr.Target, mr.Load, mr.Label, mr.StartUnixNs, mr.Hosts = run.Target, run.Load, run.Label, start, hosts
		if eps := endpointParts(union, slo, ps, mr.DurationS); len(eps) > 1 {
			mr.Endpoints = eps
		}
		mr.PrefixCache = prefixCache(union, first.Workload != nil && first.Workload.Replay, joinCounters(counters))
		m.Runs = append(m.Runs, mr)
		records = append(records, union)
	}
	return &m, records, nil
}

// checkMergeable says why parts are not one job's results.
func checkMergeable(parts []*Saved) error {
	first := parts[0]
	want := settingsOf(first.Res)
	var problems []string
	seen := map[int]string{}
	for _, p := range parts {
		r := p.Res
		if r.Interrupted {
			problems = append(problems, fmt.Sprintf("%s was interrupted: its runs are partial", p.Source))
		}
		if d := settingsDiff(want, settingsOf(r)); len(d) > 0 {
			problems = append(problems, fmt.Sprintf("%s and %s ran different settings: %s", first.Source, p.Source, strings.Join(d, "; ")))
		}
		if (r.Shard == nil) != (first.Res.Shard == nil) {
			problems = append(problems, fmt.Sprintf("%s and %s: one sent a shard of the workload (--shard), the other all of it", first.Source, p.Source))
			continue
		}
		if r.Shard != nil {
			if r.Shard.Count != first.Res.Shard.Count {
				problems = append(problems, fmt.Sprintf("%s is shard %s, %s one of %d", p.Source, r.Shard, first.Source, first.Res.Shard.Count))
			} else if s, dup := seen[r.Shard.Index]; dup {
				problems = append(problems, fmt.Sprintf("%s and %s are both shard %s", s, p.Source, r.Shard))
			}
			seen[r.Shard.Index] = p.Source
		}
		if len(r.Runs) != len(first.Res.Runs) || len(p.Records) != len(r.Runs) {
			problems = append(problems, fmt.Sprintf("%s has %d runs, %s %d", p.Source, len(r.Runs), first.Source, len(first.Res.Runs)))
			continue
		}
		for j, run := range r.Runs {
			if f := first.Res.Runs[j]; run.Target != f.Target || run.Label != f.Label {
				problems = append(problems, fmt.Sprintf("%s's run %d is %s at %s, %s's %s at %s", p.Source, j+1, run.Target, run.Label, first.Source, f.Target, f.Label))
			}
			if run.StartUnixNs == 0 {
				problems = append(problems, fmt.Sprintf("%s's run %s at %s has no start time (written by an older mlperf-go bench)", p.Source, run.Target, run.Label))
			}
		}
	}
	if s := first.Res.Shard; s != nil && len(problems) == 0 {
		var missing []string
		for i := range s.Count {
			if _, ok := seen[i]; !ok {
				missing = append(missing, fmt.Sprint(i))
			}
		}
		if len(missing) > 0 {
			problems = append(problems, fmt.Sprintf("shards %s of %d are missing: give every host's results", strings.Join(missing, ", "), s.Count))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("cannot merge: %s", strings.Join(problems, "\n  "))
	}
	return nil
}

// mergeTargets are the targets of parts, each with every URL any host
// sent to.
func mergeTargets(parts []*Saved) []Target {
	var out []Target
	at := map[string]int{}
	for _, p := range parts {
		for _, t := range p.Res.Targets {
			i, ok := at[t.Name]
			if !ok {
				i = len(out)
				at[t.Name] = i
				out = append(out, Target{Name: t.Name})
			}
			for _, u := range t.URLs {
				if !slices.Contains(out[i].URLs, u) {
					out[i].URLs = append(out[i].URLs, u)
				}
			}
		}
	}
	return out
}

// joinCounters keeps, for each endpoint, the first counters read before
// a run and the last read after, across hosts: together they bracket
// every host's requests.
func joinCounters(cs []CacheCounters) []CacheCounters {
	var out []CacheCounters
	at := map[string]int{}
	for _, c := range cs {
		i, ok := at[c.Endpoint]
		if !ok {
			at[c.Endpoint] = len(out)
			out = append(out, c)
			continue
		}
		o := &out[i]
		if c.Before.UnixMs < o.Before.UnixMs {
			o.Before = c.Before
		}
		if c.After.UnixMs > o.After.UnixMs {
			o.After, o.GaugeHitRate = c.After, c.GaugeHitRate
		}
		if o.Engine == "" {
			o.Engine = c.Engine
		}
		if c.Unavailable != "" {
			o.Unavailable = c.Unavailable
		}
	}
	return out
}
