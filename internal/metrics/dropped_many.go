package metrics

import "time"

// DroppedN records n iterations that could not start, counted at once by a
// scheduler that fell far behind (sample.DropCounter).
func (s *shard) DroppedN(scenario int32, at time.Duration, n int64) {
	s.checkScenario(scenario)
	s.mu.Lock()
	s.windowAt(at).scenarios[scenario].dropped += n
	s.mu.Unlock()
}

// DroppedN counts n dropped iterations (sample.DropCounter).
func (s *counterShard) DroppedN(_ int32, _ time.Duration, n int64) { s.dropped.Add(n) }
