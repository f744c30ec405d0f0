package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
)

// DecodeGenerationConfig fills params (a protocol's Params, usually
// pre-set to its defaults) from a generation-config JSON document. As in
// the reference's load_generation_config
// (language/gpt-oss-120b/run_mlperf.py), top-level keys starting with "_"
// are comments and are dropped; any other unknown key is an error, so a
// typo does not silently leave a default in place. Keys present override
// the value in params; keys absent leave it.
func DecodeGenerationConfig(data []byte, params Params) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return fmt.Errorf("generation config: not a JSON object: %w", err)
	}
	for k := range top {
		if strings.HasPrefix(k, "_") {
			delete(top, k)
		}
	}
	clean, err := json.Marshal(top)
	if err != nil {
		return fmt.Errorf("generation config: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(clean))
	dec.DisallowUnknownFields()
	if err := dec.Decode(params); err != nil {
		return fmt.Errorf("generation config: %w (keys are the request's wire names, e.g. temperature, top_p, %s)", err, params.MaxTokensKey())
	}
	return nil
}

// LoadGenerationConfig reads a generation-config file into params; see
// DecodeGenerationConfig.
func LoadGenerationConfig(path string, params Params) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("generation config: %w", err)
	}
	if err := DecodeGenerationConfig(data, params); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// CloneParams returns a copy of params that shares nothing with it (a
// round trip through the wire names), so one request can carry other
// values than the rest without changing theirs.
func CloneParams(params Params) (Params, error) {
	b, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("sampling parameters: %w", err)
	}
	clone, ok := reflect.New(reflect.TypeOf(params).Elem()).Interface().(Params)
	if !ok {
		return nil, fmt.Errorf("sampling parameters of type %T are not a pointer to a protocol's Params", params)
	}
	if err := json.Unmarshal(b, clone); err != nil {
		return nil, fmt.Errorf("sampling parameters: %w", err)
	}
	return clone, nil
}

// MinTokensKeyer is Params whose API takes a minimum answer length
// (vLLM's and SGLang's extension), under the wire name it returns.
type MinTokensKeyer interface {
	MinTokensKey() string
}

// EOSIgnorer is Params whose API's ignore_eos alone makes an answer run
// to its cap: it skips every stop token, so an exact length needs no
// minimum length as well.
type EOSIgnorer interface {
	IgnoreEOSSkipsEveryStopToken()
}

// SetOutputLength sets params' output cap to maxTokens. With exact, every
// answer is made exactly that long, as the serving benchmarks' fixed
// output lengths are (ignore_eos, and the minimum length where the API
// has one and its ignore_eos alone does not do it); without it, a minimum
// length already set above maxTokens is lowered to it, so the request
// stays one the server accepts.
func SetOutputLength(params Params, maxTokens int, exact bool) error {
	set := map[string]any{params.MaxTokensKey(): maxTokens}
	_, eosIgnorer := params.(EOSIgnorer)
	if mk, ok := params.(MinTokensKeyer); ok {
		if exact && !eosIgnorer {
			set[mk.MinTokensKey()] = maxTokens
		} else if floor, ok := wireInt(params, mk.MinTokensKey()); ok && floor > maxTokens {
			set[mk.MinTokensKey()] = maxTokens
		}
	}
	if exact {
		set["ignore_eos"] = true
	}
	js, err := json.Marshal(set)
	if err != nil {
		return err
	}
	return DecodeGenerationConfig(js, params)
}

// wireInt is the integer params send under key, if they send one.
func wireInt(params Params, key string) (int, bool) {
	b, err := json.Marshal(params)
	if err != nil {
		return 0, false
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return 0, false
	}
	f, ok := m[key].(float64)
	return int(f), ok
}
