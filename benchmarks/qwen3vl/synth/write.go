package synth

import (
	"fmt"
	"os"
	"slices"

	"github.com/parquet-go/parquet-go"
)

// The catalogue's column names, as in the Hugging Face dataset Shopify/product-catalogue.
const (
	ColTitle        = "product_title"
	ColDescription  = "product_description"
	ColImage        = "product_image"
	ColCategories   = "potential_product_categories"
	ColCategory     = "ground_truth_category"
	ColBrand        = "ground_truth_brand"
	ColIsSecondhand = "ground_truth_is_secondhand"
)

// Row is one product of the catalogue.
type Row struct {
	Title, Description string
	// Image holds the encoded image file (JPEG, PNG...); ImagePath is the
	// datasets Image feature's path field (often the original file name).
	Image     []byte
	ImagePath string
	// Categories are the potential categories; Category is the right one.
	Categories      []string
	Category, Brand string
	IsSecondhand    bool
	// Null names columns to write as null instead of their value (for
	// ColImage: a null bytes field). Empty normally.
	Null []string
}

// ShardOptions configures WriteShard.
type ShardOptions struct {
	// RowGroupSize is the rows per row group. Default 100, what the datasets
	// library uses for image datasets it pushes to the hub.
	RowGroupSize int
	// DictionaryImages dictionary-encodes the image bytes column. pyarrow
	// tries dictionary encoding first and falls back to plain once the
	// dictionary is large, so hub shards hold both kinds of pages; this lets
	// tests exercise the dictionary path. Default false (plain).
	DictionaryImages bool
}

// hubImage and hubRow give the hub's parquet schema, as pyarrow writes it:
// every field optional, the image a struct{bytes binary, path string}, the
// categories a 3-level LIST of optional strings. The two row types differ
// only in the image bytes encoding.
type hubImage struct {
	Bytes []byte  `parquet:"bytes,optional"`
	Path  *string `parquet:"path,optional"`
}

type hubImageDict struct {
	Bytes []byte  `parquet:"bytes,optional,dict"`
	Path  *string `parquet:"path,optional"`
}

type hubRowOf[I any] struct {
	ProductTitle               *string   `parquet:"product_title,optional,dict"`
	ProductDescription         *string   `parquet:"product_description,optional,dict"`
	ProductImage               *I        `parquet:"product_image,optional"`
	PotentialProductCategories []*string `parquet:"potential_product_categories,optional,list,dict"`
	GroundTruthCategory        *string   `parquet:"ground_truth_category,optional,dict"`
	GroundTruthBrand           *string   `parquet:"ground_truth_brand,optional,dict"`
	GroundTruthIsSecondhand    *bool     `parquet:"ground_truth_is_secondhand,optional"`
}

// hubFeatures is the "huggingface" key-value metadata the datasets
// library stores in each shard, describing the features.
const hubFeatures = `{"info": {"features": {"product_title": {"dtype": "string", "_type": "Value"}, "product_description": {"dtype": "string", "_type": "Value"}, "product_image": {"_type": "Image"}, "potential_product_categories": {"feature": {"dtype": "string", "_type": "Value"}, "_type": "Sequence"}, "ground_truth_category": {"dtype": "string", "_type": "Value"}, "ground_truth_brand": {"dtype": "string", "_type": "Value"}, "ground_truth_is_secondhand": {"dtype": "bool", "_type": "Value"}}}}`

// WriteShard writes rows as one parquet shard at path, in the schema of
// the hub's Shopify/product-catalogue shards (snappy-compressed like
// pyarrow's).
func WriteShard(path string, rows []Row, opts ShardOptions) error {
	if opts.DictionaryImages {
		return writeShard[hubImageDict](path, rows, opts, func(b []byte, p *string) *hubImageDict {
			return &hubImageDict{Bytes: b, Path: p}
		})
	}
	return writeShard[hubImage](path, rows, opts, func(b []byte, p *string) *hubImage {
		return &hubImage{Bytes: b, Path: p}
	})
}

func writeShard[I any](path string, rows []Row, opts ShardOptions, image func([]byte, *string) *I) (err error) {
	size := opts.RowGroupSize
	if size <= 0 {
		size = 100
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("synth: %w", cerr)
		}
	}()
	g := &rowGroupWriter[I]{
		w: parquet.NewGenericWriter[hubRowOf[I]](f,
			parquet.MaxRowsPerRowGroup(int64(size)),
			parquet.Compression(&parquet.Snappy),
			parquet.KeyValueMetadata("huggingface", hubFeatures),
			// pyarrow, which writes the hub's shards, leaves out the
			// min/max of values over 4 KB (max_statistics_size): two
			// whole images per row group in the footer, which readers
			// keep in memory with the file open.
			parquet.SkipPageBounds("product_image", "bytes"),
		),
		path:  path,
		batch: make([]hubRowOf[I], 0, size),
	}
	for i := range rows {
		if err := g.add(hubRow(&rows[i], image)); err != nil {
			return err
		}
	}
	if err := g.flush(); err != nil {
		return err
	}
	if err := g.w.Close(); err != nil {
		return fmt.Errorf("synth: writing %s: %w", path, err)
	}
	return nil
}

// hubRow is r in the hub's schema, with the columns r.Null names null.
// The image's path field is a copy of r.ImagePath; the other fields point
// into r.
func hubRow[I any](r *Row, image func([]byte, *string) *I) hubRowOf[I] {
	null := func(col string) bool { return slices.Contains(r.Null, col) }
	str := func(col, s string) *string {
		if null(col) {
			return nil
		}
		return &s
	}
	hr := hubRowOf[I]{
		ProductTitle:        str(ColTitle, r.Title),
		ProductDescription:  str(ColDescription, r.Description),
		GroundTruthCategory: str(ColCategory, r.Category),
		GroundTruthBrand:    str(ColBrand, r.Brand),
	}
	if !null(ColIsSecondhand) {
		hr.GroundTruthIsSecondhand = &r.IsSecondhand
	}
	var img []byte
	if !null(ColImage) {
		img = r.Image
		if img == nil {
			img = []byte{}
		}
	}
	p := r.ImagePath
	hr.ProductImage = image(img, &p)
	if !null(ColCategories) {
		hr.PotentialProductCategories = make([]*string, len(r.Categories))
		for k := range r.Categories {
			hr.PotentialProductCategories[k] = &r.Categories[k]
		}
	}
	return hr
}

// rowGroupWriter writes rows in batches of a row group each, so every row
// group has the size asked for.
type rowGroupWriter[I any] struct {
	w     *parquet.GenericWriter[hubRowOf[I]]
	path  string
	batch []hubRowOf[I] // capacity: the row group size
}

// add queues a row, writing the row group once it is full.
func (g *rowGroupWriter[I]) add(hr hubRowOf[I]) error {
	g.batch = append(g.batch, hr)
	if len(g.batch) == cap(g.batch) {
		return g.flush()
	}
	return nil
}

// flush writes the queued rows as one row group.
func (g *rowGroupWriter[I]) flush() error {
	if len(g.batch) == 0 {
		return nil
	}
	if _, err := g.w.Write(g.batch); err != nil {
		return fmt.Errorf("synth: writing %s: %w", g.path, err)
	}
	if err := g.w.Flush(); err != nil { // end the row group
		return fmt.Errorf("synth: writing %s: %w", g.path, err)
	}
	clear(g.batch)
	g.batch = g.batch[:0]
	return nil
}
