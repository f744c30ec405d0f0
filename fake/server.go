// Package fake is an in-process stand-in for the inference servers the
// harness talks to: it serves every wire protocol mlperf-go speaks
// (package protocol's registry, filled by protocol/all) at its path,
// vLLM's /v1/models and /health, and vLLM's and SGLang's Prometheus
// /metrics. It answers deterministically, models time to first token,
// time per output token and a concurrency limit with FIFO queueing, and
// injects faults on request (faults.go), so the whole harness runs and is
// tested without a GPU. It is a test instrument, not a benchmark target.
//
// The fake names no protocol and no benchmark: each protocol reads its
// requests and writes its answers (protocol.Serving, in its own package),
// and the fake decides what the answer is (generate.go): tokens derived
// from a token prompt, or for a chat the answer its benchmark told it
// (Config.Answers, Config.DefaultAnswer).
package fake

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/protocol"
	_ "github.com/mlperf-go/mlperf-go/protocol/all" // the fake serves every protocol
)

// DefaultModel is the served model name when Config.Model is empty.
const DefaultModel = "Qwen/Qwen3-VL-235B-A22B-Instruct"

// DefaultOutputTokens is the number of tokens answering a token prompt
// when Config.OutputTokens is 0.
const DefaultOutputTokens = 128

// maxModelLen is what /v1/models reports: Qwen3-VL's native context length.
const maxModelLen = 262144

// Config configures a fake endpoint. The zero value is valid: model
// DefaultModel, no latency, DefaultOutputTokens tokens, unlimited
// concurrency, no faults, no known answers (every chat answered with
// FallbackAnswer).
type Config struct {
	// Model is the served model name listed by /v1/models and required (when
	// a request names one) in requests. Default DefaultModel.
	Model string
	// TTFT is the time from taking a generation slot to the first token.
	// Time spent queued for a slot adds to it, as on a real server. Default 0.
	TTFT time.Duration
	// TPOT is the time between consecutive output tokens. Default 0.
	TPOT time.Duration
	// OutputTokens is how many tokens answer a token prompt (completions,
	// SGLang's /generate), capped by the request's max tokens. Chat answers
	// have as many tokens as their text has pieces (see Server docs).
	// Default DefaultOutputTokens.
	OutputTokens int
	// EndTokens, when set, are the last tokens of every answer to a token
	// prompt, in place of its last generated ones (the answer keeps its
	// length): a model's end-of-sequence token repeated, say, as a server
	// that keeps generating past it answers, which TEST06's EOS check
	// fails. An answer shorter than EndTokens ends with their tail.
	// Default none.
	EndTokens []int32
	// MaxConcurrency is how many requests generate at once; more wait in
	// FIFO order for a slot. 0 means unlimited.
	MaxConcurrency int
	// StreamInterval is how many tokens one streamed event carries, like
	// SGLang's --stream-interval: with N > 1 events go out at tokens 1, N+1,
	// 2N+1, … and at the end. Default 1 (an event per token).
	StreamInterval int
	// IncrementalStream makes streams whose protocol lets the server
	// choose carry deltas (SGLang's /generate: text and output_ids of the
	// new tokens only, like its --incremental-streaming-output); others
	// stream their one way (vLLM's OpenAI streams always carry deltas).
	// Default false: SGLang's default, every event carrying the cumulative
	// text and output_ids.
	IncrementalStream bool
	// FailRate is the fraction of generation requests that fail, in [0, 1].
	// Which ones is decided by hashing a request counter with Seed, so a run
	// is repeatable for a given request order. Default 0.
	FailRate float64
	// FailMode is how the FailRate requests fail: one of the Fail*
	// constants (FailModeHelp describes them all). A request the mode does
	// not apply to (a stream-only mode on a non-streamed request, say) is
	// answered normally. Default FailStatus.
	FailMode string
	// Seed varies fault selection, request IDs and which Answers are
	// answered right. Default 0.
	Seed int64
	// Answers are the samples whose chat answers the fake is told (by
	// their benchmark: benchmark.FakeAnswerer), keyed on their texts.
	Answers []Answer
	// Accuracy is the fraction, in [0, 1], of Answers answered Right
	// (chosen by a hash of the first key and Seed); the rest get one of
	// their Wrongs. The zero value makes every answer wrong, so callers
	// normally set it (the CLI defaults it to 1).
	Accuracy float64
	// TokenAnswers are the samples of a token-ID benchmark whose answers
	// the fake is told, keyed on their prompts; chosen right or wrong
	// under Accuracy as Answers are. A token prompt none has is answered
	// with tokens derived from it (Tokens).
	TokenAnswers []TokenAnswer
	// DefaultAnswer is the answer to a chat whose key no Answer has, in
	// the benchmark's answer format (benchmark.Fake.DefaultAnswer).
	// Default FallbackAnswer.
	DefaultAnswer string
	// PrefillPerToken is the time each prompt token not found in the
	// prefix cache adds to the time to first token, so longer prompts are
	// slower and hold their slot longer, as a real engine's prefill does.
	// Chat prompts are counted as the fake estimates them (Reply's
	// PromptTokens). Default 0.
	PrefillPerToken time.Duration
	// PrefixCache makes the fake an engine with its prefix cache on, as
	// vLLM's --enable-prefix-caching (prefix.go): prompt tokens found in
	// the cache, in whole blocks of PrefixBlockTokens, are not prefilled
	// again, each answer enters the cache as the next turn of its
	// conversation carries it, and /metrics reports the hits. Default
	// false, as the MLPerf rules require of a real engine (vLLM
	// --no-enable-prefix-caching, SGLang --disable-radix-cache): every
	// prompt token is prefilled, and /metrics reports lookups but no
	// hits, so the report's prefix-cache warning stays for real hits.
	PrefixCache bool
	// PrefixBlockTokens is the prefix cache's block size in tokens
	// (default DefaultPrefixBlockTokens, vLLM's).
	PrefixBlockTokens int
	// ReasoningTokens makes the fake a reasoning model served with a
	// reasoning parser: every answer begins with this many reasoning
	// tokens, counted in its length and capped with it by max tokens. A
	// chat streams them apart from its content (vLLM's reasoning delta
	// and message field, ReasoningText's pieces) and counts them in
	// usage.completion_tokens_details.reasoning_tokens; SGLang's
	// /generate counts them in meta_info.reasoning_tokens; a completion's
	// text holds them as any tokens (a reasoning parser works on chats).
	// A conversation's next turn carries the answer without its
	// reasoning, as clients send it back. Default 0.
	ReasoningTokens int
	// OnRequest, if set, is called with what each generation request
	// asked and how the fake answers it, before generation; tests check
	// what a client sent through it. It must be quick and safe for
	// concurrent use.
	OnRequest func(RequestInfo)
	// KeepAlive is how long the server keeps an idle keep-alive connection
	// open (http.Server.IdleTimeout) before closing it, as uvicorn closes
	// vLLM's after VLLM_HTTP_TIMEOUT_KEEP_ALIVE seconds (5 by default).
	// Default 0: idle connections stay open.
	KeepAlive time.Duration
	// Logger receives request failures and injected faults at debug level.
	// Default zap.NewNop().
	Logger *zap.Logger
}

// RequestInfo is one generation request as the fake read and answers it.
type RequestInfo struct {
	// Path is the request path; Session the X-Session-ID header ("" when
	// absent).
	Path, Session string
	// Ask is what the request asked for (valid during the call only).
	Ask *protocol.Ask
	// Tokens is the length of each answer; Finish why it ends.
	Tokens int
	Finish string
	// PromptTokens is the fake's estimate of the prompt, CachedTokens the
	// part of it found in the prefix cache (Config.PrefixCache). OnRequest
	// is called once the request has its generation slot, which is when
	// the cache is looked up.
	PromptTokens, CachedTokens int
	// ReasoningTokens is how many of the answer's tokens are reasoning
	// (Config.ReasoningTokens).
	ReasoningTokens int
}

// Stats is a snapshot of what a Server has served.
type Stats struct {
	// Requests counts requests by path ("/v1/chat/completions", "/generate",
	// "/health", …; unknown paths count under "other").
	Requests map[string]uint64
	// Faults counts injected faults by mode.
	Faults map[string]uint64
	// MaxConcurrent is the most requests that held a generation slot at once.
	MaxConcurrent int
	// MaxInFlight is the most generation requests in the server at once,
	// queued ones included.
	MaxInFlight int
	// Images counts the image parts of the chat requests read.
	Images uint64
	// CachedTokens counts prompt tokens found in the prefix cache.
	CachedTokens uint64
}

// Server is the fake endpoint. It is an http.Handler; Start serves it on a
// listener of its own. A chat answer's token count is the number of pieces
// the fake tokenizer cuts its text into (see splitPieces), the same in
// streaming and non-streaming usage.
type Server struct {
	cfg      Config
	log      *zap.Logger
	mux      *http.ServeMux
	answers  map[string]*textAnswer
	tokenAns map[string][]int32 // by PromptKey; absent: derived tokens
	fallback *textAnswer        // the answer to a key answers lacks
	slots    chan struct{}      // nil when unlimited

	done      chan struct{} // closed by Close
	mu        sync.Mutex
	closed    bool
	handlers  sync.WaitGroup
	httpSrv   *http.Server
	serveErr  chan error
	closeOnce sync.Once

	reqCounter atomic.Uint64 // generation requests, drives fault choice
	idCounter  atomic.Uint64

	paths      []string
	reqCounts  []atomic.Uint64 // parallel to paths, plus "other" last
	faultCount [len(faultModes)]atomic.Uint64
	active     atomic.Int64
	maxActive  atomic.Int64
	inFlight   atomic.Int64
	maxFlight  atomic.Int64

	bufPool  sync.Pool
	bodyPool sync.Pool // request bodies, reused once parsed

	// decoding holds a token for each request body being decoded: at most
	// half the CPUs decode at once (see decodeBody).
	decoding chan struct{}

	metrics engineMetrics
	own     ownLatency // the fake's own side of each request (own.go)

	images atomic.Uint64
	prefix *prefixCache
}

// New validates cfg, fills its defaults and builds the server.
func New(cfg Config) (*Server, error) {
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	if cfg.OutputTokens == 0 {
		cfg.OutputTokens = DefaultOutputTokens
	}
	if cfg.StreamInterval == 0 {
		cfg.StreamInterval = 1
	}
	if cfg.PrefixBlockTokens == 0 {
		cfg.PrefixBlockTokens = DefaultPrefixBlockTokens
	}
	if cfg.FailMode == "" {
		cfg.FailMode = FailStatus
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	var errs []error
	if cfg.TTFT < 0 || cfg.TPOT < 0 || cfg.PrefillPerToken < 0 {
		errs = append(errs, fmt.Errorf("TTFT %v, TPOT %v and prefill per token %v must not be negative", cfg.TTFT, cfg.TPOT, cfg.PrefillPerToken))
	}
	if cfg.OutputTokens < 0 {
		errs = append(errs, fmt.Errorf("output tokens %d must be positive", cfg.OutputTokens))
	}
	if cfg.KeepAlive < 0 {
		errs = append(errs, fmt.Errorf("keep-alive %v must not be negative", cfg.KeepAlive))
	}
	if cfg.MaxConcurrency < 0 {
		errs = append(errs, fmt.Errorf("max concurrency %d must be 0 (unlimited) or positive", cfg.MaxConcurrency))
	}
	if cfg.ReasoningTokens < 0 {
		errs = append(errs, fmt.Errorf("reasoning tokens %d must not be negative", cfg.ReasoningTokens))
	}
	if cfg.PrefixBlockTokens < 0 {
		errs = append(errs, fmt.Errorf("prefix block tokens %d must be positive", cfg.PrefixBlockTokens))
	}
	if cfg.StreamInterval < 0 {
		errs = append(errs, fmt.Errorf("stream interval %d must be positive", cfg.StreamInterval))
	}
	if !(cfg.FailRate >= 0 && cfg.FailRate <= 1) {
		errs = append(errs, fmt.Errorf("fail rate %v is outside [0, 1]", cfg.FailRate))
	}
	if !(cfg.Accuracy >= 0 && cfg.Accuracy <= 1) {
		errs = append(errs, fmt.Errorf("accuracy %v is outside [0, 1]", cfg.Accuracy))
	}
	if faultIndex(cfg.FailMode) < 0 {
		errs = append(errs, fmt.Errorf("unknown fail mode %q: use one of %s", cfg.FailMode, strings.Join(faultNames(), ", ")))
	}
	if cfg.DefaultAnswer == "" {
		cfg.DefaultAnswer = FallbackAnswer
	}
	seen := make(map[string]int, len(cfg.Answers))
	for i, a := range cfg.Answers {
		if len(a.Keys) == 0 {
			errs = append(errs, fmt.Errorf("answer %d has no key; give each the request texts that identify its sample", i))
			break
		}
		if j, dup := seen[a.Keys[0]]; dup {
			errs = append(errs, fmt.Errorf("answers %d and %d have the same first key; which answer is right is decided by it, so make the keys unique", j, i))
			break
		}
		seen[a.Keys[0]] = i
	}
	seenPrompt := make(map[string]int, len(cfg.TokenAnswers))
	for i, a := range cfg.TokenAnswers {
		if len(a.Right) == 0 {
			errs = append(errs, fmt.Errorf("token answer %d has no right answer; encode its sample's reference output", i))
			break
		}
		if j, dup := seenPrompt[PromptKey(a.Prompt)]; dup {
			errs = append(errs, fmt.Errorf("token answers %d and %d have the same prompt; the prompt identifies the sample, so give each sample once", j, i))
			break
		}
		seenPrompt[PromptKey(a.Prompt)] = i
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("fake endpoint: invalid config: %w", err)
	}

	fallback := newTextAnswer(cfg.DefaultAnswer, false)
	s := &Server{
		cfg:      cfg,
		log:      cfg.Logger,
		fallback: fallback,
		answers:  buildAnswers(cfg.Answers, fallback, cfg.Accuracy, cfg.Seed),
		tokenAns: buildTokenAnswers(cfg.TokenAnswers, cfg.Accuracy, cfg.Seed),
		done:     make(chan struct{}),
		mux:      http.NewServeMux(),
		prefix:   newPrefixCache(cfg.PrefixBlockTokens),
	}
	if cfg.MaxConcurrency > 0 {
		s.slots = make(chan struct{}, cfg.MaxConcurrency)
	}
	s.bufPool.New = func() any { b := make([]byte, 0, 4096); return &b }
	s.bodyPool.New = func() any { b := make([]byte, 0, 4096); return &b }
	s.decoding = make(chan struct{}, max(runtime.GOMAXPROCS(0)/2, 1))

	type route struct {
		path string
		h    http.HandlerFunc
	}
	routes := []route{
		{"/v1/models", s.handleModels},
		{"/health", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }},
		{"/metrics", s.handleMetrics},
		{StatsPath, s.handleStats},
		{StatsPath + "/reset", s.handleStats},
	}
	for _, p := range protocol.All() {
		if sp, ok := p.(protocol.Serving); ok {
			routes = append(routes, route{p.Path(), s.post(s.serve(sp))})
		}
	}
	s.reqCounts = make([]atomic.Uint64, len(routes)+1)
	for i, r := range routes {
		s.paths = append(s.paths, r.path)
		s.mux.HandleFunc(r.path, s.counted(i, r.h))
	}
	s.mux.HandleFunc("/", s.counted(len(s.paths), func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"detail":"Not Found"}`))
	}))
	return s, nil
}

// ServeHTTP serves the fake's endpoints. After Close it answers 503.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, "fake endpoint is closed", http.StatusServiceUnavailable)
		return
	}
	s.handlers.Add(1)
	s.mu.Unlock()
	defer s.handlers.Done()
	if sc := connOf(r); sc != nil {
		sc.begin()
		defer sc.end()
	}
	s.mux.ServeHTTP(w, r)
}

func (s *Server) counted(i int, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.reqCounts[i].Add(1)
		h(w, r)
	}
}

func (s *Server) post(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			writeError(w, http.StatusMethodNotAllowed, "Method Not Allowed", "", "")
			return
		}
		n := s.inFlight.Add(1)
		storeMax(&s.maxFlight, n)
		defer s.inFlight.Add(-1)
		h(w, r)
	}
}

func storeMax(m *atomic.Int64, v int64) {
	for {
		old := m.Load()
		if v <= old || m.CompareAndSwap(old, v) {
			return
		}
	}
}

// Start serves the fake on addr (e.g. "127.0.0.1:0") in the background and
// returns its base URL, like "http://127.0.0.1:41234". Close stops it.
func (s *Server) Start(addr string) (string, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("fake endpoint: listen on %q: %w", addr, err)
	}
	s.mu.Lock()
	if s.closed || s.httpSrv != nil {
		s.mu.Unlock()
		l.Close()
		return "", errors.New("fake endpoint: Start called on a started or closed server; build a new one with New")
	}
	s.httpSrv = &http.Server{Handler: s, ReadHeaderTimeout: 30 * time.Second, IdleTimeout: s.cfg.KeepAlive, ConnContext: withConn}
	s.serveErr = make(chan error, 1)
	srv, errc := s.httpSrv, s.serveErr
	s.mu.Unlock()
	go func() {
		err := srv.Serve(stampListener{l})
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		errc <- err
	}()
	s.log.Info("fake endpoint serving", zap.String("addr", l.Addr().String()), zap.String("model", s.cfg.Model))
	return "http://" + l.Addr().String(), nil
}

// ListenAndServe serves on addr until ctx is done, then closes the server.
// It returns nil after ctx ends and the serve error if serving fails first.
func (s *Server) ListenAndServe(ctx context.Context, addr string) error {
	if _, err := s.Start(addr); err != nil {
		return err
	}
	select {
	case <-ctx.Done():
		return s.Close()
	case err := <-s.serveErr:
		_ = s.Close()
		if err != nil {
			return fmt.Errorf("fake endpoint: serve: %w", err)
		}
		return nil
	}
}

// Close releases stalled and waiting requests, stops the listener Start
// opened (closing its connections) and waits for every handler to return.
// It is safe to call more than once and on a server never started.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		srv := s.httpSrv
		s.mu.Unlock()
		close(s.done)
		if srv != nil {
			_ = srv.Close()
		}
		s.handlers.Wait()
		s.logOwnStats()
	})
	return nil
}

// Stats returns a snapshot of the counters.
func (s *Server) Stats() Stats {
	st := Stats{
		Requests:      make(map[string]uint64, len(s.paths)+1),
		Faults:        make(map[string]uint64),
		MaxConcurrent: int(s.maxActive.Load()),
		MaxInFlight:   int(s.maxFlight.Load()),
		Images:        s.images.Load(),
		CachedTokens:  s.metrics.cacheHits.Load(),
	}
	for i, p := range s.paths {
		if n := s.reqCounts[i].Load(); n > 0 {
			st.Requests[p] = n
		}
	}
	if n := s.reqCounts[len(s.paths)].Load(); n > 0 {
		st.Requests["other"] = n
	}
	for i, m := range faultModes {
		if n := s.faultCount[i].Load(); n > 0 {
			st.Faults[m.name] = n
		}
	}
	return st
}

// acquire waits, in FIFO order, for a generation slot. The slots are a
// buffered channel: the runtime queues blocked senders and admits them in
// arrival order, which is the FIFO a real server's waiting queue gives. It returns false if
// the client went away or the server closed first.
func (s *Server) acquire(ctx context.Context) bool {
	if s.slots != nil {
		s.metrics.queued.Add(1)
		defer s.metrics.queued.Add(-1)
		select {
		case s.slots <- struct{}{}:
		case <-ctx.Done():
			return false
		case <-s.done:
			return false
		}
	}
	storeMax(&s.maxActive, s.active.Add(1))
	return true
}

func (s *Server) release() {
	s.active.Add(-1)
	if s.slots != nil {
		<-s.slots
	}
}

// sleepUntil waits until t; false means the client left or the server closed.
func (s *Server) sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return true
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return true
	case <-ctx.Done():
		return false
	case <-s.done:
		return false
	}
}

func (s *Server) getBuf() *[]byte { return s.bufPool.Get().(*[]byte) }

func (s *Server) putBuf(b *[]byte) {
	if cap(*b) > 1<<20 {
		return
	}
	*b = (*b)[:0]
	s.bufPool.Put(b)
}

// decodeBody reads the request body and hands it to parse, answering 400
// as vLLM and SGLang do when either fails; false when that answer has been
// written.
//
// Bodies are decoded on at most half the CPUs at once (one on two), as a
// single-process Python server decodes them one at a time. encoding/json
// reads a 64 KB qwen3-vl body byte by byte (13 ms under the race
// detector); hundreds decoding together in a test that runs the harness
// in the same process left its goroutines no CPU, so its dials timed out.
func (s *Server) decodeBody(w http.ResponseWriter, r *http.Request, parse func(body []byte) error) bool {
	bp := s.getBody(r.ContentLength)
	defer s.bodyPool.Put(bp)
	body, err := readAll((*bp)[:0], r.Body)
	*bp = body[:0]
	if err != nil {
		err = fmt.Errorf("reading request body: %w", err)
	} else {
		select {
		case s.decoding <- struct{}{}:
		case <-r.Context().Done():
			return false
		}
		err = parse(body)
		<-s.decoding
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error(), "BadRequestError", "")
		return false
	}
	return true
}

// getBody returns a pooled buffer for a request body of n bytes (-1:
// unknown). The protocols' request parsers copy what they keep, so the
// buffer goes back to the pool once the body is parsed.
func (s *Server) getBody(n int64) *[]byte {
	bp := s.bodyPool.Get().(*[]byte)
	if n > 0 && int64(cap(*bp)) < n+1 && n < 1<<30 {
		*bp = make([]byte, 0, n+1)
	}
	return bp
}

// readAll is io.ReadAll into dst's spare capacity, growing it only when
// the body is longer than expected.
func readAll(dst []byte, r io.Reader) ([]byte, error) {
	for {
		if len(dst) == cap(dst) {
			dst = append(dst, 0)[:len(dst)]
		}
		n, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
	}
}

// nextID returns a fresh request-ID suffix source.
func (s *Server) nextID() uint64 {
	return s.idCounter.Add(1) ^ uint64(s.cfg.Seed)<<32
}

// writeError writes vLLM's (v0.12) error shape:
// {"error": {"message", "type", "param", "code"}}.
func writeError(w http.ResponseWriter, code int, msg, typ, param string) {
	if typ == "" {
		typ = http.StatusText(code)
	}
	var b []byte
	b = append(b, `{"error":{"message":`...)
	b = appendJSONString(b, msg)
	b = append(b, `,"type":`...)
	b = appendJSONString(b, typ)
	b = append(b, `,"param":`...)
	if param == "" {
		b = append(b, "null"...)
	} else {
		b = appendJSONString(b, param)
	}
	b = append(b, `,"code":`...)
	b = appendInt(b, code)
	b = append(b, "}}"...)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(b)
}

// handleModels lists the served model like vLLM's /v1/models.
func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	var b []byte
	b = append(b, `{"object":"list","data":[{"id":`...)
	b = appendJSONString(b, s.cfg.Model)
	b = append(b, `,"object":"model","created":`...)
	b = appendInt(b, int(time.Now().Unix()))
	b = append(b, `,"owned_by":"vllm","root":`...)
	b = appendJSONString(b, s.cfg.Model)
	b = append(b, `,"parent":null,"max_model_len":`...)
	b = appendInt(b, maxModelLen)
	b = append(b, `,"permission":[]}]}`...)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}
