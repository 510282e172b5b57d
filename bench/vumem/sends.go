package main

import (
	"sync"
	"time"
)

// maxSends bounds the arrival times kept per run: 10,000 VUs for 15 s at one
// request a second is 150,000.
const maxSends = 1 << 20

// sends are the arrival times of a run's requests, and of each
// connection's first (a VU's first request: each VU holds one connection).
type sends struct {
	mu          sync.Mutex
	all, firsts []time.Time
}

// arrivals is the server's record of the current run.
var arrivals sends

// note records a request that arrived now, first on its connection or
// not; the clock is read under the lock, so the times are in order.
func (s *sends) note(first bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := time.Now()
	if len(s.all) < maxSends {
		s.all = append(s.all, t)
	}
	if first && len(s.firsts) < maxSends {
		s.firsts = append(s.firsts, t)
	}
}

// reset forgets what was recorded, before a run.
func (s *sends) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.all, s.firsts = s.all[:0], s.firsts[:0]
}

// startShape reads a run of vus VUs whose requests take r and whose think
// time is z: how long after the run's first request the last VU sent its
// first (every VU started), and the requests of the first 2 (r + z) after
// that first request over the closed model's 2 vus (vus ÷ (r + z) a
// second): about 1 when every VU sends at once, less when they start late.
func (s *sends) startShape(vus int, r, z time.Duration) (allSent time.Duration, early float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.firsts) == 0 {
		return 0, 0
	}
	t0 := s.firsts[0]
	if len(s.firsts) >= vus {
		allSent = s.firsts[vus-1].Sub(t0)
	} else {
		allSent = -1 // not every VU sent
	}
	end := t0.Add(2 * (r + z))
	n := 0
	for _, t := range s.all {
		if t.Before(end) {
			n++
		}
	}
	return allSent, float64(n) / float64(2*vus)
}
