package runner

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/sut"
)

// SetSampling sets the sampling parameters of the endpoint API in use
// (o.Chat, o.Completion or o.SGLang) in three layers, each over the one
// before: the benchmark's reference defaults for that API
// (Benchmark.Sampling), then the generation-config file configFile ("" for
// none: its top level, then its "accuracy" or "performance" object for
// o.Mode, so one file holds both sets), then overrides (flag values by wire
// name; "max_tokens" is SGLang's "max_new_tokens"). Every layer goes
// through sut.DecodeGenerationConfig and its checks, so a key the API does
// not take is an error naming it.
func (o *Options) SetSampling(configFile string, overrides map[string]any) error {
	api := o.EndpointAPI()
	o.Chat, o.Completion, o.SGLang = sut.ChatParams{}, sut.CompletionParams{}, sut.SGLangParams{}
	var target any
	switch api {
	case sut.APIChat:
		target = &o.Chat
	case sut.APICompletions:
		target = &o.Completion
	default:
		target = &o.SGLang
	}
	if def, ok := o.Benchmark.Sampling[api]; ok {
		if err := sut.DecodeGenerationConfig(def, target); err != nil {
			return fmt.Errorf("%s's default sampling for %s: %w", o.Benchmark.Name, api, err)
		}
	}
	if configFile != "" {
		if err := loadGenerationConfig(configFile, o.Mode, target); err != nil {
			return err
		}
	}
	if len(overrides) == 0 {
		return nil
	}
	layer := make(map[string]any, len(overrides))
	for k, v := range overrides {
		if api == sut.APISGLang && k == "max_tokens" {
			k = "max_new_tokens"
		}
		layer[k] = v
	}
	b, err := json.Marshal(layer)
	if err != nil {
		return err
	}
	if err := sut.DecodeGenerationConfig(b, target); err != nil {
		return fmt.Errorf("sampling flags: %w", err)
	}
	return nil
}

// SamplingParams returns the sampling parameters of the API in use as the
// wire-name map requests carry (for run records).
func (o Options) SamplingParams() map[string]any {
	var params any = o.SGLang
	switch o.EndpointAPI() {
	case sut.APIChat:
		params = o.Chat
	case sut.APICompletions:
		params = o.Completion
	}
	var m map[string]any
	if b, err := json.Marshal(params); err == nil {
		_ = json.Unmarshal(b, &m)
	}
	return m
}

// loadGenerationConfig applies a generation-config file: its top-level keys,
// then the object under "accuracy" or "performance" matching mode, so one
// file can hold both parameter sets.
func loadGenerationConfig(path string, mode loadgen.Mode, target any) error {
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
	if err := sut.DecodeGenerationConfig(base, target); err != nil {
		return fmt.Errorf("--generation-config %s: %w", path, err)
	}
	key := "performance"
	if mode == loadgen.AccuracyOnly {
		key = "accuracy"
	}
	if v, ok := sections[key]; ok {
		if err := sut.DecodeGenerationConfig(v, target); err != nil {
			return fmt.Errorf("--generation-config %s, %q section: %w", path, key, err)
		}
	}
	return nil
}
