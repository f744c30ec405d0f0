package whispernorm

import (
	_ "embed"
	"encoding/json"
	"strings"
	"sync"
)

// englishJSON is whisper's British-to-American spelling table, the file
// EnglishSpellingNormalizer loads (see english.json.LICENSE for its source
// and licence).
//
//go:embed english.json
var englishJSON []byte

var spellings = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	if err := json.Unmarshal(englishJSON, &m); err != nil {
		panic("whispernorm: the embedded english.json does not decode: " + err.Error())
	}
	return m
})

// standardizeSpellings is EnglishSpellingNormalizer.__call__: each
// whitespace-separated word mapped through the table, joined by spaces.
func standardizeSpellings(s string) string {
	m := spellings()
	ws := split(s)
	for i, w := range ws {
		if r, ok := m[w]; ok {
			ws[i] = r
		}
	}
	return strings.Join(ws, " ")
}
