package engine

import (
	"testing"
	"time"
)

// TestFDWatch checks the pool's hold by the descriptors the process really
// holds: a target in the same process holds a second one per connection,
// so the pool stops at half the VUs one connection per VU would allow.
func TestFDWatch(t *testing.T) {
	const limit = 2000 // vusForFiles leaves 1875 descriptors for the pool
	tests := []struct {
		name    string
		perVU   int64 // descriptors each VU holds
		wantMax int64 // the pool grows to at most this many VUs
		wantMin int64 // and at least this many
	}{
		{"a remote target: one connection per VU", 1, 1875 - 10, 1875 - 10 - 2},
		{"a target in this process: two per VU", 2, (1875 - 10) / 2, (1875-10)/2 - 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var vus int64
			w := newFDWatchCounting(limit, func() int64 { return 10 + tt.perVU*vus })
			now := time.Duration(0)
			for vus < 10_000 && !w.full(now, vus) {
				vus++
				now += fdsEvery // a count at every step: the projection is exact
			}
			if vus > tt.wantMax || vus < tt.wantMin {
				t.Errorf("the pool stopped at %d VUs, want %d..%d", vus, tt.wantMin, tt.wantMax)
			}
		})
	}
	if w := newFDWatchCounting(limit, func() int64 { return -1 }); w.full(0, 1_000_000) {
		t.Error("a process whose descriptors cannot be counted is held")
	}
}
