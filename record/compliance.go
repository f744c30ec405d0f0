package record

import (
	"fmt"
	"strings"
)

// Compliance is a compliance test's verdict on one run: its verification,
// as the reference's compliance/TEST0x/run_verification.py states it in the
// file it writes.
type Compliance struct {
	// Test is the compliance test ("TEST06").
	Test string `json:"test"`
	// Pass is true when the verification ran and every check passed.
	Pass bool `json:"pass"`
	// Checks are the verification's checks in the order its file states
	// them.
	Checks []ComplianceCheck `json:"checks,omitempty"`
	// Error says why the verification could not run (Pass is then false
	// and Checks empty).
	Error string `json:"error,omitempty"`
	// File is the verification's file beside the run's logs
	// (verify_accuracy.txt, verify_output_len.txt).
	File string `json:"file,omitempty"`
	// Verifier says what verified the run: mlperf-go's port of the
	// reference script, or the accuracy script and scorer TEST07 ran.
	Verifier string `json:"verifier,omitempty"`
	// Warnings are findings that leave the verdict alone (the harness's
	// own checks of a TEST07 log, which the reference does not make).
	Warnings []string `json:"warnings,omitempty"`
}

// ComplianceCheck is one check of a compliance verification.
type ComplianceCheck struct {
	// Name is the check as the verification's file names it ("EOS
	// check", "Accuracy check", "Min check").
	Name string `json:"name"`
	// Result is what the file says of it: "True", "False" or "Skipped".
	Result string `json:"result"`
	// Pass is false only for a check that failed.
	Pass bool `json:"pass"`
	// Detail says what was measured, or for a failed check which sample
	// failed it and how.
	Detail string `json:"detail,omitempty"`
}

// Verdict is "PASS", "FAIL", or "NOT VERIFIED" when the verification could
// not run.
func (c *Compliance) Verdict() string {
	switch {
	case c.Error != "":
		return "NOT VERIFIED"
	case c.Pass:
		return "PASS"
	}
	return "FAIL"
}

// Problems are why the verdict is not PASS, one line each: each failed
// check with its file line and detail ("EOS check pass: False (qsl_idx 3
// ends with 2 EOS tokens, 128009)"), or why the verification did not run.
func (c *Compliance) Problems() []string {
	if c.Error != "" {
		return []string{"not verified: " + c.Error}
	}
	var out []string
	for _, k := range c.Checks {
		if k.Pass {
			continue
		}
		line := fmt.Sprintf("%s pass: %s", k.Name, k.Result)
		if k.Detail != "" {
			line += " (" + k.Detail + ")"
		}
		out = append(out, line)
	}
	if len(out) == 0 && !c.Pass {
		out = append(out, c.Test+" verification failed")
	}
	return out
}

// Summary is the verdict with its problems on one line: "TEST06 PASS",
// "TEST06 FAIL: EOS check pass: False (…)".
func (c *Compliance) Summary() string {
	s := c.Test + " " + c.Verdict()
	if p := c.Problems(); len(p) > 0 && !c.Pass {
		s += ": " + strings.Join(p, "; ")
	}
	return s
}
