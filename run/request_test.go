package run

import (
	"strings"
	"testing"

	"github.com/mlperf-go/mlperf-go/engine"
)

// TestLaunchRequest: no --launch and no engine flag starts nothing; an
// engine flag without an engine, or --endpoint beside one, is refused
// naming the flag; the flags override the config, and port 0 picks a free
// one.
func TestLaunchRequest(t *testing.T) {
	t.Parallel()
	if l, err := (LaunchRequest{}).Launch(); l != nil || err != nil {
		t.Errorf("no engine: %+v, %v", l, err)
	}
	vllm, model, zero := string(engine.VLLM), "m", 0
	for _, tc := range []struct {
		r    LaunchRequest
		want string
	}{
		{LaunchRequest{Given: []string{"engine-host", "engine-log"}}, "--engine-host needs an engine to launch"},
		{LaunchRequest{Kind: &vllm, EndpointGiven: true}, "--endpoint with a launched engine"},
		{LaunchRequest{Kind: new("tgi")}, "--launch"},
	} {
		if _, err := tc.r.Launch(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error with %q", tc.r, err, tc.want)
		}
	}
	l, err := LaunchRequest{Kind: &vllm, Model: &model, Port: &zero, Args: []string{"--x"}, LogPath: "e.log"}.Launch()
	if err != nil || l.Spec.Kind != engine.VLLM || l.Spec.Model != "m" || l.Spec.Port != engine.FreePort || len(l.Spec.Args) != 1 || l.LogPath != "e.log" {
		t.Errorf("vllm launch: %+v, %v", l, err)
	}
}
