package punkt

import (
	"bufio"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"sync"
)

// english is NLTK's punkt_tab English model, written by gen_punkt_tab.py
// (source and licence in data/README.md).
//
//go:embed data/english/*
var english embed.FS

// Params are a trained Punkt model: the four tables of a punkt_tab directory.
// Keys are lowercase word types as nltk stores them; a number-like token has
// the type "##number##".
type Params struct {
	// AbbrevTypes are abbreviations without their final period ("u.s", "dr").
	AbbrevTypes map[string]bool
	// Collocations are (type before a period, type after) pairs across which
	// the period does not end a sentence, e.g. ("##number##", "who").
	Collocations map[[2]string]bool
	// SentStarters are types that often start a sentence ("however").
	SentStarters map[string]bool
	// OrthoContext maps a type to the OR of the ortho* flags of the contexts
	// it was seen in; a missing type is 0.
	OrthoContext map[string]int
}

// Orthographic context flags (nltk.tokenize.punkt _ORTHO_*): where in a
// sentence (beginning, middle, unknown) a type was seen, and in which case.
const (
	orthoBegUC = 1 << 1
	orthoMidUC = 1 << 2
	orthoUnkUC = 1 << 3
	orthoBegLC = 1 << 4
	orthoMidLC = 1 << 5
	orthoUnkLC = 1 << 6
	orthoUC    = orthoBegUC + orthoMidUC + orthoUnkUC
	orthoLC    = orthoBegLC + orthoMidLC + orthoUnkLC
)

// EnglishParams returns NLTK's English punkt_tab model, compiled into the
// binary. The result is shared: do not modify it.
var EnglishParams = sync.OnceValue(func() *Params {
	p, err := ReadParams(english, "data/english")
	if err != nil {
		panic("punkt: embedded English model: " + err.Error())
	}
	return p
})

// ReadParams reads a punkt_tab model directory (abbrev_types.txt,
// collocations.tab, sent_starters.txt, ortho_context.tab) from fsys as
// nltk.tokenize.punkt.load_punkt_params does: one entry per line, fields split
// by tabs, nothing stripped but the line's newline.
func ReadParams(fsys fs.FS, dir string) (*Params, error) {
	p := &Params{
		AbbrevTypes:  map[string]bool{},
		Collocations: map[[2]string]bool{},
		SentStarters: map[string]bool{},
		OrthoContext: map[string]int{},
	}
	files := []struct {
		name   string
		fields int
		add    func(f []string) error
	}{
		{"abbrev_types.txt", 1, func(f []string) error { p.AbbrevTypes[f[0]] = true; return nil }},
		{"sent_starters.txt", 1, func(f []string) error { p.SentStarters[f[0]] = true; return nil }},
		{"collocations.tab", 2, func(f []string) error { p.Collocations[[2]string{f[0], f[1]}] = true; return nil }},
		{"ortho_context.tab", 2, func(f []string) error {
			n, err := strconv.Atoi(f[1])
			p.OrthoContext[f[0]] = n
			return err
		}},
	}
	for _, file := range files {
		name := path.Join(dir, file.name)
		if err := readLines(fsys, name, file.fields, file.add); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// readLines calls add with the tab-separated fields of each line of name,
// which must have exactly fields fields.
func readLines(fsys fs.FS, name string, fields int, add func([]string) error) error {
	f, err := fsys.Open(name)
	if err != nil {
		return fmt.Errorf("punkt model: %w (a punkt_tab directory needs abbrev_types.txt, collocations.tab, sent_starters.txt and ortho_context.tab)", err)
	}
	defer f.Close()
	r := bufio.NewReader(f)
	for line := 1; ; line++ {
		s, err := r.ReadString('\n')
		if err != nil && err != io.EOF {
			return fmt.Errorf("punkt model %s:%d: %w", name, line, err)
		}
		if s == "" && err == io.EOF {
			break
		}
		s = strings.TrimSuffix(s, "\n")
		parts := []string{s}
		if fields > 1 {
			parts = strings.Split(s, "\t")
		}
		if len(parts) != fields {
			return fmt.Errorf("punkt model %s:%d: want %d tab-separated fields, got %q", name, line, fields, s)
		}
		if err := add(parts); err != nil {
			return fmt.Errorf("punkt model %s:%d: %v", name, line, err)
		}
	}
	return nil
}
