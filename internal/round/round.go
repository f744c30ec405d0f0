// Package round names the MLPerf Inference rounds mlperf-go knows, so that a
// round is written in one place: the checker's --version, the keys of each
// benchmark's per-round rules, download pins and scorers, and the round of
// the linked LoadGen's seeds.
package round

const (
	// V60 is round v6.0 (LoadGen 6.0.6 to 6.0.15 write its seeds).
	V60 = "v6.0"
	// V61 is round v6.1 (LoadGen 6.0.16 and later 6.0.x write its seeds),
	// the round of the LoadGen release the build pins.
	V61 = "v6.1"
)
