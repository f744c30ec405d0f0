package bench

import (
	"strings"
	"testing"
)

// TestRangeErrorsNameTheFlags: a mean and range whose draws go below what
// is allowed are refused naming both flags, the values they draw and what
// would work, not a Go struct. DashInfer's default range of 64 with an
// output mean of 16 draws lengths down to -16.
func TestRangeErrorsNameTheFlags(t *testing.T) {
	t.Parallel()
	d := DashInferDefaults()
	d.ResponseMean = 16
	_, err := LoadDashInfer(d)
	want := "--output-len (--response-mean) 16 with --output-len-range (--response-len-range) 64 draws output lengths from -16 to 48, but they must be at least 1: " +
		"give --output-len-range (--response-len-range) 31 or less (its default is 64, DashInfer's), or a larger --output-len (--response-mean)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v\nwant it to say %q", err, want)
	}
	// A range of 31 draws randint(16-15, 16+15): 1 at least, accepted
	// (the prompt file is what fails next).
	d.ResponseRange = 31
	if _, err := LoadDashInfer(d); err == nil || strings.Contains(err.Error(), "--response-len-range") {
		t.Errorf("range 31: %v", err)
	}
	_, err = Synthetic(SyntheticOptions{InputLen: 4, InputSpread: 5, Images: 1, ImagesSpread: 2})
	for _, w := range []string{"--input-len 4 with --input-len-range 10 draws prompt lengths from -1 to 9", "give --input-len-range 7 or less",
		"--images 1 with --images-range 4 draws image counts from -1 to 3, but they must be at least 0"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v\nwant it to say %q", err, w)
		}
	}
	if err != nil && strings.Contains(err.Error(), "{") {
		t.Errorf("the error prints a struct: %v", err)
	}
}
