package tokenizer

// encoder holds what Encode needs; err says why a tokenizer cannot encode.
type encoder struct {
	vocab map[string]int
	added map[string]int
	err   error
}

func newJSONEncoder(f *hfFile, m hfModel, av *addedVocab) *encoder {
	return &encoder{vocab: m.Vocab, added: av.byContent}
}

func newTiktokenEncoder(ranks [][]byte, added map[string]int) *encoder {
	return &encoder{added: added}
}
