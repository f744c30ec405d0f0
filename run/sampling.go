package run

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/protocol"
)

// SetSampling sets o.Sampling, the sampling parameters of the endpoint API
// in use, in three layers, each over the one before: the benchmark's
// reference defaults for that API (Benchmark.DefaultSampling), then the
// generation-config file configFile ("" for none: its top level, then its
// "accuracy" or "performance" object for o.Mode, so one file holds both
// sets), then overrides (flag values by wire name; "max_tokens" is the
// API's own output cap, e.g. SGLang's "max_new_tokens"). Every layer goes
// through protocol.DecodeGenerationConfig and its checks, so a key the API
// does not take is an error naming it.
func (o *Options) SetSampling(configFile string, overrides map[string]any) error {
	o.Sampling = nil
	target, err := o.SamplingParams()
	if err != nil {
		return err
	}
	if configFile != "" {
		if err := loadGenerationConfig(configFile, o.Mode, target); err != nil {
			return err
		}
	}
	if len(overrides) > 0 {
		layer := make(map[string]any, len(overrides))
		for k, v := range overrides {
			if k == "max_tokens" {
				k = target.MaxTokensKey()
			}
			layer[k] = v
		}
		b, err := json.Marshal(layer)
		if err != nil {
			return err
		}
		if err := protocol.DecodeGenerationConfig(b, target); err != nil {
			return fmt.Errorf("sampling flags: %w", err)
		}
	}
	o.Sampling = target
	return nil
}

// SamplingParams returns the sampling parameters requests carry:
// o.Sampling, or else the benchmark's defaults for the endpoint API (a
// fresh value).
func (o Options) SamplingParams() (protocol.Params, error) {
	if o.Sampling != nil {
		return o.Sampling, nil
	}
	return o.Benchmark.DefaultSampling(o.EndpointAPI())
}

// SamplingRecord returns the sampling parameters requests carry as the
// wire-name map they are sent as (for run records; nil if they cannot be
// had).
func (o Options) SamplingRecord() map[string]any {
	params, err := o.SamplingParams()
	if err != nil {
		return nil
	}
	var m map[string]any
	if b, err := json.Marshal(params); err == nil {
		_ = json.Unmarshal(b, &m)
	}
	return m
}

// RequestReference names the reference whose requests the run sends, where
// the benchmark's round decides it (Serving.Requests), for the run record
// and the submission README; "" otherwise.
func (o Options) RequestReference() string {
	if o.Benchmark.Serving.Requests == nil {
		return ""
	}
	ref, err := o.Benchmark.Serving.Requests(o.EndpointAPI(), o.Round)
	if err != nil {
		return ""
	}
	return ref
}

// loadGenerationConfig applies a generation-config file: its top-level keys,
// then the object under "accuracy" or "performance" matching mode, so one
// file can hold both parameter sets.
func loadGenerationConfig(path string, mode loadgen.Mode, target protocol.Params) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("--generation-config: %w", err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("--generation-config %s: not a JSON object: %w", path, err)
	}
	sections := map[string]json.RawMessage{}
	for _, k := range []string{"accuracy", "performance"} {
		if v, ok := doc[k]; ok {
			sections[k] = v
			delete(doc, k)
		}
	}
	base, _ := json.Marshal(doc)
	if err := protocol.DecodeGenerationConfig(base, target); err != nil {
		return fmt.Errorf("--generation-config %s: %w", path, err)
	}
	key := "performance"
	if mode == loadgen.AccuracyOnly {
		key = "accuracy"
	}
	if v, ok := sections[key]; ok {
		if err := protocol.DecodeGenerationConfig(v, target); err != nil {
			return fmt.Errorf("--generation-config %s, %q section: %w", path, key, err)
		}
	}
	return nil
}
