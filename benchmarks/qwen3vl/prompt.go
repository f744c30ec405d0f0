package qwen3vl

import (
	"bytes"
	"encoding/json"
	"strings"
)

// responseSchema is ProductMetadata.model_json_schema() (multimodal/qwen3-vl
// schema.py, pydantic 2) in pydantic's key order, compact. Both the system
// prompt and the guided-decoding response_format derive from it.
const responseSchema = `{"additionalProperties":false,"description":"Json format for the expected responses from the VLM.","properties":{"category":{"description":"The complete category of the product, e.g.,\n\"Clothing & Accessories > Clothing > Shirts > Polo Shirts\".\nEach categorical level is separated by \" > \".","title":"Category","type":"string"},"brand":{"description":"The brand of the product, e.g., \"giorgio armani\".","title":"Brand","type":"string"},"is_secondhand":{"description":"True if the product is second-hand, False otherwise.","title":"Is Secondhand","type":"boolean"}},"required":["category","brand","is_secondhand"],"title":"ProductMetadata","type":"object"}`

// The system prompt of task.py ShopifyGlobalCatalogue.formulate_loaded_sample,
// around json.dumps(schema, indent=2). Typos ("specifc", "followng") are the
// reference's and must stay.
const (
	systemHead = "Please analyze the product from the user prompt\n" +
		"and provide the following fields in a valid JSON object:\n" +
		"- category\n" +
		"- brand\n" +
		"- is_secondhand\n" +
		"\n" +
		"You must choose only one, which is the most appropriate, correct, and specifc\n" +
		"category out of the list of possible product categories.\n" +
		"\n" +
		"The description of the product sometimes contains various types of source code\n" +
		"(e.g., JavaScript, CSS, HTML, etc.), where useful product information is embedded\n" +
		"somewhere inside the source code. For this task, you should extract the useful\n" +
		"product information from the source code and leverage it, and discard the\n" +
		"programmatic parts of the source code.\n" +
		"\n" +
		"Your response should only contain a valid JSON object and nothing more, e.g.,\n" +
		"you should not fence the JSON object inside a ```json code block.\n" +
		"The JSON object should match the followng JSON schema:\n" +
		"```json\n"
	systemTail = "\n```\n"
)

// The user text template of the same function; the three holes are the
// title, the description and the list of potential categories.
const (
	userTitle = "The title of the product is the following:\n```text\n"
	userDesc  = "\n```\n\nThe description of the product is the following:\n```text\n"
	userCats  = "\n```\n\nThe following are the possible product categories:\n```json\n"
	userTail  = "\n```\n"
)

var (
	systemPrompt   = buildSystemPrompt()
	responseFormat = []byte(`{"type":"json_schema","json_schema":{"name":"product_metadata","schema":` + responseSchema + `,"strict":true}}`)
)

// buildSystemPrompt renders the schema as Python's json.dumps(indent=2)
// does. For this schema (ASCII only, no empty containers) that is exactly
// json.Indent's output: both put one member per line, "key": value, with a
// comma at the end of the line, and keep string escapes as written.
func buildSystemPrompt() string {
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(responseSchema), "", "  "); err != nil {
		panic("qsl: q3vl schema constant is not JSON: " + err.Error())
	}
	return systemHead + b.String() + systemTail
}

// SystemPrompt returns the system message the reference sends with every
// Qwen3-VL sample: its instructions followed by the ProductMetadata JSON
// schema, as json.dumps(..., indent=2) writes it.
func SystemPrompt() string { return systemPrompt }

// ResponseFormat returns the response_format the reference sends when
// guided decoding is on: {"type":"json_schema","json_schema":{"name":
// "product_metadata","schema":<ProductMetadata schema>,"strict":true}}.
// The returned slice is a fresh copy the caller may keep or modify.
//
// The reference passes it through pydantic's ResponseFormatJSONSchema and
// model_dump, which may add "description": null to json_schema; a null
// description means the same as none, so it is left out here.
func ResponseFormat() json.RawMessage {
	return append(json.RawMessage(nil), responseFormat...)
}

// formatUserText renders the user text. cats is the already rendered Python
// repr of the category list.
func formatUserText(title, desc, cats string) string {
	var b strings.Builder
	b.Grow(len(userTitle) + len(title) + len(userDesc) + len(desc) + len(userCats) + len(cats) + len(userTail))
	b.WriteString(userTitle)
	b.WriteString(title)
	b.WriteString(userDesc)
	b.WriteString(desc)
	b.WriteString(userCats)
	b.WriteString(cats)
	b.WriteString(userTail)
	return b.String()
}
