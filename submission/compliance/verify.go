package compliance

import (
	"context"
	"fmt"

	"github.com/mlperf-go/mlperf-go/submission"
)

// VerifyOptions configure VerifyCompliance.
type VerifyOptions struct {
	// Scenario is the scenario directory the run is filed under.
	Scenario string
	// AccuracyScript is TEST07's official accuracy command template (see
	// TEST07Command); without it TEST07 is filed but not verified.
	AccuracyScript string
}

// VerifyCompliance runs the verification of compliance test test on a run
// filed in testDir (as filing.FileRun returns it) for benchmark name, with the
// benchmark's constants from the registry, and writes the reference's
// verify_*.txt there: TEST06 and TEST09 in Go, TEST07 through the official
// accuracy script. ran is false when the test could not be verified here
// (TEST07 without a script); pass says whether it passed.
func VerifyCompliance(ctx context.Context, testDir, name, test string, o VerifyOptions) (ran, pass bool, err error) {
	c, err := submission.LookupCompliance(test, name)
	if err != nil {
		return false, false, err
	}
	switch test {
	case submission.TEST06:
		pass, err = VerifyTEST06(testDir, TEST06Options{Scenario: o.Scenario, EOSTokenID: c.EOSTokenID})
	case submission.TEST09:
		pass, err = VerifyTEST09(testDir, name)
	case submission.TEST07:
		if o.AccuracyScript == "" {
			return false, false, nil
		}
		pass, err = RunTEST07(ctx, testDir, name, o.AccuracyScript)
	default:
		return false, false, fmt.Errorf("submission: no verification for compliance test %q", test)
	}
	return true, pass, err
}
