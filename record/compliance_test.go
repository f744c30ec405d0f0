package record

import (
	"slices"
	"strings"
	"testing"
)

// TestComplianceVerdict: the verdict, its problems and its one-line
// summary name each failed check with its detail, or why nothing was
// verified; a failed or unverified compliance run is not submittable.
func TestComplianceVerdict(t *testing.T) {
	t.Parallel()
	checks := []ComplianceCheck{
		{Name: "First token check", Result: "Skipped", Pass: true},
		{Name: "EOS check", Result: "False", Detail: "qsl_idx 3 ends with 2 EOS tokens (128009)"},
		{Name: "Sample length check", Result: "False"},
	}
	for _, tc := range []struct {
		name     string
		c        Compliance
		verdict  string
		problems []string
		summary  string
	}{
		{"pass", Compliance{Test: "TEST06", Pass: true, Checks: checks[:1]}, "PASS", nil, "TEST06 PASS"},
		{"fail", Compliance{Test: "TEST06", Checks: checks}, "FAIL",
			[]string{"EOS check pass: False (qsl_idx 3 ends with 2 EOS tokens (128009))", "Sample length check pass: False"},
			"TEST06 FAIL: EOS check pass: False (qsl_idx 3 ends with 2 EOS tokens (128009)); Sample length check pass: False"},
		{"fail without checks", Compliance{Test: "TEST09"}, "FAIL", []string{"TEST09 verification failed"}, "TEST09 FAIL: TEST09 verification failed"},
		{"not verified", Compliance{Test: "TEST07", Error: "no tokenizer"}, "NOT VERIFIED", []string{"not verified: no tokenizer"},
			"TEST07 NOT VERIFIED: not verified: no tokenizer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := tc.c.Verdict(); got != tc.verdict {
				t.Errorf("verdict %q, want %q", got, tc.verdict)
			}
			if got := tc.c.Problems(); !slices.Equal(got, tc.problems) {
				t.Errorf("problems %q, want %q", got, tc.problems)
			}
			if got := tc.c.Summary(); got != tc.summary {
				t.Errorf("summary %q, want %q", got, tc.summary)
			}
			err := Run{Compliance: &tc.c}.Submittable()
			if tc.c.Pass != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.c.Test+" verification did not pass")) {
				t.Errorf("submittable: %v", err)
			}
		})
	}
}
