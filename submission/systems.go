package submission

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// systemFields are the 35 fields every systems/<system>.json must have
// (SYSTEM_DESC_REQUIRED_FIELDS in the checker's constants.py), in its order.
var systemFields = []string{
	"division", "submitter", "status", "system_name", "number_of_nodes",
	"host_processor_model_name", "host_processors_per_node", "host_processor_core_count",
	"host_memory_capacity", "host_storage_capacity", "host_storage_type",
	"accelerators_per_node", "accelerator_model_name", "accelerator_memory_capacity",
	"framework", "operating_system", "system_type", "other_software_stack",
	"host_processor_frequency", "host_processor_caches", "host_memory_configuration",
	"host_processor_interconnect", "host_networking", "host_networking_topology",
	"accelerator_frequency", "accelerator_host_interconnect", "accelerator_interconnect",
	"accelerator_interconnect_topology", "accelerator_memory_configuration",
	"accelerator_on-chip_memories", "cooling", "hw_notes", "sw_notes",
	"host_network_card_count", "system_type_detail",
}

// systemMeaningful are the fields that must also be non-empty
// (SYSTEM_DESC_MEANINGFUL_RESPONSE_REQUIRED_FIELDS): the 35 minus
// host_processor_frequency, host_processor_caches, host_processor_interconnect,
// accelerator_frequency, accelerator_interconnect_topology,
// accelerator_on-chip_memories, hw_notes, sw_notes, system_type_detail.
var systemMeaningful = map[string]bool{
	"division": true, "submitter": true, "system_type": true, "status": true, "system_name": true,
	"number_of_nodes": true, "host_processor_model_name": true, "host_processors_per_node": true,
	"host_processor_core_count": true, "host_memory_capacity": true, "host_memory_configuration": true,
	"host_storage_capacity": true, "host_storage_type": true, "host_networking": true,
	"host_network_card_count": true, "host_networking_topology": true, "accelerators_per_node": true,
	"accelerator_model_name": true, "accelerator_memory_capacity": true, "accelerator_host_interconnect": true,
	"accelerator_memory_configuration": true, "accelerator_interconnect": true, "cooling": true,
	"framework": true, "operating_system": true, "other_software_stack": true,
}

// placeholderPrefix starts every value SystemTemplate and MeasurementsTemplate
// leave for the user to fill. The official checker would accept such text as
// "non-empty"; ValidateSystem and ValidateMeasurements refuse it, so an
// unfilled template cannot slip into a submission.
const placeholderPrefix = "TODO"

// pyTruthy reports whether a decoded JSON value is true in Python (the
// checker's `not value` test): "", 0, null, false, [] and {} are not.
func pyTruthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case string:
		return x != ""
	case bool:
		return x
	case json.Number:
		f, err := x.Float64()
		return err != nil || f != 0
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}

var pyIntString = regexp.MustCompile(`^\s*[+-]?\d+\s*$`)

// ValidateSystem checks a systems/<system>.json against the checker's rules
// (checks/system_check.py and results.py) and returns one message per bad
// field, empty when the file is valid. division and submitter, when not
// empty, must match the file's (case-insensitively, as the checker compares).
// Rules: all 35 fields present; 26 of them non-empty (0 counts as empty, so
// accelerators_per_node cannot be 0); status one of available, preview, rdi;
// system_type exactly datacenter, edge, "datacenter,edge" or
// "edge,datacenter"; number_of_nodes and accelerators_per_node integers
// (results.py multiplies them with int()); is_network absent or "false" in
// the closed division; and, stricter than the checker, no value may still
// be a "TODO…" template placeholder.
func ValidateSystem(content []byte, division, submitter string) []string {
	dec := json.NewDecoder(bytes.NewReader(content))
	dec.UseNumber()
	var sys map[string]any
	if err := dec.Decode(&sys); err != nil {
		return []string{fmt.Sprintf("not a JSON object: %v", err)}
	}
	var bad []string
	for _, k := range systemFields {
		v, ok := sys[k]
		switch {
		case !ok:
			bad = append(bad, fmt.Sprintf("field %q is missing", k))
			continue
		case systemMeaningful[k] && !pyTruthy(v):
			bad = append(bad, fmt.Sprintf("field %q must not be empty (or 0)", k))
			continue
		}
		if s, ok := v.(string); ok && strings.HasPrefix(strings.TrimSpace(s), placeholderPrefix) {
			bad = append(bad, fmt.Sprintf("field %q still holds the template placeholder %q", k, s))
		}
	}
	if v, ok := sys["status"]; ok && pyTruthy(v) {
		s, isStr := v.(string)
		if !isStr || !oneOf(strings.ToLower(s), "available", "preview", "rdi") {
			if !isStr || !strings.HasPrefix(s, placeholderPrefix) {
				bad = append(bad, fmt.Sprintf("field \"status\" is %v; use available, preview or rdi", v))
			}
		}
	}
	if v, ok := sys["system_type"]; ok && pyTruthy(v) {
		s, isStr := v.(string)
		if !isStr || !oneOf(s, "datacenter", "edge", "datacenter,edge", "edge,datacenter") {
			bad = append(bad, fmt.Sprintf("field \"system_type\" is %v; use exactly datacenter, edge, datacenter,edge or edge,datacenter", v))
		}
	}
	for _, k := range []string{"number_of_nodes", "accelerators_per_node"} {
		v, ok := sys[k]
		if !ok || !pyTruthy(v) {
			continue
		}
		switch x := v.(type) {
		case json.Number:
		case string:
			if !pyIntString.MatchString(x) && !strings.HasPrefix(x, placeholderPrefix) {
				bad = append(bad, fmt.Sprintf("field %q is %q; it must be an integer", k, x))
			}
		default:
			bad = append(bad, fmt.Sprintf("field %q is %v; it must be an integer", k, v))
		}
	}
	for k, want := range map[string]string{"division": division, "submitter": submitter} {
		if want == "" {
			continue
		}
		if s, ok := sys[k].(string); ok && pyTruthy(s) && !strings.HasPrefix(s, placeholderPrefix) && !strings.EqualFold(s, want) {
			bad = append(bad, fmt.Sprintf("field %q is %q but the submission directory says %q", k, s, want))
		}
	}
	if v, ok := sys["is_network"]; ok {
		s, isStr := v.(string)
		switch {
		case !isStr:
			bad = append(bad, fmt.Sprintf("field \"is_network\" is %v; the checker needs a string (\"true\"/\"false\") or no field at all", v))
		case strings.EqualFold(division, "closed") && strings.ToLower(s) == "true":
			bad = append(bad, "field \"is_network\" is \"true\", which the closed division forbids; remove it")
		}
	}
	sortStrings(bad)
	return bad
}

// SystemType returns a systems JSON's system_type when it is one the
// checker accepts (datacenter, edge, "datacenter,edge", "edge,datacenter"),
// and "" otherwise (no JSON object, no such field, another value).
func SystemType(content []byte) string {
	var s struct {
		SystemType any `json:"system_type"`
	}
	if json.Unmarshal(content, &s) != nil {
		return ""
	}
	t, _ := s.SystemType.(string)
	if !oneOf(t, "datacenter", "edge", "datacenter,edge", "edge,datacenter") {
		return ""
	}
	return t
}

// SystemFields returns the fields every systems/<system>.json must have, in
// the checker's order (SYSTEM_DESC_REQUIRED_FIELDS), as a new slice.
func SystemFields() []string { return slices.Clone(systemFields) }

// SystemFieldNeedsValue reports whether a systems JSON field must also hold
// a non-empty value (SYSTEM_DESC_MEANINGFUL_RESPONSE_REQUIRED_FIELDS); false
// for the fields the checker lets be empty and for unknown names.
func SystemFieldNeedsValue(field string) bool { return systemMeaningful[field] }

func oneOf(s string, options ...string) bool {
	for _, o := range options {
		if s == o {
			return true
		}
	}
	return false
}

// orderedJSON writes an object with keys in the given order, indented as
// Python's json.dump(indent=4) would.
func orderedJSON(keys []string, values map[string]any) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, k := range keys {
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(values[k])
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "    %s: %s", kb, vb)
		if i < len(keys)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// hostFacts are what SystemTemplate can read from the machine.
type hostFacts struct {
	cpuModel      string
	sockets       int
	coresPerCPU   int
	memTotalKB    int64
	osPrettyName  string
	cpuCacheSize  string
	logicalCPUNum int
}

// readHostFacts reads /proc/cpuinfo, /proc/meminfo and /etc/os-release;
// missing files leave fields zero.
func readHostFacts(cpuinfo, meminfo, osRelease string) hostFacts {
	h := hostFacts{logicalCPUNum: runtime.NumCPU()}
	physIDs := map[string]bool{}
	if b, err := os.ReadFile(cpuinfo); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			if !ok {
				continue
			}
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			switch k {
			case "model name":
				if h.cpuModel == "" {
					h.cpuModel = v
				}
			case "physical id":
				physIDs[v] = true
			case "cpu cores":
				if n, err := strconv.Atoi(v); err == nil && h.coresPerCPU == 0 {
					h.coresPerCPU = n
				}
			case "cache size":
				if h.cpuCacheSize == "" {
					h.cpuCacheSize = v
				}
			}
		}
	}
	h.sockets = len(physIDs)
	if b, err := os.ReadFile(meminfo); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				f := strings.Fields(rest)
				if len(f) > 0 {
					h.memTotalKB, _ = strconv.ParseInt(f[0], 10, 64)
				}
			}
		}
	}
	if b, err := os.ReadFile(osRelease); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "PRETTY_NAME="); ok {
				h.osPrettyName = strings.Trim(strings.TrimSpace(rest), `"'`)
			}
		}
	}
	return h
}

// SystemTemplate returns a systems/<system>.json with all 35 fields: the
// machine facts it can read filled in (host CPU model, sockets, cores per
// socket, memory from /proc; operating system from /etc/os-release;
// number_of_nodes 1; system_type "datacenter", the only suite these
// benchmarks are in), the fields the checker lets be empty left empty, and
// every other field a "TODO: …" placeholder saying what to write, which
// ValidateSystem refuses until it is replaced.
func SystemTemplate() ([]byte, error) {
	return systemTemplate(readHostFacts("/proc/cpuinfo", "/proc/meminfo", "/etc/os-release"))
}

func systemTemplate(h hostFacts) ([]byte, error) {
	v := map[string]any{}
	for _, k := range systemFields {
		if systemMeaningful[k] {
			v[k] = placeholderPrefix + ": fill in " + k
		} else {
			v[k] = ""
		}
	}
	v["division"] = placeholderPrefix + ": closed or open"
	v["submitter"] = placeholderPrefix + ": your organization, as in the submission directory"
	v["status"] = placeholderPrefix + ": available, preview or rdi"
	v["system_name"] = placeholderPrefix + ": a descriptive name, e.g. 8xH100 SXM (vLLM)"
	v["system_type"] = "datacenter"
	v["number_of_nodes"] = 1
	v["accelerators_per_node"] = placeholderPrefix + ": integer, e.g. 8"
	v["accelerator_model_name"] = placeholderPrefix + ": e.g. NVIDIA H100-SXM-80GB"
	v["accelerator_memory_capacity"] = placeholderPrefix + ": e.g. 80 GB"
	v["framework"] = placeholderPrefix + ": serving engine and version, e.g. vLLM 0.11.0"
	v["other_software_stack"] = placeholderPrefix + ": e.g. mlperf-go, MLPerf LoadGen 6.0.17, CUDA 12.8, driver 570"
	v["host_network_card_count"] = placeholderPrefix + ": e.g. 1x 100GbE"
	if h.cpuModel != "" {
		v["host_processor_model_name"] = h.cpuModel
	}
	sockets := h.sockets
	if sockets == 0 && h.cpuModel != "" {
		sockets = 1
	}
	if sockets > 0 {
		v["host_processors_per_node"] = strconv.Itoa(sockets)
	}
	switch {
	case h.coresPerCPU > 0:
		v["host_processor_core_count"] = strconv.Itoa(h.coresPerCPU)
	case h.logicalCPUNum > 0 && sockets > 0:
		v["host_processor_core_count"] = strconv.Itoa(h.logicalCPUNum / sockets)
	}
	if h.memTotalKB > 0 {
		v["host_memory_capacity"] = fmt.Sprintf("%d GB", int64(float64(h.memTotalKB)/(1024*1024)+0.5))
	}
	if h.osPrettyName != "" {
		v["operating_system"] = h.osPrettyName
	}
	if h.cpuCacheSize != "" {
		v["host_processor_caches"] = h.cpuCacheSize
	}
	return orderedJSON(systemFields, v)
}

// measurementsFields must be non-empty in measurements.json
// (SYSTEM_IMP_REQUIRED_FILES in constants.py).
var measurementsFields = []string{"input_data_types", "retraining", "starting_weights_filename", "weight_data_types", "weight_transformations"}

// ValidateMeasurements checks a measurements.json: the five fields present
// and non-empty (checks/measurements_checks.py), and no "TODO…" placeholder.
func ValidateMeasurements(content []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(content))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return []string{fmt.Sprintf("not a JSON object: %v", err)}
	}
	var bad []string
	for _, k := range measurementsFields {
		v, ok := m[k]
		switch {
		case !ok:
			bad = append(bad, fmt.Sprintf("field %q is missing", k))
		case !pyTruthy(v):
			bad = append(bad, fmt.Sprintf("field %q must not be empty", k))
		default:
			if s, ok := v.(string); ok && strings.HasPrefix(strings.TrimSpace(s), placeholderPrefix) {
				bad = append(bad, fmt.Sprintf("field %q still holds the template placeholder %q", k, s))
			}
		}
	}
	return bad
}

// MeasurementsTemplate returns a measurements.json for a benchmark: what the
// benchmark fixes is filled in (retraining "No", as the closed division
// requires; the input data type the harness sends), the rest are "TODO: …"
// placeholders that ValidateMeasurements refuses until filled. Place it at
// DIR/<system>/<benchmark>/measurements.json (all scenarios) or
// DIR/<system>/<benchmark>/<Scenario>/measurements.json (one scenario).
func MeasurementsTemplate(benchmark string) ([]byte, error) {
	b, err := LookupBenchmark(benchmark)
	if err != nil {
		return nil, err
	}
	v := map[string]any{
		"retraining":                "No",
		"starting_weights_filename": placeholderPrefix + ": the checkpoint you started from, e.g. the Hugging Face repo id",
		"weight_data_types":         placeholderPrefix + ": e.g. bf16, fp8",
		"weight_transformations":    placeholderPrefix + ": e.g. none, or the quantization applied",
	}
	v["input_data_types"] = b.Data.InputDataTypes
	return orderedJSON(measurementsFields, v)
}
