package engine

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// keyedServer answers like a gateway that wants the key on every route
// (LiteLLM's proxy with a master key): 401 without it.
func keyedServer(t *testing.T, key string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+key {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":{"message":"Authentication Error, No api key passed in."}}`)
			return
		}
		switch r.URL.Path {
		case "/health":
			w.WriteHeader(http.StatusOK)
		case "/v1/models":
			io.WriteString(w, `{"object":"list","data":[{"id":"m1","object":"model"}]}`)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestCheckServesSendsTheKey: the preflight passes with the key and names an
// authentication problem without it, or with a wrong one.
func TestCheckServesSendsTheKey(t *testing.T) {
	t.Parallel()
	srv := keyedServer(t, "k1")
	client := &http.Client{Timeout: 5 * time.Second}
	if err := CheckServes(context.Background(), client, srv.URL+"/v1", "m1", "k1"); err != nil {
		t.Fatalf("with the key: %v", err)
	}
	for _, key := range []string{"", "wrong"} {
		err := CheckServes(context.Background(), client, srv.URL+"/v1", "m1", key)
		if !errors.Is(err, ErrAuth) || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
			t.Errorf("key %q: %v, want an authentication error naming 401 and how to set the key", key, err)
		}
		if key != "" && strings.Contains(err.Error(), key) {
			t.Errorf("the error prints the key: %v", err)
		}
	}
}

// TestWaitReadyStopsOnAuth: waiting cannot make a refused key valid, so
// WaitReady returns at once with the authentication error.
func TestWaitReadyStopsOnAuth(t *testing.T) {
	t.Parallel()
	srv := keyedServer(t, "k1")
	err := WaitReady(context.Background(), srv.URL, "m1", ReadyOptions{Timeout: 30 * time.Second, Poll: 10 * time.Millisecond})
	if !errors.Is(err, ErrAuth) {
		t.Fatalf("WaitReady without the key: %v, want ErrAuth", err)
	}
	if err := WaitReady(context.Background(), srv.URL, "m1", ReadyOptions{Timeout: 30 * time.Second, Poll: 10 * time.Millisecond, APIKey: "k1"}); err != nil {
		t.Fatalf("WaitReady with the key: %v", err)
	}
}

// TestWaitReadyHidesQueryKey: the progress lines and the timeout error of
// a wait on an endpoint whose key is in its query name the endpoint
// without the key.
func TestWaitReadyHidesQueryKey(t *testing.T) {
	t.Parallel()
	const secret = "S3cretQ"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("api_key") != secret {
			t.Errorf("%s arrived without its key", r.URL)
		}
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	var progress strings.Builder
	err := WaitReady(context.Background(), srv.URL+"/v1?api_key="+secret, "m", ReadyOptions{
		Timeout: 300 * time.Millisecond, Poll: 20 * time.Millisecond, Progress: &progress, ProgressEvery: time.Nanosecond})
	if err == nil {
		t.Fatal("WaitReady passed on a server answering 503")
	}
	for what, s := range map[string]string{"progress": progress.String(), "error": err.Error()} {
		if strings.Contains(s, secret) || !strings.Contains(s, "api_key=REDACTED") {
			t.Errorf("%s %q: want the endpoint named without its key", what, s)
		}
	}
}
