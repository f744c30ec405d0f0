package main

import (
	"testing"

	"github.com/urfave/cli/v2"
	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/fake"
)

// TestFakeServesBenchmarkModel: `fake-endpoint -b NAME` serves NAME's model,
// the one `run -b NAME` asks for; --model still wins, and without -b the
// fake's default stays.
func TestFakeServesBenchmarkModel(t *testing.T) {
	model := func(args ...string) string {
		t.Helper()
		cmd := fakeEndpointCommand()
		var got fake.Config
		cmd.Action = func(c *cli.Context) (err error) {
			got, err = fakeConfig(c, zap.NewNop())
			return err
		}
		app := &cli.App{Commands: []*cli.Command{cmd}}
		if err := app.Run(append([]string{"mlperf-go", "fake-endpoint"}, args...)); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return got.Model
	}
	llama2 := mustLookup(t, "llama2-70b")
	if got := model("-b", "llama2-70b"); got != llama2.Serving.Model {
		t.Errorf("-b llama2-70b serves %q, want %q", got, llama2.Serving.Model)
	}
	if got := model("-b", "llama2-70b", "--model", "mine"); got != "mine" {
		t.Errorf("-b llama2-70b --model mine serves %q", got)
	}
	if got := model(); got != fake.DefaultModel {
		t.Errorf("no flags: serves %q, want %q", got, fake.DefaultModel)
	}
}
