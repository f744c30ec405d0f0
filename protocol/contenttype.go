package protocol

// BodyTyper is a Protocol whose request bodies are not JSON (the default
// Content-Type is application/json). ContentType returns the Content-Type
// header of the body that begins with head: the body's shared prefix, or
// the body itself when it has none (see qsl.Library.SharePrefix). A
// multipart body's type names its boundary, which differs per body, so it
// is read from the body rather than fixed per protocol.
type BodyTyper interface {
	ContentType(head []byte) string
}

// AudioEncoder is a Protocol whose requests carry an audio file.
type AudioEncoder interface {
	// EncodeAudio builds the request body for one audio file: its bytes as
	// stored, and a name for it. model may be empty where the protocol does
	// not need one; params must be the protocol's own type
	// (DefaultParams).
	EncodeAudio(model, filename string, audio []byte, params Params) ([]byte, error)
}
