package estimate

import (
	"strconv"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/units"
)

// LatencyLimit is one upper limit on a second's request duration.
type LatencyLimit struct {
	Agg       threshold.AggKind // Percentile (P 50, 90, 95 or 99), Med, Max or Avg
	P         float64           // for Percentile
	Limit     time.Duration
	Inclusive bool   // <= rather than <
	Text      string // as printed, e.g. "p(95) < 100ms"
}

// Sustained is the rate of successful requests a run kept within its SLO.
type Sustained struct {
	Rate      float64 // successful requests per second over the seconds that met the SLO
	Met       int     // seconds that met the SLO
	Seconds   int     // seconds judged
	Succeeded int64   // successful requests in the seconds that met the SLO
	Misses    []Miss  // each part of the SLO a second failed, in the order first failed
	// Window is, on a ramp, how many consecutive good seconds Rate held
	// (SustainedOnRamp); 0 when Rate averages every good second.
	Window int
}

// Miss is one part of the SLO, the reason it failed and the seconds it
// failed in; a second failing several parts counts in each.
type Miss struct {
	Part    string // e.g. "p(95) < 1s", "errors < 1%"; "" when no request succeeded
	Why     string // "" when the figure itself was over the limit
	Seconds int
}

// SustainedRate judges every second of secs against slo and averages the
// successful requests of the seconds that met it: failed requests are not
// capacity, and a second over its error budget or latency limit shows
// load the target did not sustain. Rate is 0 when no second met it.
func SustainedRate(secs []metrics.Second, slo SLO) Sustained {
	var s Sustained
	for i := range secs {
		sec := &secs[i]
		s.Seconds++
		failed := slo.failed(sec)
		for _, m := range failed {
			s.miss(m)
		}
		if len(failed) > 0 {
			continue
		}
		s.Met++
		s.Succeeded += sec.Requests - sec.Failed
	}
	if s.Met > 0 {
		s.Rate = float64(s.Succeeded) / float64(s.Met)
	}
	return s
}

// Why says which parts of the SLO failed in how many of the seconds, e.g.
// "p(95) < 1s failed in 5 of 5 seconds: more than 5% of requests failed,
// more than p(95) leaves out"; "" when none failed.
func (s Sustained) Why() string {
	var parts []string
	for _, m := range s.Misses {
		of := " in " + units.Count(int64(m.Seconds)) + " of " + units.CountOf(int64(s.Seconds), "second", "seconds")
		switch {
		case m.Part == "":
			parts = append(parts, m.Why+of)
		case m.Why == "":
			parts = append(parts, m.Part+" failed"+of)
		default:
			parts = append(parts, m.Part+" failed"+of+": "+m.Why)
		}
	}
	return strings.Join(parts, "; ")
}

// aggName names a limit's aggregation as a threshold writes it: p(95), med, max.
func aggName(l LatencyLimit) string {
	switch l.Agg {
	case threshold.Med:
		return "med"
	case threshold.Max:
		return "max"
	case threshold.Avg:
		return "avg"
	}
	return "p(" + strconv.FormatFloat(l.P, 'g', -1, 64) + ")"
}

// miss counts one second against a part of the SLO.
func (s *Sustained) miss(m Miss) {
	for i := range s.Misses {
		if s.Misses[i].Part == m.Part && s.Misses[i].Why == m.Why {
			s.Misses[i].Seconds++
			return
		}
	}
	m.Seconds = 1
	s.Misses = append(s.Misses, m)
}

// failed returns the parts of the SLO one second failed, none when it
// met it; a second without a successful request shows nothing sustained.
func (slo SLO) failed(sec *metrics.Second) []Miss {
	if sec.Requests <= 0 || sec.Failed >= sec.Requests {
		return []Miss{{Why: "no " + slo.Unit.Or().One + " succeeded"}}
	}
	var out []Miss
	share := float64(sec.Failed) / float64(sec.Requests)
	if slo.MaxErrors >= 0 && !under(share, slo.MaxErrors, slo.Inclusive) {
		out = append(out, Miss{Part: slo.errorsText()})
	}
	for _, l := range slo.Latency {
		// As a whole-run threshold does: a percentile fails when more
		// requests failed than it leaves out, however fast they failed.
		if leftOut, ok := threshold.LeavesOut(l.Agg, l.P); ok && share > leftOut {
			out = append(out, Miss{Part: l.Text, Why: "more than " + units.Share(leftOut) +
				" of " + slo.Unit.Or().Many + " failed, more than " + aggName(l) + " leaves out"})
			continue
		}
		if !under(figure(sec, l).Seconds(), l.Limit.Seconds(), l.Inclusive) {
			out = append(out, Miss{Part: l.Text})
		}
	}
	return out
}

// errorsText is the error budget as a part of the SLO: "errors < 1%",
// or "errors == 0" when none may fail.
func (slo SLO) errorsText() string {
	switch {
	case slo.MaxErrors == 0 && slo.Inclusive:
		return "errors == 0"
	case slo.Inclusive:
		return "errors <= " + units.Share(slo.MaxErrors)
	}
	return "errors < " + units.Share(slo.MaxErrors)
}

// under compares v with a limit, inclusively or not.
func under(v, limit float64, inclusive bool) bool {
	if inclusive {
		return v <= limit
	}
	return v < limit
}

// figure is the second's duration a limit judges.
func figure(sec *metrics.Second, l LatencyLimit) time.Duration {
	switch l.Agg {
	case threshold.Med:
		return sec.P50
	case threshold.Max:
		return sec.Max
	case threshold.Avg:
		return sec.Mean
	}
	switch l.P {
	case 50:
		return sec.P50
	case 90:
		return sec.P90
	case 99:
		return sec.P99
	}
	return sec.P95
}
