package bench

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/internal/redact"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/sut"
	"github.com/mlperf-go/mlperf-go/tokenizer"
)

// Request is a bench command line in its own words: the targets, the API,
// the sweep, the objectives and the workload as typed. Prepare checks it
// and turns it into Options and the Workload; its errors name the flags.
type Request struct {
	// Targets are NAME=URL[,URL] (--target); Endpoints are URLs, each a
	// target named after its host (--endpoint).
	Targets, Endpoints []string
	// API names the endpoint API; APIGiven says it was chosen, so a
	// Benchmark's own API does not replace it.
	API      string
	APIGiven bool
	// APIKeyFile and APIKeyEnv are where the key is read (sut.ReadAPIKey).
	APIKeyFile, APIKeyEnv string
	// Concurrency and Rate are comma lists swept against each other
	// ("" is one point: no cap, and a Rate of 0, all at once; a Rate of
	// inf is all at once too; a Concurrency of 0 is refused, as run
	// refuses it).
	Concurrency, Rate string
	Burstiness        float64
	// Interval is the fixed arrival gap; Frequency (per second), when
	// positive and finite, replaces it with 1/Frequency.
	Interval  time.Duration
	Frequency float64
	// SLO is "ttft=500ms,tpot=50ms,e2el=10s" (ParseSLO).
	SLO string
	// Percentiles is a comma list.
	Percentiles string
	// Shard is "I/N" (ParseShard; "": the whole workload); StartAt is
	// when to start (ParseStartAt; "": at once).
	Shard, StartAt string
	Workload       WorkloadRequest
}

// WorkloadRequest says which workload to send: DashInfer's (PromptFile),
// an agentic replay (Agentic), a benchmark's dataset (Benchmark),
// prompts that share prefixes (PrefixLen, vllm bench serve's
// prefix_repetition) or else synthetic requests. Nil pointers are flags
// not given.
type WorkloadRequest struct {
	PromptFile, ImageFolder                        string
	FileURLs                                       bool
	Agentic                                        string
	Trajectories                                   int
	ToolDelays                                     bool
	Benchmark                                      string
	Dataset                                        []string
	Requests                                       int
	RequestsGiven                                  bool
	MultiTurn                                      int
	OutputLen, OutputLenRange, Images, ImagesRange *int
	InputLen, InputLenRange                        int
	PrefixLen, SuffixLen, NumPrefixes              int
	ImageSize                                      string
	Tokenizer                                      string
	Seed                                           *uint64
	Sampling                                       *string
}

// Prepare checks r and sets o's Targets, API, APIKey, Loads, SLO and
// Percentiles from it (and for a Benchmark workload its API and Model
// where r and o leave them open), then builds the workload.
func Prepare(r Request, o *Options) (*Workload, error) {
	var err error
	if o.Targets, err = parseTargets(r.Targets, r.Endpoints); err != nil {
		return nil, err
	}
	if o.API, err = protocol.Lookup(r.API); err != nil {
		return nil, fmt.Errorf("--api: %w", err)
	}
	if o.APIKey, err = sut.ReadAPIKey(r.APIKeyFile, r.APIKeyEnv); err != nil {
		return nil, err
	}
	if o.Loads, err = r.loads(); err != nil {
		return nil, err
	}
	if o.SLO, err = ParseSLO(r.SLO); err != nil {
		return nil, fmt.Errorf("--slo: %w", err)
	}
	if o.Percentiles, err = parseFloats(r.Percentiles); err != nil {
		return nil, fmt.Errorf("--percentiles: %w", err)
	}
	if r.Shard != "" {
		if o.Shard, err = ParseShard(r.Shard); err != nil {
			return nil, err
		}
	}
	if o.StartAt, err = ParseStartAt(r.StartAt); err != nil {
		return nil, err
	}
	return r.Workload.load(o, r.APIGiven)
}

// parseTargets reads --target NAME=URL[,URL] and --endpoint URL. A NAME
// given again adds its URLs to the target's (the command line splits a
// flag's value at its commas, so one target of several URLs is given as
// NAME=URL once for each).
func parseTargets(targets, endpoints []string) ([]Target, error) {
	var ts []Target
	at := map[string]int{}
	for _, t := range targets {
		name, urls, ok := strings.Cut(t, "=")
		if strings.Contains(name, "://") {
			// A URL without a name, whose query holds the '='
			// (http://h/v1?api_key=…): named by its host, as
			// --endpoint names one.
			name, urls, ok = hostName(t), t, true
		}
		if !ok || name == "" || urls == "" {
			return nil, fmt.Errorf("--target %q: want NAME=URL", redact.Text(t))
		}
		if i, again := at[name]; again {
			ts[i].URLs = append(ts[i].URLs, strings.Split(urls, ",")...)
			continue
		}
		at[name] = len(ts)
		ts = append(ts, Target{Name: name, URLs: strings.Split(urls, ",")})
	}
	for _, e := range endpoints {
		ts = append(ts, Target{Name: hostName(e), URLs: []string{e}})
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("no endpoint: give --target NAME=URL (repeat for A/B) or --endpoint URL")
	}
	return ts, nil
}

// hostName names a target given by URL alone: its host (the first URL's,
// of several), else the text itself.
func hostName(urls string) string {
	first, _, _ := strings.Cut(urls, ",")
	if u, err := url.Parse(first); err == nil && u.Host != "" {
		return u.Host
	}
	return first
}

// loads is the sweep: every Concurrency with every Rate.
func (r Request) loads() ([]Load, error) {
	concs, err := parseFloats(r.Concurrency)
	if err != nil {
		return nil, fmt.Errorf("--concurrency: %w", err)
	}
	rates, err := parseFloats(r.Rate)
	if err != nil {
		return nil, fmt.Errorf("--rate: %w", err)
	}
	for _, cc := range concs {
		if cc == 0 {
			// Refused as run refuses it: 0 reads as "none in flight" as
			// much as "no cap", and no cap is what leaving the flag out gives.
			return nil, fmt.Errorf("--concurrency 0: use a positive number (leave the flag out for no cap: without --rate or --interval every conversation then starts at once)")
		}
		if cc != math.Trunc(cc) || math.IsInf(cc, 1) {
			return nil, fmt.Errorf("--concurrency %v: want whole numbers >= 1", cc)
		}
	}
	if len(concs) == 0 {
		concs = []float64{0} // Load's 0: no cap
	}
	if len(rates) == 0 {
		rates = []float64{0}
	}
	interval := r.Interval
	if f := r.Frequency; f > 0 && !math.IsInf(f, 1) {
		interval = time.Duration(float64(time.Second) / f)
	}
	var loads []Load
	for _, cc := range concs {
		for _, rate := range rates {
			if math.IsInf(rate, 1) {
				rate = 0
			}
			loads = append(loads, Load{Concurrency: int(cc), Rate: rate, Burstiness: r.Burstiness, Interval: interval})
		}
	}
	return loads, nil
}

// ParseStartAt reads --start-at: an RFC 3339 time (2026-12-07T10:00:00Z)
// or @SECONDS since the Unix epoch ("" is none).
func ParseStartAt(s string) (time.Time, error) {
	if s = strings.TrimSpace(s); s == "" {
		return time.Time{}, nil
	}
	if sec, ok := strings.CutPrefix(s, "@"); ok {
		f, err := strconv.ParseFloat(sec, 64)
		if err == nil && f > 0 && !math.IsInf(f, 0) {
			return time.Unix(0, int64(f*1e9)), nil
		}
	} else if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("--start-at %q: want an RFC 3339 time (2026-12-07T10:00:00Z) or @SECONDS since the Unix epoch (date +@%%s)", s)
}

// parseFloats reads a comma list ("" is none; "inf" is +Inf).
func parseFloats(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || v < 0 || math.IsNaN(v) {
			return nil, fmt.Errorf("%q: want non-negative numbers, comma-separated", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// ParseSLO reads "ttft=500ms,tpot=50ms,e2el=10s"; a bare number, or
// vllm's "ttft:500", is milliseconds.
func ParseSLO(s string) (SLO, error) {
	var slo SLO
	for _, kv := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			k, v, ok = strings.Cut(kv, ":")
		}
		if !ok {
			return slo, fmt.Errorf("%q: want NAME=DURATION (ttft, tpot or e2el)", kv)
		}
		d, err := time.ParseDuration(v)
		if err != nil {
			ms, err2 := strconv.ParseFloat(v, 64)
			if err2 != nil {
				return slo, fmt.Errorf("%q: %v", kv, err)
			}
			d = time.Duration(ms * float64(time.Millisecond))
		}
		if d < 0 {
			return slo, fmt.Errorf("%q: negative", kv)
		}
		switch strings.ToLower(k) {
		case "ttft":
			slo.TTFT = d
		case "tpot":
			slo.TPOT = d
		case "e2el", "e2e":
			slo.E2EL = d
		default:
			return slo, fmt.Errorf("%q: unknown objective %q, want ttft, tpot or e2el", kv, k)
		}
	}
	return slo, nil
}

// load builds the workload w describes; a Benchmark's dataset sets o's
// API (unless apiGiven) and Model (unless set) to the benchmark's.
func (w WorkloadRequest) load(o *Options, apiGiven bool) (*Workload, error) {
	var wl *Workload
	var err error
	switch {
	case w.PromptFile != "":
		d := DashInferDefaults()
		d.PromptFile, d.ImageFolder, d.Requests, d.MultiTurn, d.FileURLs = w.PromptFile, w.ImageFolder, w.Requests, w.MultiTurn, w.FileURLs
		for dst, given := range map[*int]*int{&d.ResponseMean: w.OutputLen, &d.ResponseRange: w.OutputLenRange, &d.ImagesMean: w.Images, &d.ImagesRange: w.ImagesRange} {
			if given != nil {
				*dst = *given
			}
		}
		if w.Seed != nil {
			d.Seed = *w.Seed
		}
		wl, err = LoadDashInfer(d)
	case w.Agentic != "":
		wl, err = LoadAgentic(w.Agentic, w.Trajectories, w.ToolDelays)
	case w.Benchmark != "":
		var b benchmark.Benchmark
		if b, err = benchmark.Lookup(w.Benchmark); err != nil {
			return nil, err
		}
		if len(w.Dataset) == 0 {
			return nil, fmt.Errorf("--benchmark %s needs --dataset PATH", b.Name)
		}
		if !apiGiven {
			o.API = b.Serving.API
		}
		if o.Model == "" {
			o.Model = b.Serving.Model
		}
		reqs := 0
		if w.RequestsGiven {
			reqs = w.Requests
		}
		wl, err = LoadBenchmark(BenchmarkOptions{Benchmark: b, Paths: w.Dataset, API: o.API, Model: o.Model,
			Stream: o.Stream, Requests: reqs, OutputLen: deref(w.OutputLen), Exact: o.ExactOutput})
	case w.PrefixLen > 0:
		if w.MultiTurn > 0 || deref(w.Images) > 0 {
			return nil, fmt.Errorf("--prefix-len makes single-turn text prompts (vllm bench serve's prefix_repetition): drop --multi-turn and --images")
		}
		p := PrefixOptions{Requests: w.Requests, PrefixLen: w.PrefixLen, SuffixLen: w.SuffixLen, NumPrefixes: w.NumPrefixes,
			OutputLen: deref(w.OutputLen), Seed: deref(w.Seed)}
		if p.Tokenizer, err = w.tokenizer(); err != nil {
			return nil, err
		}
		wl, err = PrefixRepetition(p)
	default:
		s := SyntheticOptions{Requests: w.Requests, InputLen: w.InputLen, InputSpread: w.InputLenRange / 2,
			OutputLen: deref(w.OutputLen), OutputSpread: deref(w.OutputLenRange) / 2, Images: deref(w.Images),
			ImagesSpread: deref(w.ImagesRange) / 2, MultiTurn: w.MultiTurn, Seed: deref(w.Seed)}
		if _, err := fmt.Sscanf(w.ImageSize, "%dx%d", &s.ImageWidth, &s.ImageHeight); err != nil {
			return nil, fmt.Errorf("--image-size %q: want WxH, e.g. 512x512", w.ImageSize)
		}
		if s.Tokenizer, err = w.tokenizer(); err != nil {
			return nil, err
		}
		wl, err = Synthetic(s)
	}
	if err != nil {
		return nil, err
	}
	if w.Sampling != nil {
		wl.Sampling = []byte(*w.Sampling)
	}
	return wl, nil
}

// tokenizer opens --tokenizer, when given, whose tokens synthetic
// lengths count.
func (w WorkloadRequest) tokenizer() (Encoder, error) {
	if w.Tokenizer == "" {
		return nil, nil
	}
	tok, err := tokenizer.Open(tokenizer.FindOptions{Path: w.Tokenizer})
	if err != nil {
		return nil, fmt.Errorf("--tokenizer: %w", err)
	}
	return tok, nil
}

// deref is *p, or the zero value of a flag not given.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// SaveEach returns an Options.Finished that writes the results so far
// (results.json, the requests' JSONL and report.html) into out after each
// load point, stamped with the harness version and the command line (its
// secrets redacted), so an interrupted sweep keeps what it measured.
func SaveEach(out, version string, command []string) func(*Results, [][]Record) error {
	return func(res *Results, recs [][]Record) error {
		res.Version, res.Command = version, redact.Args(command)
		if err := WriteFiles(out, res, recs); err != nil {
			return fmt.Errorf("--out %s: %w", out, err)
		}
		if err := WriteHTML(out, []*Results{res}); err != nil {
			return fmt.Errorf("--out %s: %w", out, err)
		}
		return nil
	}
}
