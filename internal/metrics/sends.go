package metrics

import "time"

// Sends is when a set of an endpoint's requests was sent and answered:
// what its rate is over (Run.Active). Offsets are from the run's start.
type Sends struct {
	FirstStart, LastStart time.Duration // the earliest and latest intended start
	LastEnd               time.Duration // the latest end (answered, failed or cut off)
	// Kept is false in snapshots of format 3 or earlier, which kept none
	// of it, and in whatever merges one of them.
	Kept bool
}

// add widens s, the span of had requests, by o, that of n more.
func (s *Sends) add(had int64, n int64, o Sends) {
	switch {
	case n == 0:
	case had == 0:
		*s = o
	default:
		s.FirstStart, s.LastStart = min(s.FirstStart, o.FirstStart), max(s.LastStart, o.LastStart)
		s.LastEnd = max(s.LastEnd, o.LastEnd)
		s.Kept = s.Kept && o.Kept
	}
}

// until is when an endpoint of n requests sent over s was done: when its
// last request ended (a VU sends its next one then), or in the open model
// when its next was due (one mean interval after its last intended start)
// or when its last request ended less quickest, the endpoint's fastest
// answer, if that is later: so a target that fell behind is rated over the
// time it took to serve what it was sent (trial A: 5,000 offered at 200/s
// read 200/s while it served at most 184/s and the last 1,138 drained over
// 6 s), while one that kept up is not rated lower for its answers' length
// (20 sent over 1 s at 300 ms each are 20/s, not 20 over 1.3 s). It is 0
// for fewer than two requests, or an open model's sent all at once: no
// rate.
func (s Sends) until(n int64, open bool, quickest time.Duration) time.Duration {
	if n < 2 {
		return 0
	}
	if !open {
		return s.LastEnd
	}
	span := s.LastStart - s.FirstStart
	if span <= 0 {
		return 0
	}
	return max(s.LastStart+span/time.Duration(n-1), s.LastEnd-quickest)
}
