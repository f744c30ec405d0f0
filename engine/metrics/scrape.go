package metrics

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/mlperf-go/mlperf-go/internal/redact"
	"github.com/mlperf-go/mlperf-go/protocol"
)

// File is the name of the engine-metric series in a run's output directory.
const File = "engine_metrics.jsonl"

// Scrape statuses.
const (
	// StatusOK: the metrics were read (Values may still be empty if the
	// server exposes none of Metrics).
	StatusOK = "ok"
	// StatusUnavailable: the server has no /metrics route (404); it is
	// not asked again.
	StatusUnavailable = "unavailable"
	// StatusError: the scrape failed (connection, status, malformed text);
	// later scrapes try again.
	StatusError = "error"
)

// Scrape is one line of engine_metrics.jsonl: one endpoint's metrics at
// one time.
type Scrape struct {
	// UnixMs is when the scrape was answered, in milliseconds since the
	// Unix epoch (timeline.jsonl uses the same clock).
	UnixMs int64 `json:"unix_ms"`
	// Endpoint is the endpoint's base URL, without user information.
	Endpoint string `json:"endpoint"`
	// Status is StatusOK, StatusUnavailable or StatusError; Error says
	// what went wrong.
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	// Values holds the Metrics found, by sample name, each combined over
	// its label sets (summed, or the maximum for Metric.Max).
	Values map[string]float64 `json:"values,omitempty"`
}

// MetricsURL is where the engine behind a base URL (with or without /v1,
// as --endpoint takes it) serves its metrics: vLLM and SGLang both serve
// /metrics at the root, beside /v1.
func MetricsURL(endpoint string) (string, error) {
	// Errors name the endpoint as redact.Text shows it: a key may be in
	// its query or user information.
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) { // it repeats the whole URL
			err = ue.Err
		}
		return "", fmt.Errorf("endpoint %q: %w", redact.Text(endpoint), err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("endpoint %q: want an http:// or https:// URL with a host", redact.Text(endpoint))
	}
	u.Path, u.RawPath, u.RawQuery, u.Fragment = protocol.ServerRoot(u.Path)+"/metrics", "", "", ""
	return u.String(), nil
}

// errNoRoute marks a 404 from /metrics.
var errNoRoute = errors.New("no /metrics route")

// maxBody bounds the exposition text read: vLLM's is tens of KB, with
// histograms; anything far larger is not a metrics page.
const maxBody = 16 << 20

// fetch scrapes one metrics URL.
func fetch(ctx context.Context, client *http.Client, metricsURL, apiKey string) (map[string]float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, metricsURL, nil)
	if err != nil {
		return nil, err
	}
	if apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	// The classic text format, which both engines' prometheus_client
	// serves when asked for it.
	req.Header.Set("Accept", "text/plain;version=0.0.4")
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil, fmt.Errorf("GET %s: %s: %w", metricsURL, resp.Status, errNoRoute)
	}
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		return nil, fmt.Errorf("GET %s: %s: the server wants a valid API key on /metrics too (the run's key was %s)", metricsURL, resp.Status, sentOrNot(apiKey))
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", metricsURL, resp.Status)
	}
	vals, err := Parse(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", metricsURL, err)
	}
	return vals, nil
}

// Parse reads Prometheus text exposition and returns the values of the
// Metrics it holds, each combined over its label sets. Metrics of other
// names, and histograms and summaries, are ignored.
func Parse(r io.Reader) (map[string]float64, error) {
	fams, err := textToFamilies(r)
	if err != nil {
		return nil, fmt.Errorf("malformed Prometheus text: %w", err)
	}
	vals := map[string]float64{}
	for name, fam := range fams {
		def, ok := metricByName[name]
		if !ok {
			continue
		}
		found := false
		var v float64
		for _, m := range fam.GetMetric() {
			x, ok := sampleValue(m)
			if !ok || math.IsNaN(x) {
				continue
			}
			switch {
			case !found:
				v = x
			case def.Max:
				v = max(v, x)
			default:
				v += x
			}
			found = true
		}
		if found {
			vals[name] = v
		}
	}
	return vals, nil
}

// textToFamilies runs the Prometheus text parser, turning its panics into
// errors: prometheus/common's parser dereferences nil on some inputs that
// are not exposition text at all (a proxy's catch-all route answering "{}"),
// and a scrape must never take a run down.
func textToFamilies(r io.Reader) (fams map[string]*dto.MetricFamily, err error) {
	defer func() {
		if p := recover(); p != nil {
			fams, err = nil, fmt.Errorf("not Prometheus text (the parser failed: %v)", p)
		}
	}()
	p := expfmt.NewTextParser(model.UTF8Validation)
	return p.TextToMetricFamilies(r)
}

// sampleValue is a gauge's, counter's or untyped sample's value.
func sampleValue(m *dto.Metric) (float64, bool) {
	switch {
	case m.Gauge != nil:
		return m.Gauge.GetValue(), true
	case m.Counter != nil:
		return m.Counter.GetValue(), true
	case m.Untyped != nil:
		return m.Untyped.GetValue(), true
	}
	return 0, false
}

// DefaultEvery is how often a Recorder scrapes when given no interval: often
// enough to see a ten-minute run's KV cache fill, rarely enough that the
// engine does not notice (its /metrics page is tens of KB).
const DefaultEvery = 5 * time.Second

// Recorder scrapes endpoints at an interval and appends each Scrape to a
// file. Create it with Start and stop it with Stop.
type Recorder struct {
	f         *os.File
	w         *bufio.Writer
	client    *http.Client
	endpoints []target
	cancel    context.CancelFunc
	ctx       context.Context
	done      chan struct{}
	err       error
	failed    atomic.Int64 // scrapes that failed
	apiKey    string
}

// sentOrNot says whether a key was sent, without saying the key.
func sentOrNot(key string) string {
	if key == "" {
		return "not set"
	}
	return "sent"
}

type target struct {
	url, name string
	gone      bool // answered 404: not asked again
}

// Start creates path (replacing an earlier file), scrapes every endpoint at
// once, so counters have their value before the run, then every interval
// (DefaultEvery if <= 0) until Stop. client nil uses a client with a 5 s
// timeout. Endpoints are base URLs as --endpoint takes them; apiKey, when
// set, is sent as a bearer token, as with every request to an endpoint.
func Start(path string, endpoints []string, every time.Duration, client *http.Client, apiKey string) (*Recorder, error) {
	if every <= 0 {
		every = DefaultEvery
	}
	if client == nil {
		client = &http.Client{Timeout: 5 * time.Second}
	}
	r := &Recorder{client: client, done: make(chan struct{}), apiKey: apiKey}
	for _, e := range endpoints {
		u, err := MetricsURL(e)
		if err != nil {
			return nil, fmt.Errorf("engine metrics: %w", err)
		}
		r.endpoints = append(r.endpoints, target{url: u, name: redact.URL(e)})
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("engine metrics: %w", err)
	}
	r.f, r.w = f, bufio.NewWriter(f)
	r.ctx, r.cancel = context.WithCancel(context.Background())
	r.scrapeAll()
	go func() {
		defer close(r.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-r.ctx.Done():
				return
			case <-t.C:
				r.scrapeAll()
			}
		}
	}()
	return r, nil
}

// scrapeAll scrapes each endpoint in turn and writes the lines. Only the
// recorder's goroutine (or Start and Stop, when it is not running) calls it.
func (r *Recorder) scrapeAll() {
	for i := range r.endpoints {
		t := &r.endpoints[i]
		if t.gone {
			continue
		}
		vals, err := safeFetch(r.ctx, r.client, t.url, r.apiKey)
		s := Scrape{UnixMs: time.Now().UnixMilli(), Endpoint: t.name, Status: StatusOK, Values: vals}
		switch {
		case errors.Is(err, errNoRoute):
			s.Status, s.Error, t.gone = StatusUnavailable, redact.Text(err.Error()), true
		case err != nil && r.ctx.Err() != nil:
			return // stopping: a cancelled scrape is no observation
		case err != nil:
			s.Status, s.Error = StatusError, redact.Text(err.Error())
			r.failed.Add(1)
		}
		r.write(s)
	}
}

// Snap scrapes the engine behind endpoint (a base URL as --endpoint takes
// it) once, as a Recorder's scrapes do, for a caller that wants the
// counters at two moments (a serving benchmark's run) rather than a
// series: the Scrape's Status and Error say what went wrong. client nil
// uses one with a 5 s timeout.
func Snap(ctx context.Context, client *http.Client, endpoint, apiKey string) Scrape {
	s := Scrape{Endpoint: redact.URL(endpoint), Status: StatusOK}
	u, err := MetricsURL(endpoint)
	if err == nil {
		if client == nil {
			client = &http.Client{Timeout: 5 * time.Second}
		}
		s.Values, err = safeFetch(ctx, client, u, apiKey)
	}
	s.UnixMs = time.Now().UnixMilli()
	switch {
	case errors.Is(err, errNoRoute):
		s.Status, s.Error = StatusUnavailable, redact.Text(err.Error())
	case err != nil:
		s.Status, s.Error = StatusError, redact.Text(err.Error())
	}
	return s
}

// safeFetch is fetch with a recover at the scraper's boundary: whatever an
// endpoint answers, a failed scrape is an observation, never a crash.
func safeFetch(ctx context.Context, client *http.Client, metricsURL, apiKey string) (vals map[string]float64, err error) {
	defer func() {
		if p := recover(); p != nil {
			vals, err = nil, fmt.Errorf("GET %s: reading the answer failed: %v", metricsURL, p)
		}
	}()
	return fetch(ctx, client, metricsURL, apiKey)
}

// Failed is the number of scrapes so far that failed (an error answer, a
// network error or a body that is not Prometheus text), each written to the
// file with its error.
func (r *Recorder) Failed() int64 { return r.failed.Load() }

func (r *Recorder) write(s Scrape) {
	b, err := json.Marshal(s)
	if err == nil {
		_, err = r.w.Write(append(b, '\n'))
	}
	if err == nil {
		err = r.w.Flush()
	}
	if err != nil && r.err == nil {
		r.err = fmt.Errorf("engine metrics: writing %s: %w", r.f.Name(), err)
	}
}

// Stop ends the periodic scrapes, scrapes every endpoint once more (so
// counters have their value at the end of the run), closes the file and
// returns the first error met while writing. Call it once.
func (r *Recorder) Stop() error {
	r.cancel()
	<-r.done
	r.ctx = context.Background()
	r.scrapeAll()
	return errors.Join(r.err, r.f.Close())
}

// Read reads an engine_metrics.jsonl file; a malformed line is an error
// naming the file and line.
func Read(path string) ([]Scrape, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Scrape
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	n := 0
	for sc.Scan() {
		n++
		if len(sc.Bytes()) == 0 {
			continue
		}
		var s Scrape
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			return out, fmt.Errorf("%s, line %d: not an engine-metrics scrape: %w", path, n, err)
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}
