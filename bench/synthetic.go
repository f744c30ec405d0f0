package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math/rand/v2"
	"strings"
)

// SyntheticOptions describe generated requests. Lengths and counts are
// drawn uniformly from [mean - spread, mean + spread].
type SyntheticOptions struct {
	// Requests is the number of conversations (default 100).
	Requests int
	// InputLen and InputSpread are the prompt length (default 256 ± 0):
	// tokens of Tokenizer exactly when it is set, else words, each a
	// common English word of one token in the usual BPE vocabularies, so
	// about as many tokens.
	InputLen, InputSpread int
	// Tokenizer, when set, makes InputLen exact in its tokens: prompts are
	// made of the words it encodes as one token each, and each prompt is
	// checked to encode to its drawn length.
	Tokenizer Encoder
	// OutputLen and OutputSpread are each request's output length in
	// tokens (default 128 ± 0).
	OutputLen, OutputSpread int
	// Images and ImagesSpread are image parts per first turn (default 0).
	Images, ImagesSpread int
	// ImageWidth and ImageHeight size the generated JPEG images (default
	// 512 x 512).
	ImageWidth, ImageHeight int
	// MultiTurn is turns after the first per conversation, each a new
	// prompt that carries the model's earlier replies.
	MultiTurn int
	// Seed seeds every draw (default 0).
	Seed uint64
}

// Encoder turns text into token IDs (a tokenizer.Tokenizer).
type Encoder interface {
	Encode(text string) ([]int, error)
}

// singleTokenWords are the prompt words enc encodes as one token both
// first in a prompt and after a space, so that a prompt of n of them,
// space-separated, is n tokens (pre-tokenizers split at the spaces).
func singleTokenWords(enc Encoder) ([]string, error) {
	var out []string
	for _, w := range promptWords {
		a, err := enc.Encode(w)
		if err != nil {
			return nil, err
		}
		b, err := enc.Encode(" " + w)
		if err != nil {
			return nil, err
		}
		if len(a) == 1 && len(b) == 1 {
			out = append(out, w)
		}
	}
	if len(out) < 16 {
		return nil, fmt.Errorf("synthetic workload: the tokenizer encodes only %d of the %d prompt words as one token; token-exact prompts need more (drop --tokenizer to count words)", len(out), len(promptWords))
	}
	return out, nil
}

// maxSynthImages is how many distinct images a synthetic workload makes;
// requests take them in turn.
const maxSynthImages = 16

// promptWords are the synthetic prompts' vocabulary.
var promptWords = strings.Fields(`the of and to in is that for it as was with be by on not he this are or his from at which but have
an had they you were their one all we can her has there been if more when will would who so no time year people way day man thing
woman life child world school state family student group country problem hand part place case week company system program question
work government number night point home water room mother area money story fact month lot right study book eye job word business`)

// Synthetic generates a workload.
func Synthetic(o SyntheticOptions) (*Workload, error) {
	if o.Requests == 0 {
		o.Requests = 100
	}
	if o.InputLen == 0 {
		o.InputLen = 256
	}
	if o.OutputLen == 0 {
		o.OutputLen = 128
	}
	if o.ImageWidth == 0 {
		o.ImageWidth = 512
	}
	if o.ImageHeight == 0 {
		o.ImageHeight = 512
	}
	switch {
	case o.Requests < 0:
		return nil, fmt.Errorf("synthetic workload: --requests %d: want at least 1", o.Requests)
	case o.MultiTurn < 0:
		return nil, fmt.Errorf("synthetic workload: --multi-turn %d: want 0 or more", o.MultiTurn)
	case o.ImageWidth < 1 || o.ImageHeight < 1:
		return nil, fmt.Errorf("synthetic workload: --image-size %dx%d: want both sides at least 1", o.ImageWidth, o.ImageHeight)
	}
	if err := checkDraws(
		drawn{what: "prompt lengths", meanFlag: "--input-len", rangeFlag: "--input-len-range", mean: o.InputLen, half: o.InputSpread, least: 1},
		drawn{what: "output lengths", meanFlag: "--output-len", rangeFlag: "--output-len-range", mean: o.OutputLen, half: o.OutputSpread, least: 1},
		drawn{what: "image counts", meanFlag: "--images", rangeFlag: "--images-range", mean: o.Images, half: o.ImagesSpread},
	); err != nil {
		return nil, fmt.Errorf("synthetic workload: %w", err)
	}
	words, unit, err := promptVocabulary(o.Tokenizer)
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(o.Seed, 0x5eed))
	draw := func(mean, spread int) int { return mean - spread + r.IntN(2*spread+1) }
	var pool []string
	if o.Images+o.ImagesSpread > 0 {
		n := min(maxSynthImages, o.Requests*(o.Images+o.ImagesSpread))
		for i := range n {
			b, err := noiseJPEG(o.ImageWidth, o.ImageHeight, o.Seed+uint64(i))
			if err != nil {
				return nil, err
			}
			pool = append(pool, dataURL("image/jpeg", b))
		}
	}
	w := &Workload{Kind: "synthetic", MultiTurn: o.MultiTurn, Facts: map[string]any{
		"input_len": o.InputLen, "input_spread": o.InputSpread, "output_len": o.OutputLen, "output_spread": o.OutputSpread,
		"images": o.Images, "images_spread": o.ImagesSpread, "image_size": fmt.Sprintf("%dx%d", o.ImageWidth, o.ImageHeight), "seed": o.Seed,
		"input_unit": unit}, AskedPrompt: &AskedPrompt{Length: o.InputLen, Unit: unit, Flags: "--input-len"}}
	next := 0
	for i := range o.Requests {
		c := Conversation{ID: fmt.Sprintf("synthetic-%d", i)}
		out := draw(o.OutputLen, o.OutputSpread)
		for t := range o.MultiTurn + 1 {
			n := draw(o.InputLen, o.InputSpread)
			text := drawWords(r, words, n)
			if err := checkTokens(o.Tokenizer, text, n); err != nil {
				return nil, err
			}
			var urls []string
			if t == 0 {
				for range draw(o.Images, o.ImagesSpread) {
					urls = append(urls, pool[next%len(pool)])
					next++
				}
			}
			c.Turns = append(c.Turns, Turn{Messages: []json.RawMessage{userMessage(text, urls)}, MaxTokens: out, Images: len(urls)})
		}
		w.Conversations = append(w.Conversations, c)
	}
	return w, nil
}

// noiseJPEG is a w x h JPEG of seeded noise: incompressible, so its size
// is a real photo's.
func noiseJPEG(w, h int, seed uint64) ([]byte, error) {
	r := rand.New(rand.NewPCG(seed, 0x1a6e))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			v := r.Uint32()
			img.SetRGBA(x, y, color.RGBA{uint8(v), uint8(v >> 8), uint8(v >> 16), 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
