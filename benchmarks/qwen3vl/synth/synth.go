package synth

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// Options configures Write.
type Options struct {
	// Seed makes the output reproducible: the same seed and n give the same
	// bytes. Default 0 is a valid seed.
	Seed uint64
	// TestFraction is the share of samples in the test split; the rest are
	// train. Default 0.2 (values outside (0,1) mean the default).
	TestFraction float64
	// TrainOnly writes every sample into the train split, as the
	// Interactive scenario's 8k dataset (nvidia/Shopify-product-catalogue-8k)
	// has no test split; TestFraction is then ignored.
	TrainOnly bool
	// Shards is the number of shards per split. Default 1.
	Shards int
	// RowGroupSize is the rows per row group. Default 100, like the hub.
	RowGroupSize int
	// PNGFraction is the share of PNG images; the rest are JPEG. Zero means
	// the default 0.25; a negative value means no PNG.
	PNGFraction float64
	// DictionaryImages dictionary-encodes image bytes (see
	// ShardOptions). Default false.
	DictionaryImages bool
}

// Write writes n synthetic catalogue samples under dir/data/ as the hub names
// its shards: train-00000-of-0000N.parquet then test-... (train only with
// TrainOnly), in the hub's schema.
// Images are real JPEG and PNG files of 256-512 pixels a side (tens of KB);
// titles, descriptions, brands and " > "-separated category hierarchies look
// like the catalogue's and include the strings that are hard to quote right:
// apostrophes, double quotes, backslashes, newlines and tabs, non-ASCII,
// emoji, and HTML with script in descriptions. It returns the paths written.
func Write(dir string, n int, opts Options) ([]string, error) {
	if n <= 0 {
		return nil, fmt.Errorf("synth: sample count must be positive, got %d", n)
	}
	frac := opts.TestFraction
	if frac <= 0 || frac >= 1 {
		frac = 0.2
	}
	shards := max(opts.Shards, 1)
	rows, err := Rows(n, opts)
	if err != nil {
		return nil, err
	}
	nTest := int(float64(n) * frac)
	if n >= 2 {
		nTest = min(max(nTest, 1), n-1)
	}
	if opts.TrainOnly {
		nTest = 0
	}
	data := filepath.Join(dir, "data")
	if err := os.MkdirAll(data, 0o755); err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	var paths []string
	write := func(split string, rows []Row) error {
		for s := range shards {
			lo, hi := s*len(rows)/shards, (s+1)*len(rows)/shards
			p := filepath.Join(data, fmt.Sprintf("%s-%05d-of-%05d.parquet", split, s, shards))
			if err := WriteShard(p, rows[lo:hi], ShardOptions{RowGroupSize: opts.RowGroupSize, DictionaryImages: opts.DictionaryImages}); err != nil {
				return err
			}
			paths = append(paths, p)
		}
		return nil
	}
	if err := write("train", rows[:n-nTest]); err != nil {
		return nil, err
	}
	if nTest > 0 {
		if err := write("test", rows[n-nTest:]); err != nil {
			return nil, err
		}
	}
	return paths, nil
}

// Rows returns the n samples Write would write, in order (train rows
// first), generated on GOMAXPROCS goroutines; sample i depends only on the
// seed and i.
func Rows(n int, opts Options) ([]Row, error) {
	pngFrac := opts.PNGFraction
	if pngFrac == 0 {
		pngFrac = 0.25
	}
	rows := make([]Row, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var buf bytes.Buffer
			for i := range next {
				rows[i], errs[i] = makeRow(opts.Seed, i, pngFrac, &buf)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("synth: sample %d: %w", i, err)
		}
	}
	return rows, nil
}

func makeRow(seed uint64, i int, pngFrac float64, buf *bytes.Buffer) (Row, error) {
	rng := rand.New(rand.NewPCG(seed, uint64(i)*0x9E3779B97F4A7C15+1))
	pick := func(s []string) string { return s[rng.IntN(len(s))] }

	noun := nouns[rng.IntN(len(nouns))]
	brand := pick(brandNames)
	color := pick(colors)
	cat := categoryFor(noun.kind(), rng)
	title := fmt.Sprintf(pick(titleForms), brand, color, noun.name(), pick(sizeNames))
	secondhand := rng.Float64() < 0.15
	if secondhand && rng.IntN(2) == 0 {
		title = pick([]string{"Pre-owned ", "Used - ", "Vintage ", "Gently used "}) + title
	}
	desc := describe(rng, brand, color, noun.name(), secondhand)

	// Potential categories: the right one and 2-6 others, shuffled.
	cats := []string{cat}
	for k := 1 + rng.IntN(5); k >= 0; k-- {
		c := pick(allCategories)
		if !contains(cats, c) {
			cats = append(cats, c)
		}
	}
	rng.Shuffle(len(cats), func(a, b int) { cats[a], cats[b] = cats[b], cats[a] })

	usePNG := rng.Float64() < pngFrac
	img, name, err := makeImage(rng, usePNG, buf)
	if err != nil {
		return Row{}, err
	}
	return Row{
		Title:        title,
		Description:  desc,
		Image:        img,
		ImagePath:    fmt.Sprintf("%08x.%s", rng.Uint32(), name),
		Categories:   cats,
		Category:     cat,
		Brand:        strings.ToLower(brand),
		IsSecondhand: secondhand,
	}, nil
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// makeImage draws a product-like picture (a background gradient, a few
// shapes, sensor-like noise so JPEG does not collapse to a few KB) and
// encodes it. JPEGs are drawn straight into Y'CbCr 4:2:0, the encoder's
// native layout, which halves the cost of a sample.
func makeImage(rng *rand.Rand, usePNG bool, buf *bytes.Buffer) ([]byte, string, error) {
	p := newPicture(rng, usePNG)
	buf.Reset()
	if usePNG {
		if err := p.encodePNG(buf); err != nil {
			return nil, "", err
		}
		return bytes.Clone(buf.Bytes()), "png", nil
	}
	if err := p.encodeJPEG(buf); err != nil {
		return nil, "", err
	}
	return bytes.Clone(buf.Bytes()), "jpg", nil
}

// picture is what makeImage draws: rectangles of one colour on a
// background of another, with noise from a generator of its own.
type picture struct {
	w, h   int
	bg, fg [3]int
	// shapes[:nShapes] are the rectangles (an array, not a slice, so a
	// picture needs no allocation of its own).
	shapes  [4]pictureShape
	nShapes int
	// inShape[x] tells whether (x, y) is inside a shape, for the row y last
	// passed to row: shapes are filled by spans, not tested per pixel.
	inShape []bool
	// state is the noise generator's: xorshift is cheaper than rng per
	// pixel.
	state uint64
}

// pictureShape is a rectangle, corners x0,y0 (in) to x1,y1 (out).
type pictureShape struct{ x0, y0, x1, y1 int }

// newPicture draws the picture's size, colours, shapes and noise seed from
// rng, in that order (the order fixes the bytes a seed gives).
func newPicture(rng *rand.Rand, usePNG bool) picture {
	w, h := 256+rng.IntN(193), 256+rng.IntN(193)
	if usePNG {
		// PNG product shots are usually flat; keep them smaller so they
		// stay tens of KB, as in the catalogue.
		w, h = 256+rng.IntN(65), 256+rng.IntN(65)
	}
	bg := [3]int{128 + rng.IntN(128), 128 + rng.IntN(128), 128 + rng.IntN(128)}
	fg := [3]int{rng.IntN(200), rng.IntN(200), rng.IntN(200)}
	p := picture{w: w, h: h, bg: bg, fg: fg, nShapes: 1 + rng.IntN(4)}
	for k := range p.nShapes {
		x0, y0 := rng.IntN(w*3/4), rng.IntN(h*3/4)
		p.shapes[k] = pictureShape{x0, y0, x0 + w/8 + rng.IntN(w/2), y0 + h/8 + rng.IntN(h/2)}
	}
	p.inShape = make([]bool, w)
	p.state = rng.Uint64() | 1
	return p
}

// row sets inShape for row y.
func (p *picture) row(y int) {
	clear(p.inShape)
	for _, s := range p.shapes[:p.nShapes] {
		if y >= s.y0 && y < s.y1 {
			for x := s.x0; x < min(s.x1, p.w); x++ {
				p.inShape[x] = true
			}
		}
	}
}

// colorAt is the colour at x in the row last passed to row.
func (p *picture) colorAt(x int) [3]int {
	if p.inShape[x] {
		return p.fg
	}
	return p.bg
}

// noise returns the next noise value, in [-amp/2, amp/2].
func (p *picture) noise(amp int) int {
	p.state ^= p.state << 13
	p.state ^= p.state >> 7
	p.state ^= p.state << 17
	return int(p.state&0xff)*amp/255 - amp/2
}

func clampByte(v int) uint8 { return uint8(min(max(v, 0), 255)) }

// encodePNG draws the picture as RGBA with a faint diagonal gradient and
// writes it to buf as PNG.
func (p *picture) encodePNG(buf *bytes.Buffer) error {
	w, h := p.w, p.h
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		p.row(y)
		for x := range w {
			c := p.colorAt(x)
			o := (y*w + x) * 4
			for ch := range 3 {
				img.Pix[o+ch] = clampByte(c[ch] + (x+y)*ch/8%32 + p.noise(3))
			}
			img.Pix[o+3] = 0xff
		}
	}
	return (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(buf, img)
}

// encodeJPEG draws the picture as Y'CbCr 4:2:0 (luma with a gradient and
// noise, then chroma from every other row and column) and writes it to
// buf as JPEG.
func (p *picture) encodeJPEG(buf *bytes.Buffer) error {
	w, h := p.w, p.h
	img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	for y := range h {
		p.row(y)
		for x := range w {
			c := p.colorAt(x)
			luma := (299*c[0] + 587*c[1] + 114*c[2]) / 1000
			img.Y[y*img.YStride+x] = clampByte(luma + (x+y)/4%24 + p.noise(24))
		}
	}
	for y := range (h + 1) / 2 {
		p.row(2 * y)
		for x := range (w + 1) / 2 {
			c := p.colorAt(2 * x)
			cb := 128 + (-169*c[0]-331*c[1]+500*c[2])/1000
			cr := 128 + (500*c[0]-419*c[1]-81*c[2])/1000
			img.Cb[y*img.CStride+x] = clampByte(cb + p.noise(6))
			img.Cr[y*img.CStride+x] = clampByte(cr + p.noise(6))
		}
	}
	return jpeg.Encode(buf, img, &jpeg.Options{Quality: 85})
}
