package qwen36

import (
	"github.com/mlperf-go/mlperf-go/download"
	"github.com/mlperf-go/mlperf-go/internal/round"
)

// wheelPin is the accuracy set's source: the bfcl-eval 2026.3.23 wheel on
// PyPI, which endpoints installs with its bfcl extra (pyproject.toml) and
// reads the BFCL v4 data files from; Open reads the wheel as it is. Its
// name and sha256 are bfcl_pins.json's (the wheel `pip download --no-deps
// bfcl-eval==2026.3.23` fetches; PyPI's JSON API lists the same sha256).
//
// No tokenizer is pinned: the evaluator (endpoints' BFCLv4Scorer) compares
// parsed tool calls and counts no tokens. The reference's config names
// Qwen/Qwen3.6-27B as tokenizer_name only for its client-side ISL/OSL/TPOT
// metrics, at no revision.
var wheelPin = download.Pin{
	Role: download.RoleDataset, Dir: "dataset",
	Ref:  "mlcommons/endpoints pyproject.toml:163 (bfcl extra: bfcl-eval==" + bfclVersion + ") @ ea33275, read by examples/11_Edge_Agentic_Example/online_edge_full_run.yaml's bfcl_v4::function_calling",
	PyPI: &download.PyPI{Project: "bfcl-eval", Version: bfclVersion, File: bfclPins.Wheel, SHA256: bfclPins.WheelSHA256},
	Open: []string{bfclPins.Wheel},
}

// downloads are the files `mlperf-go dataset download -b qwen3.6-27b`
// fetches (v6.1 only: the benchmark is new in v6.1).
var downloads = map[string][]download.Pin{round.V61: {wheelPin}}
