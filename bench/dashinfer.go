package bench

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // image sizes for DashInfer's pixel filter
	_ "image/png"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mlperf-go/mlperf-go/bench/internal/pyrandom"
	"github.com/mlperf-go/mlperf-go/internal/dirwalk"
	"github.com/mlperf-go/mlperf-go/internal/jsonenc"
)

// DashInfer-VLM's benchmark_openai_api.py (modelscope/dash-infer,
// multimodal/tests) builds its requests this way, and DashInferOptions
// keeps its flags' meanings: a conversation file of InternVL/LLaVA-style
// records, an image folder, per-request output lengths and image counts
// drawn by Python's random module seeded 0xCADE, and --multi-turn N extra
// turns per request that carry the model's own earlier replies.

// DashInfer's defaults (its argparse defaults and constants).
const (
	// DashInferSeed is the script's random.seed(0xCADE).
	DashInferSeed = 0xCADE
	// DashInferMaxImagePixels is its filter: images larger than
	// 28*28*1024 pixels are skipped.
	DashInferMaxImagePixels = 28 * 28 * 1024
)

// DashInferSampling is what the script sends with every request besides
// max_tokens.
var DashInferSampling = json.RawMessage(`{"temperature":0.1,"top_p":0.01,"frequency_penalty":1.05}`)

// DashInferOptions are the script's knobs. Ranges are the script's: a
// length is drawn uniformly from [mean - range/2, mean + range/2] (integer
// division), and a range of 0 draws nothing, so "--response-len-range 64"
// is 120 ± 32 and "--image-nums-range 1" always gives the mean.
type DashInferOptions struct {
	// PromptFile is the conversation JSONL (--prompt-file): records with
	// "conversations": [{"from", "value"}, …], human and gpt alternating;
	// "<image>\n" is removed from the human turns.
	PromptFile string
	// ImageFolder is searched recursively for .jpg, .jpeg and .png files
	// (--image-folder), taken in path order.
	ImageFolder string
	// Requests is --req-nums (default 100): conversations to build.
	Requests int
	// MultiTurn is --multi-turn: turns after the first in each
	// conversation.
	MultiTurn int
	// ResponseMean and ResponseRange are --response-mean (120) and
	// --response-len-range (64): the output length of each conversation's
	// turns.
	ResponseMean, ResponseRange int
	// ImagesMean and ImagesRange are --image-nums-mean (3) and
	// --image-nums-range (1): image count of each conversation's first
	// turn.
	ImagesMean, ImagesRange int
	// Seed seeds the draws (default DashInferSeed).
	Seed uint64
	// FileURLs sends images as file:// URLs, as the script does (the
	// server reads them: vLLM --allowed-local-media-path); otherwise they
	// go as base64 data URLs with their bytes unchanged.
	FileURLs bool
	// MaxImagePixels skips larger images (default DashInferMaxImagePixels;
	// negative: no limit).
	MaxImagePixels int
}

// DashInferDefaults returns the script's defaults.
func DashInferDefaults() DashInferOptions {
	return DashInferOptions{Requests: 100, ResponseMean: 120, ResponseRange: 64, ImagesMean: 3, ImagesRange: 1,
		Seed: DashInferSeed, MaxImagePixels: DashInferMaxImagePixels}
}

// drawLens is the script's gen_random_lens("uniform", mean, rng, n).
func drawLens(r *pyrandom.Rand, mean, rng, n int) []int {
	out := make([]int, n)
	for i := range out {
		if rng == 0 {
			out[i] = mean
		} else {
			out[i] = r.Randint(mean-rng/2, mean+rng/2)
		}
	}
	return out
}

// LoadDashInfer builds the script's requests.
func LoadDashInfer(o DashInferOptions) (*Workload, error) {
	if o.Requests < 1 {
		return nil, fmt.Errorf("dashinfer workload: --requests (--req-nums) %d: want at least 1", o.Requests)
	}
	if o.MultiTurn < 0 {
		return nil, fmt.Errorf("dashinfer workload: --multi-turn %d: want 0 or more", o.MultiTurn)
	}
	if err := checkDraws(
		drawn{"output lengths", "--output-len (--response-mean)", "--output-len-range (--response-len-range)", o.ResponseMean, o.ResponseRange / 2, 1, "64, DashInfer's"},
		drawn{"image counts", "--images (--image-nums-mean)", "--images-range (--image-nums-range)", o.ImagesMean, o.ImagesRange / 2, 0, "1, DashInfer's"},
	); err != nil {
		return nil, fmt.Errorf("dashinfer workload: %w", err)
	}
	qa, err := readDashInferConversations(o.PromptFile)
	if err != nil {
		return nil, err
	}
	need := o.Requests * (o.MultiTurn + 1)
	if len(qa) < need {
		return nil, fmt.Errorf("%s: %d question-answer pairs, but %d requests of %d turns need %d", o.PromptFile, len(qa), o.Requests, o.MultiTurn+1, need)
	}
	r := pyrandom.New(o.Seed)
	outLens := drawLens(r, o.ResponseMean, o.ResponseRange, o.Requests)
	imgNums := drawLens(r, o.ImagesMean, o.ImagesRange, o.Requests)
	images, err := listImages(o.ImageFolder, o.MaxImagePixels)
	if err != nil {
		return nil, err
	}
	urls := imageURLs{file: o.FileURLs, cache: map[string]string{}}
	w := &Workload{Kind: "dashinfer", Source: o.PromptFile, MultiTurn: o.MultiTurn, Sampling: DashInferSampling,
		Facts: map[string]any{"image_folder": o.ImageFolder, "images_found": len(images), "seed": o.Seed,
			"response_mean": o.ResponseMean, "response_len_range": o.ResponseRange,
			"image_nums_mean": o.ImagesMean, "image_nums_range": o.ImagesRange}}
	imgIdx, reused := 0, false
	for i := range o.Requests {
		c := Conversation{ID: fmt.Sprintf("dashinfer-%d", i)}
		var parts []string
		for k := range imgNums[i] {
			if len(images) == 0 {
				return nil, fmt.Errorf("%s: no usable .jpg, .jpeg or .png image (at most %d pixels) for requests with images", o.ImageFolder, o.MaxImagePixels)
			}
			j := imgIdx + k
			reused = reused || j >= len(images)
			u, err := urls.get(images[j%len(images)])
			if err != nil {
				return nil, err
			}
			parts = append(parts, u)
		}
		imgIdx += imgNums[i]
		slices.Reverse(parts) // the script pops its image list from the end
		for t := range o.MultiTurn + 1 {
			pair := qa[len(qa)-1] // conversations.pop()
			qa = qa[:len(qa)-1]
			turn := Turn{MaxTokens: outLens[i]}
			if t == 0 {
				turn.Messages = []json.RawMessage{userMessage(pair[0], parts)}
				turn.Images = len(parts)
			} else {
				turn.Messages = []json.RawMessage{userMessage(pair[0], nil)}
			}
			c.Turns = append(c.Turns, turn)
		}
		w.Conversations = append(w.Conversations, c)
	}
	w.Facts["images_reused"] = reused
	return w, nil
}

// readDashInferConversations is the script's get_conv over the records'
// "conversations": every (human, gpt) pair in order, "<image>\n" removed
// from the human side.
func readDashInferConversations(path string) ([][2]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("dashinfer workload: %w (--prompt-file)", err)
	}
	defer f.Close()
	var qa [][2]string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(strings.TrimSpace(string(b))) == 0 {
			continue
		}
		var rec struct {
			Conversations []struct {
				From  string `json:"from"`
				Value string `json:"value"`
			} `json:"conversations"`
		}
		if err := json.Unmarshal(b, &rec); err != nil {
			return nil, fmt.Errorf("%s:%d: %v (want a JSON object with \"conversations\": [{\"from\", \"value\"}, …])", path, line, err)
		}
		c := rec.Conversations
		for i := 0; i+1 < len(c); i += 2 {
			qa = append(qa, [2]string{strings.ReplaceAll(c[i].Value, "<image>\n", ""), c[i+1].Value})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return qa, nil
}

// listImages finds the .jpg, .jpeg and .png files under dir (the script's
// case-sensitive endswith), in path order, skipping those with more than
// maxPixels pixels (negative: no limit) and those that do not decode.
func listImages(dir string, maxPixels int) ([]string, error) {
	if dir == "" {
		return nil, nil
	}
	var out []string
	// The script's os.walk(args.image_folder) lists a folder reached
	// through a symbolic link and linked image files, but does not go into
	// linked subfolders (followlinks=False): the same images here.
	err := dirwalk.Walk(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != dir {
			if st, err := os.Lstat(p); err == nil && st.Mode()&fs.ModeSymlink != 0 {
				return filepath.SkipDir
			}
		}
		if d.IsDir() || !(strings.HasSuffix(p, ".jpg") || strings.HasSuffix(p, ".jpeg") || strings.HasSuffix(p, ".png")) {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		cfg, _, derr := image.DecodeConfig(f)
		f.Close()
		if derr != nil || (maxPixels >= 0 && cfg.Width*cfg.Height > maxPixels) {
			return nil
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("dashinfer workload: --image-folder: %w", err)
	}
	return out, nil
}

// imageURLs turns image files into the URLs requests carry, each once.
type imageURLs struct {
	file  bool
	cache map[string]string
}

func (u *imageURLs) get(path string) (string, error) {
	if s, ok := u.cache[path]; ok {
		return s, nil
	}
	var s string
	if u.file {
		abs, err := filepath.Abs(path)
		if err != nil {
			return "", err
		}
		s = "file://" + abs
	} else {
		b, err := os.ReadFile(path)
		if err != nil {
			return "", fmt.Errorf("dashinfer workload: %w", err)
		}
		s = dataURL(mimeOf(path), b)
	}
	u.cache[path] = s
	return s, nil
}

func mimeOf(path string) string {
	if strings.HasSuffix(strings.ToLower(path), ".png") {
		return "image/png"
	}
	return "image/jpeg"
}

// dataURL is a base64 data URL of b.
func dataURL(mime string, b []byte) string {
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(b)
}

// userMessage is a user message as the script writes it: a text part,
// then an image_url part per URL.
func userMessage(text string, imageURLs []string) json.RawMessage {
	b := append([]byte(nil), `{"role":"user","content":[{"type":"text","text":`...)
	b = jsonenc.AppendString(b, text)
	b = append(b, '}')
	for _, u := range imageURLs {
		b = append(b, `,{"type":"image_url","image_url":{"url":`...)
		b = jsonenc.AppendString(b, u)
		b = append(b, "}}"...)
	}
	return append(b, "]}"...)
}

// assistantMessage is the model's reply as the script carries it in later
// turns: a text part.
func assistantMessage(dst []byte, text string) []byte {
	dst = append(dst, `{"role":"assistant","content":[{"type":"text","text":`...)
	dst = jsonenc.AppendString(dst, text)
	return append(dst, "}]}"...)
}

var errNoWorkload = errors.New("no workload: give --prompt-file (DashInfer), --agentic, --benchmark with --dataset, or --synthetic")
