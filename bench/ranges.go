package bench

import (
	"errors"
	"fmt"
)

// drawn is one quantity a workload draws uniformly from mean ± half (a
// length, an image count), with the flags that set it, for errors that say
// which flags conflict and what would work.
type drawn struct {
	what                string // "output lengths"
	meanFlag, rangeFlag string // "--output-len (--response-mean)"
	mean, half, least   int
	// rangeDefault is the range flag's default where the workload has one
	// the user may not know they got (DashInfer's 64).
	rangeDefault string
}

// check says why the draws can go below the least value allowed.
func (d drawn) check() error {
	if d.half < 0 {
		return fmt.Errorf("%s %d: a range cannot be negative", d.rangeFlag, 2*d.half)
	}
	lo := d.mean - d.half
	if lo >= d.least {
		return nil
	}
	room := d.mean - d.least
	if room < 0 {
		return fmt.Errorf("%s %d: %s must be at least %d", d.meanFlag, d.mean, d.what, d.least)
	}
	def := ""
	if d.rangeDefault != "" {
		def = " (its default is " + d.rangeDefault + ")"
	}
	return fmt.Errorf("%s %d with %s %d draws %s from %d to %d, but they must be at least %d: give %s %d or less%s, or a larger %s",
		d.meanFlag, d.mean, d.rangeFlag, 2*d.half, d.what, lo, d.mean+d.half, d.least, d.rangeFlag, 2*room+1, def, d.meanFlag)
}

// checkDraws checks every quantity and joins what is wrong.
func checkDraws(ds ...drawn) error {
	var errs []error
	for _, d := range ds {
		if err := d.check(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
