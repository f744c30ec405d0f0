package bench

import (
	"context"
	"testing"

	"github.com/mlperf-go/mlperf-go/fake"
)

func TestSmokeSynthetic(t *testing.T) {
	s, err := fake.New(fake.Config{})
	if err != nil {
		t.Fatal(err)
	}
	url, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w, err := Synthetic(SyntheticOptions{Requests: 20, InputLen: 50, OutputLen: 20, MultiTurn: 2, Images: 1})
	if err != nil {
		t.Fatal(err)
	}
	res, recs, err := Run(context.Background(), w, Options{Targets: []Target{{Name: "a", URLs: []string{url}}}, Stream: true,
		Loads: []Load{{Concurrency: 4}}, Warmup: 2, ExactOutput: true, Model: fake.DefaultModel})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", res.Runs[0])
	t.Logf("%+v", recs[0][:3])
}
