// Package test06 holds what the token-ID LLM benchmarks (llama2-70b,
// llama3.1-8b, deepseek-r1) register for compliance TEST06, which checks
// their accuracy logs' first tokens, EOS and sample lengths: the
// reference's audit.config, one file for all of them.
package test06

import (
	_ "embed" // the audit.config

	"github.com/mlperf-go/mlperf-go/benchmark"
)

// auditConfig is a byte-for-byte copy of the reference's configuration
// data: mlcommons/inference compliance/TEST06/audit.config (blob 090ec03b
// at b66003e1). Its readers only read it, so the benchmarks share it.
//
//go:embed audit.config
var auditConfig []byte

// Compliance returns a benchmark's TEST06 entry (benchmark.Benchmark's
// Compliance["TEST06"]) for a model whose end of an answer is token eos,
// which TEST06's EOS check looks for.
func Compliance(eos int64) benchmark.Compliance {
	return benchmark.Compliance{AuditConfig: auditConfig, EOSTokenID: eos}
}
