package estimate

import "github.com/loadlens/loadlens/internal/metrics"

// rampRatio is how far a run's load may move between its quietest and its
// busiest second and still be one load: beyond it the run is a ramp.
const rampRatio = 1.25

// RampWindow is how many consecutive seconds a ramp's rate must hold, each
// within the SLO, to count as sustained: one good second is a burst.
const RampWindow = 3

// Ramped reports whether the load a run offered moved over its seconds
// first to last: the arrivals its schedules offered (the open model) or
// its active VUs (the closed one), busiest over quietest above rampRatio.
// A ramp has no steady part: averaging its seconds averages low loads.
func Ramped(series []metrics.Second, first, last int) bool {
	lo, hi := int64(-1), int64(0)
	for i := range series {
		s := &series[i]
		if s.Sec < first || s.Sec > last {
			continue
		}
		load := offered(s)
		if load <= 0 {
			continue
		}
		if lo < 0 || load < lo {
			lo = load
		}
		hi = max(hi, load)
	}
	return lo > 0 && float64(hi) > rampRatio*float64(lo)
}

// offered is one second's load: its offered arrivals, else its active VUs.
func offered(s *metrics.Second) int64 {
	if n := arrivals(s); n > 0 {
		return n
	}
	return s.VUs
}

// arrivals is the iterations one second's open-model schedules offered.
func arrivals(s *metrics.Second) int64 {
	var n int64
	for _, sc := range s.PerScenario {
		n += sc.Offered
	}
	return n
}

// SustainedOnRamp judges a ramp's seconds against slo and keeps the highest
// mean rate of successful requests over width consecutive seconds that all
// met it: the most the target held, where an average over the ramp would
// mix in every lower load it was offered on the way. Rate is 0 when no
// width seconds in a row met the SLO.
func SustainedOnRamp(secs []metrics.Second, slo SLO, width int) Sustained {
	s := Sustained{Window: width}
	run, sum := 0, int64(0) // the good seconds in a row so far, and their successes
	ok := make([]int64, 0, len(secs))
	for i := range secs {
		sec := &secs[i]
		s.Seconds++
		failed := slo.failed(sec)
		for _, m := range failed {
			s.miss(m)
		}
		if len(failed) > 0 || (i > 0 && sec.Sec != secs[i-1].Sec+1) {
			run, sum, ok = 0, 0, ok[:0]
		}
		if len(failed) > 0 {
			continue
		}
		s.Met++
		good := sec.Requests - sec.Failed
		ok = append(ok, good)
		run++
		sum += good
		if run > width {
			sum -= ok[len(ok)-1-width]
		}
		if run >= width && float64(sum)/float64(width) > s.Rate {
			s.Rate, s.Succeeded = float64(sum)/float64(width), sum
		}
	}
	return s
}

// FellBehind reports whether a run's completions fell behind what its
// schedule offered, in iterations, by more than a tenth in two or more of
// its seconds first to last: the target stopped keeping up (a knee), even
// where no second failed the SLO, so the run did reach its limit.
func FellBehind(series []metrics.Second, first, last int) bool {
	behind := 0
	for i := range series {
		s := &series[i]
		if s.Sec < first || s.Sec > last {
			continue
		}
		if n := arrivals(s); n >= 10 && float64(s.Iterations) < 0.9*float64(n) {
			behind++
		}
	}
	return behind >= 2
}
