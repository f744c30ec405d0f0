// Package synth writes synthetic benchmark datasets in the exact on-disk
// formats of the real ones, so that tests, demos and load tests can run the
// whole harness without downloading anything. Everything it writes is
// deterministic given a seed.
package synth
