package capacity

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// beyondPercentile is how many requests past its percentile a step must
// hold for the percentile to be more than its slowest few, as compare asks
// of a run ("a p95 needs 200 requests a run (10 beyond it)"). A search on
// the demo's naive first page bisected on p95s of 13 requests each and
// passed 0.898 iterations/s between a pass at 0.625 and a failure at 0.938,
// which fixed-rate runs of 30 s did not bear out.
const beyondPercentile = 10

// thinNote says which of the steps the boundary rests on (the highest that
// passed, the lowest that failed) held too few requests for the SLO's
// percentile, and how long a hold would hold enough; "" when none did or
// when the search found no boundary.
func thinNote(res *Result) string {
	p := res.Config.Percentile
	// Without both a pass and a failure there is no boundary: a dead target
	// has no capacity for a longer hold to sharpen.
	if p <= 0 || p >= 100 || res.Highest == 0 || res.LowestFailing == 0 {
		return ""
	}
	need := int64(math.Ceil(beyondPercentile / (1 - p/100)))
	var thin []string
	var rate float64
	for _, s := range res.Steps {
		edge := s.Judged && (s.Passed && s.Rate == res.Highest || !s.Passed && s.Rate == res.LowestFailing)
		if edge && s.Requests < need {
			thin = append(thin, fmt.Sprintf("%s held %s", Iterations(s.Rate), res.Config.Unit.Count(s.Requests)))
			rate = max(rate, s.Rate)
		}
	}
	if len(thin) == 0 {
		return ""
	}
	perSec := rate * max(res.Config.RequestsPerIteration, 1)
	hold := time.Duration(float64(need) / perSec * float64(time.Second)).Round(time.Second)
	return fmt.Sprintf("the boundary rests on steps too thin for a p(%s): %s, while it needs %s a step (%d beyond it) "+
		"to be more than the step's slowest few; a hold of %s or more would hold that many, or read the capacity as rough",
		units.Number(p), strings.Join(thin, " and "), units.Count(need), beyondPercentile, units.Duration(hold))
}
