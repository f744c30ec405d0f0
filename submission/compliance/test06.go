package compliance

import (
	"fmt"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/loadgen/mllog"
	"github.com/mlperf-go/mlperf-go/submission"
)

// TEST06Options configure VerifyTEST06.
type TEST06Options struct {
	// Scenario is the scenario directory the run is filed under; Offline
	// skips the first-token check, as the reference does.
	Scenario string
	// EOSTokenID is the tokenizer's end-of-sequence id (128009 for
	// llama3.1-8b's <|eot_id|>). Required: the reference defaults to 2 (Llama
	// 2's id) and, when given -e on its command line, compares tokens with a
	// string and so never sees an EOS at all; pass the real id here.
	EOSTokenID int64
	// DType is the token encoding of the responses: "int32" (default, what
	// mlperf-go's llama harness sends), "int64" or "int16", little-endian.
	DType string
}

// VerifyTEST06 is compliance/TEST06/run_verification.py in Go. It reads the
// accuracy log at logPath, runs the three checks and returns the
// verify_accuracy.txt the reference writes, with its exact text:
//
//	First token check pass: True|False|Skipped
//	EOS check pass: True|False
//	Sample length check pass: True|False
//	TEST06 verification complete|failed
//
// The checks, as the reference does them:
//   - first token (not in Offline): for every sample, the tokens of
//     "token_data" (what the SUT reported as its first token(s)) equal the
//     leading tokens of "data"; a sample without token_data fails.
//   - EOS: no response ends with two EOS tokens (scanning back from the end
//     over EOS tokens, never looking at token 0).
//   - sample length: every response has exactly "token_count" tokens.
//
// A response whose byte length is not a multiple of the token size fails the
// check reading it (the reference raises; its sample-length check would
// crash instead of printing False). Each failed check's detail names the
// first sample failing it, where the reference stops looking.
func VerifyTEST06(logPath string, opts TEST06Options) (*Verification, error) {
	size, err := tokenSize(opts.DType)
	if err != nil {
		return nil, err
	}
	entries, err := mllog.ReadAccuracy(logPath)
	if err != nil {
		return nil, fmt.Errorf("submission: TEST06: %w", err)
	}
	scen, err := submission.CanonicalScenario(opts.Scenario)
	if err != nil {
		return nil, err
	}
	v := newVerification(submission.TEST06, submission.VerifyAccuracyFile, "mlperf-go's port of compliance/TEST06/run_verification.py")
	if scen == benchmark.ScenarioOffline {
		v.check("First token check", "Skipped", "not made in Offline, where no first token is reported")
	} else {
		v.checkFailure("First token check", firstTokenCheck(entries, size))
	}
	v.checkFailure("EOS check", eosCheck(entries, size, opts.EOSTokenID))
	v.checkFailure("Sample length check", lengthCheck(entries, size))

	var out strings.Builder
	v.Verdict.Pass = true
	for _, c := range v.Verdict.Checks {
		fmt.Fprintf(&out, "%s pass: %s\n", c.Name, c.Result)
		v.Verdict.Pass = v.Verdict.Pass && c.Pass
	}
	if v.Verdict.Pass {
		out.WriteString("TEST06 verification complete\n")
	} else {
		out.WriteString("TEST06 verification failed\n")
	}
	v.Text = []byte(out.String())
	return v, nil
}

// checkFailure adds a check that passed when failure, the check's detail,
// is "".
func (v *Verification) checkFailure(name, failure string) {
	if failure == "" {
		v.check(name, "True", "")
		return
	}
	v.check(name, "False", failure)
}

// eosCheck finds the first response ending in two or more EOS tokens.
func eosCheck(entries []mllog.AccuracyEntry, size int, eos int64) string {
	for _, e := range entries {
		toks, err := decodeTokens(e.Data, size)
		if err != nil {
			return fmt.Sprintf("qsl_idx %d: its data is not whole tokens: %v", e.QSLIndex, err)
		}
		n := 0
		for i := len(toks) - 1; i > 0 && toks[i] == eos; i-- {
			n++
		}
		if n >= 2 {
			return fmt.Sprintf("qsl_idx %d ends with %d EOS tokens (%d); a response may end with one at most", e.QSLIndex, n, eos)
		}
	}
	return ""
}

// firstTokenCheck finds the first entry whose token_data differs from the
// start of its data.
func firstTokenCheck(entries []mllog.AccuracyEntry, size int) string {
	for _, e := range entries {
		if e.TokenData == nil {
			return fmt.Sprintf("qsl_idx %d has no token_data: no first token was reported for it", e.QSLIndex)
		}
		first, err1 := decodeTokens(e.TokenData, size)
		data, err2 := decodeTokens(e.Data, size)
		if err := firstErr(err1, err2); err != nil {
			return fmt.Sprintf("qsl_idx %d: %v", e.QSLIndex, err)
		}
		for j := 0; j < len(first) && j < len(data); j++ {
			if first[j] != data[j] {
				return fmt.Sprintf("qsl_idx %d: first token reported %d, but the response's token %d is %d", e.QSLIndex, first[j], j, data[j])
			}
		}
	}
	return ""
}

// lengthCheck finds the first entry whose token_count is not its number
// of tokens.
func lengthCheck(entries []mllog.AccuracyEntry, size int) string {
	for _, e := range entries {
		toks, err := decodeTokens(e.Data, size)
		switch {
		case err != nil:
			return fmt.Sprintf("qsl_idx %d: its data is not whole tokens: %v", e.QSLIndex, err)
		case !e.HasTokenCount:
			return fmt.Sprintf("qsl_idx %d has no token_count", e.QSLIndex)
		case int64(len(toks)) != e.TokenCount:
			return fmt.Sprintf("qsl_idx %d has %d tokens but its token_count is %d", e.QSLIndex, len(toks), e.TokenCount)
		}
	}
	return ""
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

func tokenSize(dtype string) (int, error) {
	switch dtype {
	case "", "int32":
		return 4, nil
	case "int64":
		return 8, nil
	case "int16":
		return 2, nil
	}
	return 0, fmt.Errorf("submission: token dtype %q not supported: use int32, int64 or int16", dtype)
}

// decodeTokens decodes little-endian signed integers of size bytes, failing
// like numpy.frombuffer when the length is not a multiple of size.
func decodeTokens(b []byte, size int) ([]int64, error) {
	out, ok := mllog.AppendTokenIDs(make([]int64, 0, len(b)/size), b, size)
	if !ok {
		return nil, fmt.Errorf("%d bytes is not a multiple of the %d-byte token size", len(b), size)
	}
	return out, nil
}
