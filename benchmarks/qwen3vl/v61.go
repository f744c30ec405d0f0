package qwen3vl

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mlperf-go/mlperf-go/internal/jsonenc"
	"github.com/mlperf-go/mlperf-go/protocol/openaichat"
	"github.com/mlperf-go/mlperf-go/qsl"
)

// Round v6.1's Qwen3-VL requests. The v6.1 reference harness is
// mlcommons/endpoints, not the LoadGen harness of multimodal/qwen3-vl
// (v6.0's, prompt.go): its ShopifyMultimodalFormatter
// (dataset_manager/predefined/shopify_product_catalogue/presets.py) builds
// the prompt, and OpenAIMsgspecAdapter (openai/openai_msgspec_adapter.py)
// encodes the request with msgspec. What differs from v6.0:
//   - the system prompt's typos are fixed ("specific", "following") and its
//     schema is the model_json_schema() of a ProductMetadata without field
//     descriptions (metadata.py; the class docstring is the description);
//   - the categories are json.dumps(list) (double quotes, non-ASCII as
//     \uXXXX), not Python's repr;
//   - the body is msgspec's encoding of ChatCompletionRequest: members in
//     its field order (model, messages, temperature, max_completion_tokens,
//     stream, seed, top_p, top_k, repetition_penalty, presence_penalty,
//     frequency_penalty), unset fields left out, messages as {"role",
//     "content"} and parts as {"type", ...}; strings escaped as msgspec does
//     (jsonenc.AppendShort); max_completion_tokens 150 (the example configs'
//     max_new_tokens) and no sampling field; "stream": true when streaming,
//     without stream_options.
//
// Images keep their original bytes, as for v6.0 (see Dataset).

// schemaV61 is endpoints' ProductMetadata.model_json_schema() in
// pydantic's key order, compact.
const schemaV61 = `{"additionalProperties":false,"description":"JSON format for expected VLM responses (matches MLCommons Q3VL schema).\n\nReference: https://github.com/mlcommons/inference/blob/master/multimodal/qwen3-vl/src/mlperf_inf_mm_q3vl/schema.py","properties":{"category":{"title":"Category","type":"string"},"brand":{"title":"Brand","type":"string"},"is_secondhand":{"title":"Is Secondhand","type":"boolean"}},"required":["category","brand","is_secondhand"],"title":"ProductMetadata","type":"object"}`

// The system prompt of ShopifyMultimodalFormatter.process_row around
// json.dumps(schema, indent=2): v6.0's with its two typos fixed.
var systemHeadV61 = strings.NewReplacer("specifc\n", "specific\n", "followng JSON", "following JSON").Replace(systemHead)

// na is what process_row's f-string writes for a null title or
// description: endpoints reads its parquet with dtype_backend="pyarrow", so
// a null string is pandas.NA, whose str() is "<NA>" (checked with pandas
// 3.1). v6.0 writes Python's None there.
const na = "<NA>"

var systemPromptV61 = func() string {
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(schemaV61), "", "  "); err != nil {
		panic("qwen3vl: v6.1 schema constant is not JSON: " + err.Error())
	}
	return systemHeadV61 + b.String() + systemTail
}()

// SystemPromptV61 returns the system message round v6.1's reference
// (mlcommons/endpoints) sends with every Qwen3-VL sample.
func SystemPromptV61() string { return systemPromptV61 }

// UserTextV61 returns the text part of sample i's user message as round
// v6.1's reference writes it: v6.0's template around the title, the
// description and json.dumps of the category list (ensure_ascii, so
// non-ASCII characters as \uXXXX). A null title or description is written
// "<NA>", a null list "null" and a null element null, as endpoints does.
func (d *Dataset) UserTextV61(i int) string {
	r := &d.rows[i]
	title, desc := r.title, r.desc
	if r.nulls&nullTitle != 0 {
		title = na
	}
	if r.nulls&nullDesc != 0 {
		desc = na
	}
	cats := "null"
	if r.nulls&nullCats == 0 {
		cats = string(appendPyJSONList(nil, r.cats, r.catNulls))
	}
	return formatUserText(title, desc, cats)
}

// appendPyJSONList appends Python's json.dumps(items) (default separators
// ", " and ensure_ascii); indices in nulls are None, written null.
func appendPyJSONList(dst []byte, items []string, nulls []int32) []byte {
	dst = append(dst, '[')
	for i, s := range items {
		if i > 0 {
			dst = append(dst, ',', ' ')
		}
		if len(nulls) > 0 && slices.Contains(nulls, int32(i)) {
			dst = append(dst, "null"...)
			continue
		}
		dst = appendPyJSONString(dst, s)
	}
	return append(dst, ']')
}

// appendPyJSONString appends Python's json.dumps(s) with ensure_ascii (its
// C encoder, ascii_escape_unicode): printable ASCII but `"` and `\` copied;
// \" \\ \b \f \n \r \t; everything else, DEL and non-ASCII included, as
// lowercase \uXXXX, characters above U+FFFF as a surrogate pair. Each byte of
// s that is not UTF-8 is written as the lone surrogate \udcNN that Python's
// surrogateescape would give it (the reader rejects such text at open).
// It is json.dumps, not repr (internal/pyrepr, v6.0's prompt): the two
// escape different characters differently, so they stay apart.
func appendPyJSONString(dst []byte, s string) []byte {
	const pyLowerHex = "0123456789abcdef"
	u4 := func(dst []byte, r rune) []byte {
		return append(dst, '\\', 'u', pyLowerHex[r>>12&0xf], pyLowerHex[r>>8&0xf], pyLowerHex[r>>4&0xf], pyLowerHex[r&0xf])
	}
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\b':
				dst = append(dst, `\b`...)
			case c == '\f':
				dst = append(dst, `\f`...)
			case c == '\n':
				dst = append(dst, `\n`...)
			case c == '\r':
				dst = append(dst, `\r`...)
			case c == '\t':
				dst = append(dst, `\t`...)
			case c < ' ' || c == 0x7f:
				dst = u4(dst, rune(c))
			default:
				dst = append(dst, c)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = u4(dst, 0xdc00+rune(c))
		case r > 0xffff:
			r -= 0x10000
			dst = u4(dst, 0xd800+r>>10)
			dst = u4(dst, 0xdc00+r&0x3ff)
		default:
			dst = u4(dst, r)
		}
		i += size
	}
	return append(dst, '"')
}

// ParamsV61 are the sampling fields a round v6.1 request may carry:
// those of endpoints' ChatCompletionRequest that mlperf-go sets, as
// openaichat's tools requests carry them (both are msgspec's encoding of
// the same struct). nil fields are left out, as msgspec omits None.
// DefaultParamsV61 gives the reference's.
type ParamsV61 = openaichat.MsgspecSampling

// MaxCompletionTokensV61 is the max_completion_tokens of round v6.1's
// reference (max_new_tokens: 150 in endpoints'
// examples/08_Qwen3-VL-235B-A22B_Example configs).
const MaxCompletionTokensV61 = 150

// DefaultParamsV61 returns the reference's: max_completion_tokens 150
// and no sampling field (the server's generation_config applies).
func DefaultParamsV61() ParamsV61 {
	n := MaxCompletionTokensV61
	return ParamsV61{MaxCompletionTokens: &n}
}

// RequestV61 encodes round v6.1's /v1/chat/completions bodies.
type RequestV61 struct {
	// Model is the served model name ("model" is always sent, as endpoints
	// does).
	Model string
	// Params are the fields after the messages.
	Params ParamsV61
	// Stream adds "stream": true.
	Stream bool
}

// Prefix returns the bytes every body begins with: the model, the system
// message and the start of the user text, for Library.SharePrefix.
func (q RequestV61) Prefix() []byte {
	b := q.appendHead(nil)
	return b[:len(b):len(b)]
}

func (q RequestV61) appendHead(dst []byte) []byte {
	dst = append(dst, `{"model":`...)
	dst = jsonenc.AppendShort(dst, q.Model)
	dst = append(dst, `,"messages":[{"role":"system","content":`...)
	dst = jsonenc.AppendShort(dst, systemPromptV61)
	dst = append(dst, `},{"role":"user","content":[{"type":"text","text":"`...)
	return jsonenc.AppendShortBody(dst, userTitle)
}

// AppendBody appends the body for a user text (which must begin with the
// template's first line, as UserTextV61's does) and an image given by its
// Pillow format name and its bytes.
func (q RequestV61) AppendBody(dst []byte, userText, imageFormat string, img []byte) ([]byte, error) {
	rest, ok := strings.CutPrefix(userText, userTitle)
	if !ok {
		return nil, fmt.Errorf("qsl q3vl: user text %.40q does not begin with the template's %q", userText, userTitle)
	}
	dst = q.appendHead(dst)
	dst = jsonenc.AppendShortBody(dst, rest)
	dst = append(dst, `"},{"type":"image_url","image_url":{"url":"data:image/`...)
	dst = jsonenc.AppendShortBody(dst, imageFormat)
	dst = append(dst, ";base64,"...)
	n := len(dst)
	dst = slices.Grow(dst, base64.StdEncoding.EncodedLen(len(img)))[:n+base64.StdEncoding.EncodedLen(len(img))]
	base64.StdEncoding.Encode(dst[n:], img)
	dst = append(dst, `"}}]}]`...)
	return q.appendParams(dst)
}

// appendParams appends the fields after the messages, in
// ChatCompletionRequest's order, and closes the body.
func (q RequestV61) appendParams(dst []byte) ([]byte, error) {
	dst, err := q.Params.AppendMsgspec(dst, q.Stream)
	if err != nil {
		return nil, fmt.Errorf("qsl q3vl: %w", err)
	}
	return append(dst, '}'), nil
}

// BuilderV61 returns a Builder whose bodies are round v6.1's requests
// (q), built from each sample's UserTextV61 and original image bytes; it
// reads row groups as Builder does.
func (d *Dataset) BuilderV61(q RequestV61) qsl.Builder {
	return &builderV61{d: d, q: q}
}

type builderV61 struct {
	d *Dataset
	q RequestV61
}

// Build implements qsl.Builder.
func (b *builderV61) Build(indices []int, emit func(index int, body []byte)) error {
	var emitMu sync.Mutex
	scratch := sync.Pool{New: func() any { return new([]byte) }}
	return b.d.load(indices, func(index int, img []byte) error {
		sp := scratch.Get().(*[]byte)
		defer scratch.Put(sp)
		body, err := b.q.AppendBody((*sp)[:0], b.d.UserTextV61(index), b.d.rows[index].format.String(), img)
		if err != nil {
			return fmt.Errorf("qsl q3vl: sample %d (%s): encoding the request: %w", index, b.d.where(index), err)
		}
		*sp = body
		emitMu.Lock()
		defer emitMu.Unlock()
		emit(index, body)
		return nil
	})
}
