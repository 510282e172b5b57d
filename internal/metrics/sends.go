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

// until is when an endpoint of n requests sent over s was no longer
// asked: in the open model one mean interval after its last request's
// intended start, when the next was due; in the closed model when its
// last request ended, as a VU sends its next one then. It is 0 for fewer
// than two requests, or an open model's sent all at once: no rate.
func (s Sends) until(n int64, open bool) time.Duration {
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
	return s.LastStart + span/time.Duration(n-1)
}
