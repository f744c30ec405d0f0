package whisper

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/pyfloat"
)

// SampleRate is the audio's sample rate (the reference's SR).
const SampleRate = 16000

// synthWords are the synthetic transcripts' words: LibriSpeech's kind
// (lowercase, apostrophes, no digits), with some the normalizer rewrites.
var synthWords = strings.Fields("the a of and to in he she it was that his her with for as had " +
	"said mister doctor colour honour twenty one hundred first it's don't she'd they're " +
	"o'clock rivers stew dinner quilter apostle middle classes gospel counselled belly")

// Synth writes a small set of n samples in the reference's layout into
// dir: dev-all-repack.json (the manifest utils/repackage_librispeech.py
// writes, fname relative to dir) and dev-all-repack/<speaker>-<chapter>_
// <i>.wav, 16 kHz mono 16-bit WAV files of synthetic audio (a few tones,
// 1 to 2.5 s), and returns what --dataset takes: the manifest alone (the
// audio files are found beside it). The same seed gives the same bytes.
func Synth(dir string, n int, seed uint64) ([]string, error) {
	if n <= 0 {
		return nil, fmt.Errorf("whisper synth: %d samples; give at least one", n)
	}
	rng := rand.New(rand.NewPCG(seed, 0x77686973706572))
	if err := os.MkdirAll(filepath.Join(dir, "dev-all-repack"), 0o755); err != nil {
		return nil, err
	}
	manifest := make([]synthEntry, n)
	for i := range manifest {
		name := fmt.Sprintf("dev-all-repack/%d-%d_%d.wav", 100+i%7, 1000+i/7, i)
		pcm := synthAudio(rng, SampleRate+rng.IntN(3*SampleRate/2))
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.WriteFile(path, wavFile(pcm), 0o644); err != nil {
			return nil, err
		}
		manifest[i] = newSynthEntry(synthTranscript(rng), name, len(pcm))
	}
	b, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, ManifestFile)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return nil, err
	}
	return []string{path}, nil
}

func synthTranscript(rng *rand.Rand) string {
	w := make([]string, 4+rng.IntN(12))
	for i := range w {
		w[i] = synthWords[rng.IntN(len(synthWords))]
	}
	return strings.Join(w, " ")
}

// synthAudio is n samples of three tones under a fading envelope.
func synthAudio(rng *rand.Rand, n int) []int16 {
	freqs := [3]float64{120 + 200*rng.Float64(), 400 + 800*rng.Float64(), 1500 + 1500*rng.Float64()}
	pcm := make([]int16, n)
	for i := range pcm {
		t := float64(i) / SampleRate
		env := math.Sin(math.Pi * float64(i) / float64(n))
		v := 0.0
		for k, f := range freqs {
			v += math.Sin(2*math.Pi*f*t) / float64(k+2)
		}
		pcm[i] = int16(9000 * env * v)
	}
	return pcm
}

// wavFile is pcm as a RIFF/WAVE file: PCM, mono, 16 kHz, 16-bit (what
// soundfile writes for the reference's sf.write(fname, audio, 16000)).
func wavFile(pcm []int16) []byte {
	b := make([]byte, 0, 44+2*len(pcm))
	b = append(b, "RIFF"...)
	b = binary.LittleEndian.AppendUint32(b, uint32(36+2*len(pcm)))
	b = append(b, "WAVEfmt "...)
	b = binary.LittleEndian.AppendUint32(b, 16)
	b = binary.LittleEndian.AppendUint16(b, 1) // PCM
	b = binary.LittleEndian.AppendUint16(b, 1) // mono
	b = binary.LittleEndian.AppendUint32(b, SampleRate)
	b = binary.LittleEndian.AppendUint32(b, 2*SampleRate) // byte rate
	b = binary.LittleEndian.AppendUint16(b, 2)            // block align
	b = binary.LittleEndian.AppendUint16(b, 16)
	b = append(b, "data"...)
	b = binary.LittleEndian.AppendUint32(b, uint32(2*len(pcm)))
	for _, v := range pcm {
		b = binary.LittleEndian.AppendUint16(b, uint16(v))
	}
	return b
}

// pyFloat marshals as Python's json.dump writes a float (16000.0).
type pyFloat float64

func (f pyFloat) MarshalJSON() ([]byte, error) { return []byte(pyfloat.JSON(float64(f))), nil }

// synthEntry is a manifest entry with repackage_librispeech.py's
// get_sample_json fields, in its order.
type synthEntry struct {
	Transcript         string      `json:"transcript"`
	Files              []synthFile `json:"files"`
	OriginalDuration   pyFloat     `json:"original_duration"`
	OriginalNumSamples int         `json:"original_num_samples"`
}

type synthFile struct {
	Channels   int     `json:"channels"`
	SampleRate pyFloat `json:"sample_rate"`
	Bitdepth   int     `json:"bitdepth"`
	Bitrate    pyFloat `json:"bitrate"`
	Duration   pyFloat `json:"duration"`
	NumSamples int     `json:"num_samples"`
	Encoding   string  `json:"encoding"`
	Silent     bool    `json:"silent"`
	Fname      string  `json:"fname"`
	Speed      int     `json:"speed"`
}

func newSynthEntry(transcript, fname string, n int) synthEntry {
	dur := pyFloat(float64(n) / SampleRate)
	return synthEntry{
		Transcript: transcript,
		Files: []synthFile{{Channels: 1, SampleRate: SampleRate, Bitdepth: 16, Bitrate: 256000, Duration: dur,
			NumSamples: n, Encoding: "Signed Integer PCM", Fname: fname, Speed: 1}},
		OriginalDuration:   dur,
		OriginalNumSamples: n,
	}
}
