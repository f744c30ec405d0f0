package whisper

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mlperf-go/mlperf-go/benchmark"
	"github.com/mlperf-go/mlperf-go/protocol"
	"github.com/mlperf-go/mlperf-go/protocol/openaiaudio"
	"github.com/mlperf-go/mlperf-go/qsl"
)

// Sample is one manifest entry as the reference's Manifest keeps it.
type Sample struct {
	// Transcript is the reference transcript with the characters outside
	// the output alphabet dropped (Manifest.parse_transcript), as text.
	Transcript string
	// Audio is the audio file's path, resolved (see Open).
	Audio string
	// Duration is the entry's original_duration in seconds.
	Duration float64
}

// Dataset is an opened dev-all-repack set.
type Dataset struct {
	// Manifest is the manifest file read.
	Manifest string
	samples  []Sample
	// Dropped counts entries left out as the reference leaves them out
	// (longer than MaxDuration, or a transcript that is not a string).
	Dropped int
	// Warnings are the lines the reference's Manifest prints while reading
	// (one per transcript that is not a string), which its evaluator's
	// output, accuracy.txt, begins with.
	Warnings []string
}

// manifestEntry is the part of a manifest entry the reference reads
// (utils/repackage_librispeech.py writes it; manifest.py reads it).
type manifestEntry struct {
	Transcript       json.RawMessage `json:"transcript"`
	OriginalDuration *float64        `json:"original_duration"`
	Files            []struct {
		Fname string  `json:"fname"`
		Speed float64 `json:"speed"`
	} `json:"files"`
}

// Open reads the manifest at paths (the manifest file, or a folder holding
// dev-all-repack.json) and checks that every sample's audio file is there.
// Entries are kept and indexed as the reference's Manifest keeps them:
// longer than MaxDuration (original_duration) or with a transcript that is
// not a string, they are dropped; the transcript keeps only the characters
// of the output alphabet; the audio is the entry's file of speed 1. The
// published manifest's fname values are paths where the set was made, so
// an audio path is resolved as the reference resolves it
// (os.path.join(data_dir, fname), data_dir the manifest's folder) and,
// failing that, as dev-all-repack/<base name> and <base name> in that
// folder; a manifest given as a symbolic link (to shared storage) is
// then looked beside where it leads, too.
func Open(paths []string) (*Dataset, error) {
	if len(paths) != 1 {
		return nil, fmt.Errorf("whisper takes one dataset path (the folder holding %s, or the file), got %d", ManifestFile, len(paths))
	}
	path := paths[0]
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, ManifestFile)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("whisper dataset: %w (give the folder holding %s, or the file; make a small one with `mlperf-go dataset synth -b whisper`)", err, ManifestFile)
	}
	var entries []manifestEntry
	if err := json.Unmarshal(b, &entries); err != nil {
		return nil, fmt.Errorf("whisper dataset %s: not a manifest (a JSON list of entries): %w", path, err)
	}
	d := &Dataset{Manifest: path}
	dirs := []string{filepath.Dir(path)}
	if real, err := filepath.EvalSymlinks(path); err == nil && filepath.Dir(real) != dirs[0] {
		dirs = append(dirs, filepath.Dir(real))
	}
	for i, e := range entries {
		s, keep, err := readEntry(e, dirs)
		if err != nil {
			return nil, fmt.Errorf("whisper dataset %s: entry %d: %w", path, i, err)
		}
		if w := transcriptWarning(e); w != "" && s.Duration <= MaxDuration {
			d.Warnings = append(d.Warnings, w)
		}
		if !keep {
			d.Dropped++
			continue
		}
		d.samples = append(d.samples, s)
	}
	if len(d.samples) == 0 {
		return nil, fmt.Errorf("whisper dataset %s: no sample (%d entries, all dropped)", path, len(entries))
	}
	return d, nil
}

// readEntry turns a manifest entry into a sample; keep is false for one
// the reference drops.
func readEntry(e manifestEntry, dirs []string) (s Sample, keep bool, err error) {
	if e.OriginalDuration == nil {
		return s, false, errors.New("no original_duration")
	}
	s.Duration = *e.OriginalDuration
	if len(e.Transcript) == 0 {
		return s, false, errors.New("no transcript (the reference would read a text_filepath, which this manifest format does not have)")
	}
	// Only a JSON string is kept (manifest.py's isinstance(…, str)): null
	// unmarshals into a Go string without error, so it is checked first.
	var text string
	if s.Duration > MaxDuration || !isJSONString(e.Transcript) || json.Unmarshal(e.Transcript, &text) != nil {
		return s, false, nil
	}
	s.Transcript = openaiaudio.TextLabels(text)
	for _, f := range e.Files {
		if f.Speed == 1 {
			s.Audio, err = resolve(dirs, f.Fname)
			return s, true, err
		}
	}
	return s, false, errors.New("no file of speed 1")
}

// transcriptWarning is manifest.py's line for an entry whose transcript is
// not a string: "WARNING: Got transcript: {}. It is not a string. Dropping
// data point", the value as Python's str() writes JSON numbers, null, true
// and false (other values as their JSON text).
func transcriptWarning(e manifestEntry) string {
	if isJSONString(e.Transcript) {
		return ""
	}
	v := strings.TrimSpace(string(e.Transcript))
	switch v {
	case "", "null":
		v = "None"
	case "true":
		v = "True"
	case "false":
		v = "False"
	}
	return "WARNING: Got transcript: " + v + ". It is not a string. Dropping data point"
}

// isJSONString reports whether raw is a JSON string, the only transcript
// the reference keeps.
func isJSONString(raw json.RawMessage) bool {
	return strings.HasPrefix(strings.TrimSpace(string(raw)), `"`)
}

// resolve finds fname's audio file in the first of dirs that has it (see
// Open).
func resolve(dirs []string, fname string) (string, error) {
	if fname == "" {
		return "", errors.New("an empty fname")
	}
	var tries []string
	if filepath.IsAbs(fname) {
		tries = append(tries, fname)
	}
	for _, dir := range dirs {
		if !filepath.IsAbs(fname) {
			tries = append(tries, filepath.Join(dir, fname))
		}
		tries = append(tries, filepath.Join(dir, "dev-all-repack", filepath.Base(fname)), filepath.Join(dir, filepath.Base(fname)))
	}
	for _, p := range tries {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, nil
		}
	}
	return "", fmt.Errorf("audio file %q not found (looked for %s)", fname, strings.Join(tries, ", "))
}

// Len is the number of samples.
func (d *Dataset) Len() int { return len(d.samples) }

// Close releases nothing: audio files are read when bodies are built.
func (d *Dataset) Close() error { return nil }

// Sample returns sample i.
func (d *Dataset) Sample(i int) Sample { return d.samples[i] }

// Bodies builds each sample's transcription request from its audio file,
// read when LoadGen loads the sample. Only the transcription protocol
// carries audio.
func (d *Dataset) Bodies(o benchmark.BodyOptions) (qsl.Builder, []byte, error) {
	enc, ok := o.API.(protocol.AudioEncoder)
	if !ok {
		return nil, nil, fmt.Errorf("whisper's audio goes over %s (--api %s), not %s, which carries no audio", openaiaudio.Protocol.Path(), openaiaudio.Protocol.Name(), o.API.Name())
	}
	params, err := o.Params()
	if err != nil {
		return nil, nil, err
	}
	if _, err := enc.EncodeAudio(o.Model, "probe.wav", []byte("RIFF"), params); err != nil {
		return nil, nil, err // parameters of another protocol's type
	}
	return qsl.BuilderFunc(func(i int) ([]byte, error) {
		s := d.samples[i]
		audio, err := os.ReadFile(s.Audio)
		if err != nil {
			return nil, fmt.Errorf("whisper sample %d: %w", i, err)
		}
		return enc.EncodeAudio(o.Model, filepath.Base(s.Audio), audio, params)
	}), nil, nil
}
