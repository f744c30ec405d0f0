package download

import (
	"fmt"
	"slices"
	"strings"
)

// Extras are the sets not tied to one benchmark (`dataset download
// --extra NAME`), by name.
var Extras = map[string][]Pin{
	// mmlu is MLCommons' copy of the MMLU parquet files (cais/mmlu's
	// layout: mmlu/<subject>/{dev,validation,test}-00000-of-00001.parquet,
	// 58 folders with all/), for quality checks beyond MLPerf. The listing
	// is pinned by its sha256 (mlcommons/r2-infra automotive/metadata/
	// mmlu.md5 at 5d77ea6, 180 lines, no blank md5); the auxiliary_train
	// split, data.tar and the loading script are left out.
	"mmlu": {{
		Role: RoleMMLU, Ref: "mlcommons/r2-infra automotive/manifest.json (mmlu, \"Llama 3.1 8B Benchmark\")",
		R2: &R2{Set: "mmlu", Base: "https://automotive.mlcommons-storage.org",
			Include:       []string{"mmlu/*/dev-*.parquet", "mmlu/*/validation-*.parquet", "mmlu/*/test-*.parquet", "mmlu/README.md"},
			ListingSHA256: "0289662dbf819574733433a6a331c40eba37955c961d42a61a6d785760f96efb"},
	}},
}

// ExtraNames are the names of Extras, sorted.
func ExtraNames() []string { return sortedKeys(Extras) }

// ExtraRequest is the request for the extra set named name.
func ExtraRequest(name string) (Request, error) {
	pins, ok := Extras[name]
	if !ok {
		return Request{}, fmt.Errorf("--extra %q: use one of %s", name, strings.Join(ExtraNames(), ", "))
	}
	return Request{For: name, Pins: pins}, nil
}

// SelectRoles is the request of those of a benchmark's pins for round
// whose role only lists (all of them when only is empty); a role in only
// that no pin has is an error naming the roles there are (--only).
func SelectRoles(benchmark, round string, pins []Pin, only []string) (Request, error) {
	req := Request{For: benchmark + " " + round}
	var roles []string
	for _, p := range pins {
		roles = append(roles, p.Role)
		if len(only) == 0 || slices.Contains(only, p.Role) {
			req.Pins = append(req.Pins, p)
		}
	}
	for _, o := range only {
		if !slices.Contains(roles, o) {
			return req, fmt.Errorf("--only %s: %s pins %s", o, benchmark, strings.Join(roles, ", "))
		}
	}
	return req, nil
}

// VerifyRequest hashes again, in dir, the files of each set req asks for,
// as m records them, and returns the sets verified.
func (m *Manifest) VerifyRequest(dir string, req Request) ([]*Set, error) {
	var sets []*Set
	for _, p := range req.Pins {
		s := m.Role(p.Role)
		if s == nil {
			return sets, fmt.Errorf("%s: the manifest has no %s", dir, p.Role)
		}
		if err := s.Verify(dir, nil); err != nil {
			return sets, fmt.Errorf("%s: %w", dir, err)
		}
		sets = append(sets, s)
	}
	return sets, nil
}
