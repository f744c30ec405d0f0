package run

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mlperf-go/mlperf-go/benchmarks/qwen3vl"
	"github.com/mlperf-go/mlperf-go/internal/round"
	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/loadgen/loadgentest"
)

// TestQ3VLRoundBodies runs an Offline accuracy test per round against a
// loopback server that records every body, and checks that the bodies are
// the round's: v6.1's (the default) exactly as qwen3vl.RequestV61 encodes
// them, v6.0's with the LoadGen harness's system prompt and no
// max_completion_tokens.
func TestQ3VLRoundBodies(t *testing.T) {
	loadgentest.Require(t)
	const n = 6
	d, _ := q3vlFixture(t, n)
	for _, name := range []string{"", round.V61, round.V60} {
		t.Run("round="+name, func(t *testing.T) {
			var mu sync.Mutex
			var bodies []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				if r.Method == http.MethodPost { // not the GETs asking which engine it is
					mu.Lock()
					bodies = append(bodies, string(b))
					mu.Unlock()
				}
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"{}"}}],"usage":{"completion_tokens":1}}`)
			}))
			defer srv.Close()
			model := mustBenchmark(t, "qwen3-vl-235b-a22b").Serving.Model
			_, err := Run(context.Background(), Options{
				Benchmark: mustBenchmark(t, "qwen3-vl-235b-a22b"),
				Scenario:  loadgen.Offline, Mode: loadgen.AccuracyOnly,
				Data: d, Endpoints: []string{srv.URL}, OutputDir: t.TempDir(), Settings: quick,
				Round: name,
				// The server answers every path with a completion: it has
				// no /health or /v1/models.
				SkipPreflight: true,
			})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if len(bodies) != n {
				t.Fatalf("server saw %d requests, want %d", len(bodies), n)
			}
			want := map[string]bool{}
			for i := range n {
				if name == round.V60 {
					continue
				}
				img := readImage(t, d, i)
				b, err := qwen3vl.RequestV61{Model: model, Params: qwen3vl.DefaultParamsV61()}.AppendBody(nil, d.UserTextV61(i), img.format, img.bytes)
				if err != nil {
					t.Fatal(err)
				}
				want[string(b)] = true
			}
			for _, b := range bodies {
				switch name {
				case round.V60:
					if !strings.Contains(b, "specifc") || strings.Contains(b, "max_completion_tokens") || !strings.HasPrefix(b, `{"messages":`) {
						t.Errorf("v6.0 body is not the LoadGen harness's: %.200s", b)
					}
				default:
					if !want[b] {
						t.Errorf("v6.1 body is not one qwen3vl.RequestV61 encodes for the dataset: %.200s", b)
					}
				}
			}
		})
	}
}

type q3vlImage struct {
	format string
	bytes  []byte
}

// readImage gets sample i's image back out of the messages the dataset builds.
func readImage(t *testing.T, d *qwen3vl.Dataset, i int) q3vlImage {
	t.Helper()
	msgs, err := d.Messages(i)
	if err != nil {
		t.Fatal(err)
	}
	url := msgs[1].OfUser.Content.OfArrayOfContentParts[1].OfImageURL.ImageURL.URL
	format, b64, ok := strings.Cut(strings.TrimPrefix(url, "data:image/"), ";base64,")
	if !ok {
		t.Fatalf("image URL %.40q", url)
	}
	img, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	return q3vlImage{format, img}
}
