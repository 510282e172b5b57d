package report

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/capacity"
)

// TestKneeText: the knee line quotes the limit the knee was judged against
// (a fresh clone's knee quoted "within 1.5× its low-load 2.06ms" and "past
// it" at 1.91ms, judged on the search's lowest 1.16ms), then the low-load
// p95 below it; a knee at the lowest rate tried has none and says so.
func TestKneeText(t *testing.T) {
	r := capacity.Result{Config: capacity.Config{KneeFactor: 1.5, RequestsPerIteration: 1}}
	tests := []struct {
		name string
		knee capacity.Knee
		want string
	}{
		{"the knee is the lowest p95", capacity.Knee{Rate: 112, P95: 1160 * time.Microsecond, Base: 2060 * time.Microsecond, Limit: 1740 * time.Microsecond, NextRate: 169, NextP95: 1910 * time.Microsecond},
			"p95 1.16ms here, within 1.74ms (1.5× the search's lowest p95, 1.16ms), past it at every higher rate (1.91ms at 169 iterations/s); low-load p95 2.06ms below it"},
		{"steps below", capacity.Knee{Rate: 152, P95: 27 * time.Millisecond, Base: 31 * time.Millisecond, Limit: 40500 * time.Microsecond, NextRate: 160, NextP95: 117 * time.Millisecond},
			"p95 27.0ms here, within 40.5ms (1.5× the search's lowest p95, 27.0ms), past it at every higher rate (117ms at 160 iterations/s); low-load p95 31.0ms below it"},
		{"the lowest rate", capacity.Knee{Rate: 50, P95: 20 * time.Millisecond, Limit: 30 * time.Millisecond, NextRate: 100, NextP95: 80 * time.Millisecond},
			"p95 20.0ms here, within 30.0ms (1.5× the search's lowest p95, 20.0ms), past it at every higher rate (80.0ms at 100 iterations/s); the lowest rate tried"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := kneeText(r, &tt.knee); !strings.HasSuffix(got, tt.want) {
				t.Errorf("knee line %q, want it to end %q", got, tt.want)
			}
		})
	}
}
