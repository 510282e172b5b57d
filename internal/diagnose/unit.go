package diagnose

import (
	"strings"

	"github.com/loadlens/loadlens/internal/units"
)

// counts is what the run's samples count (metrics.Run.Unit): requests,
// gRPC calls or sessions, so that a finding on a gRPC test says "calls".
func (c *context) counts() units.Unit {
	if c.run == nil {
		return units.Requests
	}
	return c.run.Unit().Or()
}

// per is the unit a throughput figure of the run reads in (Figure.Per):
// "" for requests, which UnitReqPerSec already names, else "calls" or
// "sessions".
func (c *context) per(u Unit) string {
	if n := c.counts(); u == UnitReqPerSec && n != units.Requests {
		return n.Short
	}
	return ""
}

// noun is b.noun in the run's unit: " request failed", " calls failed"
// for the count r, with before and after around the unit's word.
func (c *context) noun(b *builder, r ref, before, after string) string {
	u := c.counts()
	return b.noun(r, before+u.One+after, before+u.Many+after)
}

// unitWords replaces "{requests}" and "{request}" in a finding's words and
// figures' labels by the run's unit: "calls", "a session".
func (c *context) unitWords() *strings.Replacer {
	u := c.counts()
	return strings.NewReplacer("{requests}", u.Many, "{request}", u.One)
}

// latencyUnit is what the run's latency times (metrics.Run.LatencyOf):
// gRPC calls when they are all it has, else requests; a session's length
// is no latency.
func (c *context) latencyUnit() units.Unit {
	if c.run != nil && c.run.LatencyOf() == "calls" {
		return units.Calls
	}
	return units.Requests
}
