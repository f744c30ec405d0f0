package filing

import "testing"

// TestFiled tells filed runs from run folders by their place alone.
func TestFiled(t *testing.T) {
	for dir, want := range map[string]bool{
		"r/sys/llama3.1-8b/Offline/accuracy":                 true,
		"r/sys/llama3.1-8b/Server/performance/run_1":         true,
		"r/sys/llama3.1-8b/Server/TEST06/accuracy":           true,
		"r/sys/llama3.1-8b/Server/TEST06/performance/run_1":  true,
		"r/sys/llama3.1-8b/offline/accuracy":                 false, // not spelled as filed
		"runs/llama3_1-8b/Offline-accuracy/20261128T100000Z": false,
		"out/accuracy":                              false,
		"r/sys/no-such-bench/Offline/accuracy":      false,
		"r/sys/llama3.1-8b/Offline/run_1":           false,
		"r/sys/llama3.1-8b/Offline/TEST99/accuracy": false,
	} {
		if got := Filed(dir); got != want {
			t.Errorf("Filed(%s) = %v, want %v", dir, got, want)
		}
	}
}
