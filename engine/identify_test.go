package engine

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestIdentify: vLLM's /version and SGLang's /get_server_info (shaped as
// those servers answer: vLLM {"version": …}, SGLang its server arguments
// with "version") name the engine and its version, through an endpoint URL
// with or without /v1; a server with neither route, or one whose route
// answers without a version, names none. The real vLLM is asked in
// cmd/mlperf-go's TestVLLM.
func TestIdentify(t *testing.T) {
	t.Parallel()
	serve := func(routes map[string]string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, ok := routes[r.URL.Path]
			if !ok {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(body)) //nolint:errcheck // the client sees a cut answer
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	vllm := serve(map[string]string{"/version": `{"version":"0.32.0+cpu"}`})
	sglang := serve(map[string]string{"/get_server_info": `{"model_path":"m","tp_size":8,"version":"0.5.6"}`, "/version": `{"version":"0.5.6"}`})
	none := serve(nil)
	noVersion := serve(map[string]string{"/version": `{"commit":"abc"}`})
	client := &http.Client{Timeout: 5 * time.Second}
	for _, tc := range []struct {
		endpoint string
		want     string
	}{
		{vllm, "vLLM 0.32.0+cpu"},
		{vllm + "/v1", "vLLM 0.32.0+cpu"},
		{sglang, "SGLang 0.5.6"},
		{none, ""},
		{noVersion, ""},
	} {
		s, ok := Identify(context.Background(), client, tc.endpoint, "")
		if s.String() != tc.want || ok != (tc.want != "") {
			t.Errorf("Identify(%s) = %q, %v; want %q", tc.endpoint, s, ok, tc.want)
		}
	}
}
