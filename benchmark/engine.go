package benchmark

import (
	"fmt"

	"github.com/mlperf-go/mlperf-go/engine"
)

// engineRulesAll are the MLPerf Inference rules for the flags of every
// launched engine, whatever the benchmark: no reuse of cached prefixes
// across samples. Required flags are added, forbidden ones refused.
var engineRulesAll = map[engine.Kind]engine.Rules{
	engine.VLLM:   {Require: []string{"--no-enable-prefix-caching"}, Forbid: []string{"--enable-prefix-caching"}},
	engine.SGLang: {Require: []string{"--disable-radix-cache"}},
}

// EngineRulesFor returns the rules for running b on an engine of kind:
// those of every benchmark, then b's own (EngineRules).
func (b Benchmark) EngineRulesFor(kind engine.Kind) engine.Rules {
	r := engineRulesAll[kind].Merge(b.Serving.EngineRules[kind])
	r.Why = fmt.Sprintf("the MLPerf Inference rules for %s on %s", b.Name, kind)
	return r
}
