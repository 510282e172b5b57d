package app

import (
	"testing"
	"time"
)

// TestElapsedAt checks how long the run had lasted at the end of each
// second the collector takes: whole seconds while the engine runs, and the
// time it ran for a last second its return cut short.
func TestElapsedAt(t *testing.T) {
	start := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		stopped time.Duration // 0: the engine is still running
		sec     int
		want    time.Duration
	}{
		{"running", 0, 4, 5 * time.Second},
		{"a second before the stop", 5300 * time.Millisecond, 4, 5 * time.Second},
		{"the last second, cut short", 5300 * time.Millisecond, 5, 5300 * time.Millisecond},
		{"stopped on a whole second", 6 * time.Second, 5, 6 * time.Second},
		{"an agent's second after the stop", 5300 * time.Millisecond, 6, 7 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &runner{start: start}
			if tt.stopped > 0 {
				r.stopped = start.Add(tt.stopped)
			}
			if got := r.elapsedAt(tt.sec); got != tt.want {
				t.Errorf("elapsedAt(%d) = %v, want %v", tt.sec, got, tt.want)
			}
		})
	}
}
