package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
)

// SchemaVersion names the results.json layout (docs/bench-results-schema.md).
const SchemaVersion = "mlperf-go-bench/1"

// Results is what a benchmark found: results.json.
type Results struct {
	Schema   string    `json:"schema"`
	Created  time.Time `json:"created"`
	Version  string    `json:"version,omitempty"`
	Command  []string  `json:"command,omitempty"`
	Workload *Workload `json:"workload"`
	// Requests and Conversations count the workload's requests (turns) and
	// conversations.
	Requests      int      `json:"requests"`
	Conversations int      `json:"conversations"`
	API           string   `json:"api"`
	Model         string   `json:"model,omitempty"`
	Stream        bool     `json:"stream"`
	ExactOutput   bool     `json:"exact_output"`
	Warmup        int      `json:"warmup"`
	SLO           *SLOms   `json:"slo_ms,omitempty"`
	Targets       []Target `json:"targets"`
	// Percentiles are those every latency reports; Loads the sweep
	// asked for.
	Percentiles []float64 `json:"percentiles,omitempty"`
	Loads       []Load    `json:"loads,omitempty"`
	// Host is the machine that sent the requests (absent in a merge of
	// several, whose Hosts list them); Shard, when set, the part of the
	// workload it sent.
	Host  string `json:"host,omitempty"`
	Shard *Shard `json:"shard,omitempty"`
	// Hosts are the hosts whose results were merged into these (bench
	// merge; absent otherwise).
	Hosts []HostInfo `json:"hosts,omitempty"`
	// Runs has one entry per load point and target, load-major.
	Runs []RunResult `json:"runs"`
	// Interrupted is set when the sweep was stopped before its last load
	// point: Runs are the points that finished.
	Interrupted bool `json:"interrupted,omitempty"`
}

// SLOms are the goodput objectives in milliseconds.
type SLOms struct {
	TTFT float64 `json:"ttft,omitempty"`
	TPOT float64 `json:"tpot,omitempty"`
	E2EL float64 `json:"e2el,omitempty"`
}

// String is the objectives as --slo takes them ("ttft=500ms,tpot=50ms"),
// so a reader sees what goodput was measured against.
func (s *SLOms) String() string {
	var parts []string
	for _, o := range []struct {
		name string
		ms   float64
	}{{"ttft", s.TTFT}, {"tpot", s.TPOT}, {"e2el", s.E2EL}} {
		if o.ms > 0 {
			parts = append(parts, o.name+"="+time.Duration(o.ms*float64(time.Millisecond)).String())
		}
	}
	return strings.Join(parts, ",")
}

// RunResult is one target at one load point.
type RunResult struct {
	Target string `json:"target"`
	Load   Load   `json:"load"`
	// Label is the load point's name (Load.String).
	Label string `json:"label"`
	// Sent, Completed and Failed count requests; Skipped are later turns
	// of conversations whose earlier turn failed (they carry the model's
	// reply, which never came).
	Sent      int `json:"sent"`
	Completed int `json:"completed"`
	Failed    int `json:"failed"`
	Skipped   int `json:"skipped"`
	// StartUnixNs is when the run started sending (the wall clock, in
	// nanoseconds since the Unix epoch): the records' times count from
	// it. DurationS is from then to the last answer.
	StartUnixNs int64   `json:"start_unix_ns,omitempty"`
	DurationS   float64 `json:"duration_s"`
	// RequestThroughput is completed requests per second (DashInfer's
	// QPS), RequestGoodput those meeting every SLO.
	RequestThroughput float64 `json:"request_throughput"`
	RequestGoodput    float64 `json:"request_goodput,omitempty"`
	// OutputThroughput and TotalTokenThroughput are tokens per second:
	// output, and prompt plus output.
	OutputThroughput     float64 `json:"output_throughput"`
	TotalTokenThroughput float64 `json:"total_token_throughput"`
	// PromptTokens and OutputTokens are over completed requests, from the
	// server's usage; MeanPromptTokens and MeanOutputTokens their means.
	PromptTokens     int64   `json:"prompt_tokens"`
	OutputTokens     int64   `json:"output_tokens"`
	MeanPromptTokens float64 `json:"mean_prompt_tokens"`
	MeanOutputTokens float64 `json:"mean_output_tokens"`
	MeanImages       float64 `json:"mean_images"`
	// MaxConcurrent is the most requests in flight at once, from when
	// each was sent to when it ended.
	MaxConcurrent int `json:"max_concurrent"`
	// TTFT, TPOT, ITL and E2EL are in milliseconds, as vllm bench serve
	// computes them: TPOT = (E2EL - TTFT) / (output tokens - 1) for
	// answers of more than one token, ITL the gaps between the events
	// that carry output.
	TTFT Dist `json:"ttft_ms"`
	TPOT Dist `json:"tpot_ms"`
	ITL  Dist `json:"itl_ms"`
	E2EL Dist `json:"e2el_ms"`
	// ReasoningTokens are the completed requests' reasoning tokens, part
	// of OutputTokens: the usage's count (completion_tokens_details.
	// reasoning_tokens; SGLang's meta_info.reasoning_tokens), else one
	// for each streamed event that carried reasoning (vLLM streams a
	// token an event). ReasoningRequests counts the requests that
	// reasoned; ReasoningUncounted those whose reasoning came whole
	// without a count (not streamed), which count none.
	ReasoningTokens     int64   `json:"reasoning_tokens,omitempty"`
	MeanReasoningTokens float64 `json:"mean_reasoning_tokens,omitempty"`
	ReasoningRequests   int     `json:"reasoning_requests,omitempty"`
	ReasoningUncounted  int     `json:"reasoning_uncounted,omitempty"`
	// TTFAT is the time to the first answer token, past the reasoning;
	// ReasoningTPOT the time per reasoning token after the first
	// ((last reasoning event - first event) / (reasoning tokens - 1)) and
	// AnswerTPOT per answer token after the first ((E2EL - TTFAT) /
	// (answer tokens - 1)). Set when some request reasoned; TTFAT and
	// AnswerTPOT leave out the requests whose protocol does not tell the
	// answer apart (SGLang's /generate text).
	TTFAT         *Dist `json:"ttfat_ms,omitempty"`
	ReasoningTPOT *Dist `json:"reasoning_tpot_ms,omitempty"`
	AnswerTPOT    *Dist `json:"answer_tpot_ms,omitempty"`
	// Endpoints break the figures down by the target's endpoint, over
	// the run's window, when it has several URLs; Hosts by host, each
	// over its own window, in a merge.
	Endpoints []Part `json:"endpoints,omitempty"`
	Hosts     []Part `json:"hosts,omitempty"`
	// PrefixCache is the prefix-cache hit rate the engine's counters say
	// and the one the workload implies (nil when the workload repeats
	// nothing and the engine counts no cache).
	PrefixCache *CacheResult `json:"prefix_cache,omitempty"`
	// Failures counts failed requests by reason (sut's Reason*).
	Failures map[string]int `json:"failures,omitempty"`
	// RequestsFile is the per-request JSONL, relative to results.json.
	RequestsFile string `json:"requests_file,omitempty"`
}

// Record is one request: a line of a run's requests JSONL.
type Record struct {
	Conversation string  `json:"conversation"`
	Turn         int     `json:"turn"`
	SentS        float64 `json:"sent_s"`
	OK           bool    `json:"ok"`
	Error        string  `json:"error,omitempty"`
	Reason       string  `json:"reason,omitempty"`
	PromptTokens int     `json:"prompt_tokens"`
	OutputTokens int64   `json:"output_tokens"`
	MaxTokens    int     `json:"max_tokens,omitempty"`
	Images       int     `json:"images,omitempty"`
	TTFTms       float64 `json:"ttft_ms,omitempty"`
	TPOTms       float64 `json:"tpot_ms,omitempty"`
	E2ELms       float64 `json:"e2el_ms"`
	// ITLms are the gaps between output events.
	ITLms []float64 `json:"itl_ms,omitempty"`
	// ReasoningTokens are the answer's reasoning tokens (RunResult's);
	// TTFATms, ReasoningTPOTms and AnswerTPOTms its time to the first
	// answer token and times per reasoning and answer token (absent when
	// it did not reason or they are unknown).
	ReasoningTokens int64   `json:"reasoning_tokens,omitempty"`
	TTFATms         float64 `json:"ttfat_ms,omitempty"`
	ReasoningTPOTms float64 `json:"reasoning_tpot_ms,omitempty"`
	AnswerTPOTms    float64 `json:"answer_tpot_ms,omitempty"`
	// PrefixGroup and PrefixShare are the turn's shared prefix and the
	// fraction of its prompt that is (Turn.PrefixGroup, Turn.PrefixShare).
	PrefixGroup string  `json:"prefix_group,omitempty"`
	PrefixShare float64 `json:"prefix_share,omitempty"`
	// Reasoned is set when the answer carried reasoning (counted in
	// ReasoningTokens, or not, when not streamed without a count).
	Reasoned bool `json:"reasoned,omitempty"`
	// Endpoint is the URL the request went to (absent: never sent); EndS
	// when its answer ended, or it failed, from the run's start.
	Endpoint string  `json:"endpoint,omitempty"`
	EndS     float64 `json:"end_s,omitempty"`
	// Host is the host that sent it, in a merge.
	Host string `json:"host,omitempty"`
}

// WriteFiles writes results.json and each run's requests JSONL into dir.
func WriteFiles(dir string, res *Results, records [][]Record) error {
	if err := dirwalk.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	taken := map[string]bool{}
	for i := range res.Runs {
		name := requestsFileName(res.Runs[i].Target, res.Runs[i].Label, taken)
		res.Runs[i].RequestsFile = name
		if err := writeJSONL(filepath.Join(dir, name), records[i]); err != nil {
			return err
		}
	}
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "results.json"), append(b, '\n'), 0o644)
}

// requestsFileName names a run's requests JSONL, requests-TARGET-LOAD.jsonl,
// with every character outside [A-Za-z0-9._-] of the target and load
// replaced by "_": a target named after its host carries a colon
// (127.0.0.1:8000), which Windows and SMB shares refuse, and a load point
// a space ("every 100ms"). Two runs whose names become the same (targets
// "a:b" and "a_b") get "-2", "-3", … in the order of the runs, so the
// names are the same each time the results are saved. Readers take the
// name from results.json's requests_file, so results saved before keep
// reading.
func requestsFileName(target, label string, taken map[string]bool) string {
	safe := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r < 0x80 && (r == '.' || r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
				return r
			}
			return '_'
		}, s)
	}
	base := "requests-" + safe(target) + "-" + safe(label)
	name := base + ".jsonl"
	for k := 2; taken[name]; k++ {
		name = fmt.Sprintf("%s-%d.jsonl", base, k)
	}
	taken[name] = true
	return name
}

func writeJSONL(path string, recs []Record) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for i := range recs {
		if err := enc.Encode(&recs[i]); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// ReadResults reads a results.json written by WriteFiles (or the folder
// holding one).
func ReadResults(path string) (*Results, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "results.json")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Results
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if r.Schema != SchemaVersion {
		return nil, fmt.Errorf("%s: schema %q, want %q (a results.json of mlperf-go bench)", path, r.Schema, SchemaVersion)
	}
	return &r, nil
}
