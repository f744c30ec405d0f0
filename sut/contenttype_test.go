package sut

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/mlperf-go/mlperf-go/protocol/openaiaudio"
)

// TestMultipartContentType: a protocol whose bodies are multipart
// (protocol.BodyTyper) sends each body with the Content-Type naming that
// body's boundary, joined or vectored, and the server reads the form.
func TestMultipartContentType(t *testing.T) {
	t.Parallel()
	small := bytes.Repeat([]byte("a"), 100)
	large := bytes.Repeat([]byte("b"), 200<<10) // past maxJoinedBody: a vectored body
	var bodies sliceBodies
	for _, audio := range [][]byte{small, large} {
		b, err := openaiaudio.Encode("m", "x.wav", audio, nil)
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, b)
	}
	got := make(chan int, 2)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		f, _, err := r.FormFile("file")
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		audio, _ := io.ReadAll(f)
		got <- len(audio)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"content\":\" Ok.\"},\"finish_reason\":\"stop\"}]}\n\n"+
			"data: {\"choices\":[],\"usage\":{\"completion_tokens\":2}}\n\ndata: [DONE]\n\n")
	})
	p, rec := newPool(t, Config{Endpoints: []string{srv.URL}, API: openaiaudio.Protocol, Bodies: bodies})
	p.IssueQuery(samples(2))
	p.Close()
	sizes := map[int]bool{<-got: true, <-got: true}
	if !sizes[len(small)] || !sizes[len(large)] {
		t.Fatalf("server read files of %v bytes, want %d and %d", sizes, len(small), len(large))
	}
	_, finals, _ := rec.snapshot()
	for id, r := range finals {
		if text, err := openaiaudio.LabelText(r.Data); err != nil || text != "ok" || r.NTokens != 2 {
			t.Errorf("sample %d: %q (%v), %d tokens", id, text, err, r.NTokens)
		}
	}
	if len(finals) != 2 {
		t.Fatalf("%d answers", len(finals))
	}
}
