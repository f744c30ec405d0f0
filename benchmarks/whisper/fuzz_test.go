package whisper

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzOpen: any manifest bytes are read without panicking, and a manifest
// that opens has samples whose transcripts hold only the output alphabet
// and whose audio exists.
func FuzzOpen(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("testdata", "eval", ManifestFile))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed[:2000])
	f.Add([]byte(`[{"transcript": "a b", "original_duration": 1, "files": [{"fname": "x.wav", "speed": 1}]}]`))
	f.Add([]byte(`[{"transcript": null, "original_duration": 1e400, "files": []}]`))
	f.Fuzz(func(t *testing.T, manifest []byte) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "x.wav"), []byte("RIFF"), 0o644)
		p := filepath.Join(dir, ManifestFile)
		if err := os.WriteFile(p, manifest, 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := Open([]string{p})
		if err != nil {
			return
		}
		for i := range d.Len() {
			s := d.Sample(i)
			for _, r := range s.Transcript {
				if r >= 128 || !labelOK[r] {
					t.Fatalf("sample %d transcript %q holds %q", i, s.Transcript, r)
				}
			}
			if _, err := os.Stat(s.Audio); err != nil {
				t.Fatalf("sample %d audio %q: %v", i, s.Audio, err)
			}
		}
	})
}

var labelOK = func() (m [128]bool) {
	for _, c := range " abcdefghijklmnopqrstuvwxyz'0123456789$%+-" {
		m[c] = true
	}
	return m
}()
