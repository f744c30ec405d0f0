// Package buildinfo records how this binary was built: the harness version
// and the LoadGen release linked into it. The Makefile sets the variables
// with -ldflags -X; a plain `go build` leaves the defaults.
package buildinfo

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mlperf-go/mlperf-go/internal/round"
)

// Set at link time by the Makefile (-ldflags "-X ...").
var (
	// Version is the harness version (git describe), "dev" by default.
	Version = "dev"
	// LoadGenVersion is the linked LoadGen's VERSION.txt, e.g. "6.0.17";
	// "" when not built by the Makefile.
	LoadGenVersion = ""
	// LoadGenSource says where the LoadGen sources came from: "pip sdist
	// mlcommons-loadgen==V sha256:<hex>" or "LOADGEN_SRC <path>"; "" when not
	// built by the Makefile.
	LoadGenSource = ""
	// LibrarySHA256 is the SHA-256 of the linked static libraries
	// (libmlperf_loadgen.a, libmlperf_go_shim.a); setting it also makes Go
	// relink when they change (golang/go#29843).
	LibrarySHA256 = ""
)

// Round returns the MLPerf Inference round whose RNG seeds the linked
// LoadGen writes into its logs ("v6.0" or "v6.1"), from LoadGenVersion.
func Round() (string, error) { return RoundOf(LoadGenVersion) }

// RoundOf maps a LoadGen release to the round of its seeds: 6.0.6–6.0.15
// carry the v6.0 seeds and 6.0.16 and later 6.0.x the v6.1 seeds (the
// submission checker compares them). Other releases are an error: their
// seeds are not known here.
func RoundOf(loadgenVersion string) (string, error) {
	if loadgenVersion == "" {
		return "", fmt.Errorf("buildinfo: LoadGen version unknown: build with make")
	}
	parts := strings.Split(strings.TrimSpace(loadgenVersion), ".")
	if len(parts) != 3 {
		return "", fmt.Errorf("buildinfo: LoadGen version %q is not MAJOR.MINOR.PATCH", loadgenVersion)
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return "", fmt.Errorf("buildinfo: LoadGen version %q is not MAJOR.MINOR.PATCH", loadgenVersion)
		}
		n[i] = v
	}
	if n[0] == 6 && n[1] == 0 {
		switch {
		case n[2] >= 16:
			return round.V61, nil
		case n[2] >= 6:
			return round.V60, nil
		}
	}
	return "", fmt.Errorf("buildinfo: no known submission round for LoadGen %s (known: 6.0.6-6.0.15 v6.0, 6.0.16+ v6.1)", loadgenVersion)
}

// String describes the build on one line per item, for `mlperf-go version`.
func String() string {
	round, err := Round()
	if err != nil {
		round = "unknown (" + err.Error() + ")"
	}
	lg := LoadGenVersion
	if lg == "" {
		lg = "unknown"
	}
	src := LoadGenSource
	if src == "" {
		src = "unknown (not built with make)"
	}
	return fmt.Sprintf("mlperf-go %s\nLoadGen %s\nLoadGen source: %s\nround: %s\n", Version, lg, src, round)
}
