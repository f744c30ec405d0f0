package main

// defaultAutoQPSFraction is the share of the Offline throughput --target-qps
// auto asks of a Server run: the Server scenario's latency limits hold
// only with headroom under the peak, and 0.8 is where submitters (and
// MLPerf_local_test) start.
const defaultAutoQPSFraction = 0.8
