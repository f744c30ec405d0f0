// Package ask puts text prompts to an OpenAI-compatible endpoint and
// collects each answer with its latency, for quality checks beyond MLPerf
// (mlperf-go eval …). It sends through the run's HTTP pool (package sut),
// so endpoints, concurrency, timeouts, retries after 429/503 and lost
// connections, response bounds, the failure limit, API keys and the
// redaction of secrets behave exactly as in `mlperf-go run`; chat bodies
// are the openaichat protocol's own encoding.
//
// Samples are issued one at a time as slots free up, never more than
// Config.Concurrency at once, so an answer's latency is its request's
// (retries included), not a wait in a queue.
package ask

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/openai/openai-go"
	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/sut"
)

// API is how a prompt is put to the endpoint.
type API string

// The APIs.
const (
	// Chat sends the prompt as the one user message of a chat completion
	// (POST /v1/chat/completions) and reads choices[0].message.content.
	Chat API = "chat"
	// Completions sends the prompt as text (POST /v1/completions) and
	// reads choices[0].text: for base models.
	Completions API = "completions"
)

// ParseAPI reads an API name as the --api flag takes it.
func ParseAPI(s string) (API, error) {
	switch API(s) {
	case Chat, Completions:
		return API(s), nil
	}
	return "", fmt.Errorf("%q: use chat (/v1/chat/completions) or completions (/v1/completions, text prompts, for base models)", s)
}

// DefaultConcurrency is Config.Concurrency's default: an evaluation is not
// a throughput test, and 64 requests in flight keep a GPU server busy
// without flooding a hosted API's rate limit.
const DefaultConcurrency = 64

// Config says where and how to ask.
type Config struct {
	// Endpoints are server base URLs, with or without /v1 (sut.Config).
	Endpoints []string
	// API picks the route (default Chat).
	API API
	// Model is the served model name sent in every request ("" sends none).
	Model string
	// MaxTokens and Temperature are sent when set (nil: not sent).
	MaxTokens   *int
	Temperature *float64
	// APIKey is sent as a bearer token when set; never logged or shown.
	APIKey string
	// Concurrency caps requests in flight (default DefaultConcurrency).
	Concurrency int
	// Timeout, Retries, MaxResponseBytes and MaxFailures are the pool's
	// (sut.Config; zero values take its defaults).
	Timeout          time.Duration
	Retries          int
	MaxResponseBytes int64
	MaxFailures      sut.FailureLimit
	// Logger receives the pool's failure reports (default: none).
	Logger *zap.Logger
	// Progress, if set, shows progress: a live bar on a terminal, else a
	// line every ProgressEvery (default 10 s).
	Progress      io.Writer
	ProgressEvery time.Duration
}

// Answer is what the endpoint said to one prompt.
type Answer struct {
	// Text is the answer ("" when the request failed).
	Text string
	// Latency is from sending the request to its answer or final failure,
	// retries included (0 when never asked).
	Latency time.Duration
	// Failed is set when no answer came: Reason is the sut.Reason* class
	// and Error the message (secrets redacted). NotAsked is set for
	// prompts never sent because the run stopped first.
	Failed   bool
	Reason   string
	Error    string
	NotAsked bool
}

// Result is the outcome of asking every prompt.
type Result struct {
	// Answers holds one Answer per prompt, in prompt order.
	Answers []Answer
	// Elapsed is the wall time from the first request to the last answer.
	Elapsed time.Duration
	// Stats are the pool's counters (retries, failures by class, …).
	Stats sut.Stats
	// Stopped says why the run ended early ("" when it did not): the
	// failure limit, or the context's cause.
	Stopped string
}

// Failed counts the prompts without an answer (failed or not asked).
func (r *Result) Failed() int {
	n := 0
	for _, a := range r.Answers {
		if a.Failed || a.NotAsked {
			n++
		}
	}
	return n
}

// Ask puts every prompt to the endpoints and returns the answers. It
// returns an error only when it cannot start (a bad Config); failed
// requests are Answers with Failed set, and a run stopped early (the
// failure limit, ctx cancelled) returns what was answered with
// Result.Stopped saying why.
func Ask(ctx context.Context, cfg Config, prompts []string) (*Result, error) {
	api, bodies, err := encode(cfg, prompts)
	if err != nil {
		return nil, err
	}
	conc := cfg.Concurrency
	if conc == 0 {
		conc = DefaultConcurrency
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	col := &collector{answers: make([]Answer, len(prompts)), sent: make([]time.Time, len(prompts)), slots: make(chan struct{}, conc),
		// A cancelled sample means the pool stopped (its failure limit
		// or ctx): issue no more. Abort's cause arrives later, in its
		// own goroutine; Result.Stopped takes the pool's own words.
		stop: func() { cancel(errPoolStopped) }}
	pool, err := sut.New(ctx, sut.Config{
		Endpoints: cfg.Endpoints, API: api, Concurrency: conc, Timeout: cfg.Timeout, APIKey: cfg.APIKey,
		Name: "mlperf-go-eval", Bodies: bodies, Completer: col, Logger: cfg.Logger,
		Retries: cfg.Retries, MaxResponseBytes: cfg.MaxResponseBytes, MaxFailures: cfg.MaxFailures,
		Abort: func(err error) { cancel(err) }, OnFailure: col.fail,
	})
	if err != nil {
		return nil, err
	}
	stopProgress := startProgress(cfg.Progress, cfg.ProgressEvery, int64(len(prompts)), pool)
	start := time.Now()
	asked := issue(ctx, pool, col)
	pool.Close() // waits for every issued sample's answer
	stopProgress()
	res := &Result{Answers: col.answers, Elapsed: time.Since(start), Stats: pool.Stats()}
	for i := asked; i < len(res.Answers); i++ {
		res.Answers[i] = Answer{NotAsked: true, Error: "not asked: the run stopped first"}
	}
	switch {
	case res.Stats.Stopped != "":
		res.Stopped = res.Stats.Stopped
	case ctx.Err() != nil:
		res.Stopped = context.Cause(ctx).Error()
	}
	return res, nil
}

// issue hands the prompts to the pool one at a time as slots free up,
// until all are issued or ctx ends; it returns how many were issued.
func issue(ctx context.Context, pool *sut.Pool, col *collector) int {
	for i := range col.answers {
		select {
		case col.slots <- struct{}{}:
		case <-ctx.Done():
			return i
		}
		if ctx.Err() != nil {
			<-col.slots
			return i
		}
		col.mu.Lock()
		col.sent[i] = time.Now()
		col.mu.Unlock()
		pool.IssueQuery([]loadgen.QuerySample{{ID: uint64(i), Index: i}})
	}
	return len(col.answers)
}

// encode builds every request body once, before the first is sent.
func encode(cfg Config, prompts []string) (protocol.Protocol, bodyList, error) {
	if len(prompts) == 0 {
		return nil, nil, errors.New("ask: no prompts")
	}
	bodies := make(bodyList, len(prompts))
	var err error
	switch cfg.API {
	case Chat, "":
		p := openaichat.Params{MaxTokens: cfg.MaxTokens, Temperature: cfg.Temperature}
		for i, prompt := range prompts {
			msgs := []openai.ChatCompletionMessageParamUnion{openai.UserMessage(prompt)}
			if bodies[i], err = openaichat.Encode(cfg.Model, msgs, nil, p, false); err != nil {
				return nil, nil, fmt.Errorf("ask: prompt %d: %w", i, err)
			}
		}
		return openaichat.Protocol, bodies, nil
	case Completions:
		p := textParams{MaxTokens: cfg.MaxTokens, Temperature: cfg.Temperature}
		for i, prompt := range prompts {
			if bodies[i], err = encodeText(cfg.Model, prompt, p); err != nil {
				return nil, nil, fmt.Errorf("ask: prompt %d: %w", i, err)
			}
		}
		return textCompletions{}, bodies, nil
	}
	_, err = ParseAPI(string(cfg.API))
	return nil, nil, fmt.Errorf("ask: API %w", err)
}

// errPoolStopped is the cause of a run ended by the pool itself.
var errPoolStopped = errors.New("the pool stopped")

// bodyList is the request bodies, by prompt index (sut.Bodies).
type bodyList [][]byte

func (b bodyList) Body(i int) []byte {
	if i < 0 || i >= len(b) {
		return nil
	}
	return b[i]
}

// collector receives the pool's answers (a loadgen.Completer) and
// failures, and frees a slot per answered prompt.
type collector struct {
	mu      sync.Mutex
	answers []Answer
	sent    []time.Time
	slots   chan struct{}
	stop    func()
}

// fail records a failed prompt; the pool calls it before completing the
// prompt with an empty answer.
func (c *collector) fail(f sut.Failure) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f.Index >= 0 && f.Index < len(c.answers) {
		a := &c.answers[f.Index]
		a.Failed, a.Reason, a.Error = true, f.Reason, f.Message
	}
	if f.Reason == sut.ReasonCanceled {
		c.stop()
	}
}

func (c *collector) QuerySamplesComplete(rs []loadgen.Response) error {
	now := time.Now()
	c.mu.Lock()
	for _, r := range rs {
		i := int(r.ID)
		if i < 0 || i >= len(c.answers) {
			continue
		}
		a := &c.answers[i]
		if !a.Failed {
			a.Text = string(r.Data) // the pool reuses r.Data's buffer
		}
		a.Latency = now.Sub(c.sent[i])
	}
	c.mu.Unlock()
	for range rs {
		<-c.slots
	}
	return nil
}

func (c *collector) FirstTokenComplete([]loadgen.Response) error { return nil }
