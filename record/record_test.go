package record

import "testing"

// TestEngineName: the README names what the user declared, unless that is
// only the launched engine's kind and the endpoints said more.
func TestEngineName(t *testing.T) {
	for _, tc := range []struct {
		declared string
		served   []string
		want     string
	}{
		{"", nil, ""},
		{"", []string{"vLLM 0.32.0"}, "vLLM 0.32.0"},
		{"vllm", []string{"vLLM 0.32.0"}, "vLLM 0.32.0"},
		{"sglang", []string{"SGLang 0.5.6"}, "SGLang 0.5.6"},
		{"vllm", nil, "vllm"},
		{"vLLM 0.12.0 (patched)", []string{"vLLM 0.12.0"}, "vLLM 0.12.0 (patched)"},
		{"", []string{"vLLM 0.32.0", "SGLang 0.5.6"}, "vLLM 0.32.0, SGLang 0.5.6"},
	} {
		if got := (Run{Engine: tc.declared, EngineServed: tc.served}).EngineName(); got != tc.want {
			t.Errorf("declared %q, served %q: EngineName %q, want %q", tc.declared, tc.served, got, tc.want)
		}
	}
}
