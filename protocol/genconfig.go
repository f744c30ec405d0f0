package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
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
