package app

import (
	"fmt"
	"strings"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/units"
)

// DescribeLoad says in one line what a load model will do, e.g.
// "arrival-rate 0→100/s over 1m, 100/s for 9m; VUs 10..2,000".
func DescribeLoad(l *plan.Load) string {
	switch l.Model {
	case plan.Iterations:
		return fmt.Sprintf("iterations: %s shared by %s (at most %s)", units.Count(int64(l.Count)), units.CountOf(int64(l.VUCount), "VU", "VUs"), units.DurationLiteral(l.MaxDuration))
	case plan.ArrivalRate:
		return "arrival-rate " + describeStages(l.StartRate, l.Stages, "/s", "/s") +
			fmt.Sprintf("; VUs %s..%s", units.Count(int64(l.PreAllocatedVUs)), units.Count(int64(l.MaxVUs)))
	default:
		return "vus " + describeStages(float64(l.StartVUs), l.Stages, " VU", " VUs")
	}
}

// describeStages writes the stages, each target with its unit: one after
// a target of exactly 1, else many ("1 VU", "2 VUs", "0.5 VUs").
func describeStages(start float64, stages []plan.Stage, one, many string) string {
	var parts []string
	from := start
	for _, s := range stages {
		unit := many
		if s.Target == 1 {
			unit = one
		}
		if s.Target == from {
			parts = append(parts, fmt.Sprintf("%s%s for %s", level(s.Target), unit, units.DurationLiteral(s.Duration)))
		} else {
			parts = append(parts, fmt.Sprintf("%s→%s%s over %s", level(from), level(s.Target), unit, units.DurationLiteral(s.Duration)))
		}
		from = s.Target
	}
	return strings.Join(parts, ", ")
}

// level writes a stage's level as given ("1,234.5"), or to three
// significant digits when it is a quotient a time_unit made (1 per 7s is
// 0.14285714285714285/s, 1 per 24h has 20 decimals).
func level(v float64) string {
	if s := units.Exact(v); len(s) <= 10 {
		return s
	}
	return units.Number(v)
}
