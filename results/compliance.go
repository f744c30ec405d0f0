package results

// decideCompliance makes a compliance run's verdict its status. LoadGen
// judges the audit run by the performance rules (early stopping,
// min_duration) that TEST06, TEST07 and TEST09 do not apply, so its
// verdict and reasons move to loadgen_validity and loadgen_reasons, as
// information, and the status is the verification's: pass, fail with each
// failed check a reason, or unverified with why. A run that was aborted,
// lost samples or did not finish keeps that status: its verification
// judged nothing.
func (r *Results) decideCompliance() {
	c := r.Compliance
	if c == nil {
		return
	}
	o := &r.Outcome
	switch o.Status {
	case StatusAborted, StatusFailed, StatusIncomplete:
		return
	case StatusInvalid:
		o.LoadGenReasons, o.Reasons = o.Reasons, nil
	}
	switch {
	case c.Error != "":
		o.Status = StatusUnverified
	case c.Pass:
		o.Status = StatusPass
	default:
		o.Status = StatusFail
	}
	for _, p := range c.Problems() {
		o.Reasons = append(o.Reasons, c.Test+": "+p)
	}
	o.Warnings = append(o.Warnings, c.Warnings...)
}
