package app

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/plan"
)

// DescribeLoad says in one line what a load model will do, e.g.
// "arrival-rate 0→100/s over 1m0s, 100/s for 9m0s; VUs 10..2000".
func DescribeLoad(l *plan.Load) string {
	switch l.Model {
	case plan.Iterations:
		return fmt.Sprintf("iterations: %d shared by %d VUs (at most %s)", l.Count, l.VUCount, l.MaxDuration)
	case plan.ArrivalRate:
		return "arrival-rate " + describeStages(l.StartRate, l.Stages, "/s") +
			fmt.Sprintf("; VUs %d..%d", l.PreAllocatedVUs, l.MaxVUs)
	default:
		return "vus " + describeStages(float64(l.StartVUs), l.Stages, " VUs")
	}
}

func describeStages(start float64, stages []plan.Stage, unit string) string {
	var parts []string
	from := start
	for _, s := range stages {
		if s.Target == from {
			parts = append(parts, fmt.Sprintf("%s%s for %s", num(s.Target), unit, s.Duration))
		} else {
			parts = append(parts, fmt.Sprintf("%s→%s%s over %s", num(from), num(s.Target), unit, s.Duration))
		}
		from = s.Target
	}
	return strings.Join(parts, ", ")
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
