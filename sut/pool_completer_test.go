package sut

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/mlperf-go/mlperf-go/loadgen"
	"github.com/mlperf-go/mlperf-go/protocol/sglang"
)

// refusingCompleter refuses every batch with err.
type refusingCompleter struct{ err error }

func (r refusingCompleter) QuerySamplesComplete([]loadgen.Response) error { return r.err }
func (r refusingCompleter) FirstTokenComplete([]loadgen.Response) error   { return r.err }

// TestCompleterRefusals: responses LoadGen refuses because the test was
// aborted (it completed their samples itself) are expected and logged at
// debug level only; any other refusal is a harness bug, logged as an error
// and counted in Stats.CompleterErrors, which makes the run invalid.
func TestCompleterRefusals(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, sglangOK)
	})
	for _, tc := range []struct {
		name       string
		err        error
		wantErrors int64
	}{
		{"after abort", fmt.Errorf("loadgen: QuerySamplesComplete: refused 3 response IDs: %w", loadgen.ErrAborted), 0},
		{"unknown IDs", errors.New("loadgen: QuerySamplesComplete: refused 3 response IDs, not passed to LoadGen"), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			core, logs := observer.New(zap.DebugLevel)
			p, _ := newPool(t, Config{Endpoints: []string{srv.URL}, API: sglang.Protocol, Bodies: sliceBodies{[]byte(`{}`)},
				Concurrency: 1, Completer: refusingCompleter{tc.err}, Logger: zap.New(core)})
			qs := samples(3)
			for i := range qs {
				qs[i].Index = 0
			}
			p.IssueQuery(qs)
			p.Close()
			st := p.Stats()
			if (st.CompleterErrors > 0) != (tc.wantErrors > 0) {
				t.Errorf("CompleterErrors = %d, want %d or more", st.CompleterErrors, tc.wantErrors)
			}
			errs := logs.FilterLevelExact(zapcore.ErrorLevel).Len()
			if (errs > 0) != (tc.wantErrors > 0) {
				t.Errorf("%d error log entries, want them only for a refusal that is not an abort's: %v", errs, logs.All())
			}
			if tc.wantErrors == 0 && logs.FilterMessage("responses arrived after the test was aborted").Len() == 0 {
				t.Errorf("the refusal after the abort is not noted at debug level: %v", logs.All())
			}
		})
	}
}
