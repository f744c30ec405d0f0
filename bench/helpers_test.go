package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mlperf-go/mlperf-go/fake"
	"github.com/mlperf-go/mlperf-go/fake/faketest"
	"github.com/mlperf-go/mlperf-go/protocol"
)

// seen is what a fake endpoint was asked, request by request.
type seen struct {
	mu   sync.Mutex
	reqs []seenReq
}

type seenReq struct {
	session             string
	msgs                []protocol.Message
	max, min            int
	ignoreEOS           bool
	tokens, cached, pTk int
}

func (s *seen) hook(ri fake.RequestInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, seenReq{session: ri.Session, msgs: append([]protocol.Message(nil), ri.Ask.Messages...),
		max: ri.Ask.MaxTokens, min: ri.Ask.MinTokens, ignoreEOS: ri.Ask.IgnoreEOS, tokens: ri.Tokens, cached: ri.CachedTokens, pTk: ri.PromptTokens})
}

// startFake starts a fake endpoint for the test; hook may be nil.
func startFake(t testing.TB, cfg fake.Config, hook *seen) string {
	t.Helper()
	if hook != nil {
		cfg.OnRequest = hook.hook
	}
	_, url := faketest.Start(t, cfg)
	return url
}

// dashInferData writes a conversation file of n records (one question and
// answer each, "<image>\n" before the question, as docvqa's) and an image
// folder of imgs PNGs, plus a file that is not an image and one too large
// for DashInfer's filter.
func dashInferData(t testing.TB, n, imgs int) (string, string) {
	t.Helper()
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "conv.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		rec := map[string]any{"id": i, "conversations": []map[string]string{
			{"from": "human", "value": fmt.Sprintf("<image>\nWhat does line %d of the document say?", i)},
			{"from": "gpt", "value": fmt.Sprintf("It says %d.", i)}}}
		b, _ := json.Marshal(rec)
		fmt.Fprintf(f, "%s\n", b)
	}
	f.Close()
	idir := filepath.Join(dir, "images", "sub")
	if err := os.MkdirAll(idir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range imgs {
		writePNG(t, filepath.Join(idir, fmt.Sprintf("img%03d.png", i)), 32+i, 24)
	}
	writePNG(t, filepath.Join(idir, "huge.png"), 1000, 1000) // over 28*28*1024 pixels
	_ = os.WriteFile(filepath.Join(idir, "notes.txt"), []byte("not an image"), 0o644)
	return f.Name(), filepath.Join(dir, "images")
}

func writePNG(t testing.TB, path string, w, h int) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * 7), uint8(y * 5), uint8(w), 255})
		}
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

// proxy serves a proxy to url that passes each request's body through
// editRequest and each line of the answer through editLine, line by line
// as it comes, so a stream keeps its timing (nil: unchanged).
func proxy(t testing.TB, url string, editRequest, editLine func([]byte) []byte) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if editRequest != nil {
			body = editRequest(body)
		}
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, url+r.URL.Path, bytes.NewReader(body))
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(rw, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			if k != "Content-Length" {
				rw.Header()[k] = v
			}
		}
		rw.WriteHeader(resp.StatusCode)
		br := bufio.NewReader(resp.Body)
		for {
			line, err := br.ReadBytes('\n')
			if editLine != nil {
				line = editLine(line)
			}
			rw.Write(line) //nolint:errcheck // the client sees a cut answer
			rw.(http.Flusher).Flush()
			if err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
