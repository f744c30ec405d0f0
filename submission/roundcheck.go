package submission

import (
	"fmt"
	"strings"

	"go.uber.org/zap"

	"github.com/mlperf-go/mlperf-go/internal/buildinfo"
)

// CheckRound checks that round (--round) names a known round. A round
// other than the linked LoadGen's is allowed (to compare requests or
// scores) but warned about on log (when not nil): the logs carry the
// LoadGen's seeds, which the checker of another round refuses.
func CheckRound(round string, log *zap.Logger) error {
	if _, err := LookupRound(round); err != nil {
		return fmt.Errorf("--round %q: use one of %s", round, strings.Join(RoundNames(), ", "))
	}
	if built, err := buildinfo.Round(); err == nil && built != round && log != nil {
		log.Warn("--round differs from the round of the linked LoadGen's seeds; its logs will not pass that round's checker",
			zap.String("round", round), zap.String("loadgen", buildinfo.LoadGenVersion), zap.String("loadgen_round", built))
	}
	return nil
}
