package metrics

import (
	"testing"
	"time"
)

func TestHistBuckets(t *testing.T) {
	tests := []struct {
		name   string
		values []time.Duration
		want   []int64 // counts in ascending order
	}{
		{"nil", nil, nil},
		{"one value twice and another", []time.Duration{5 * time.Millisecond, time.Millisecond, 5 * time.Millisecond}, []int64{1, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var h *Hist
			if tc.values != nil {
				h = NewHist()
				for _, v := range tc.values {
					h.Record(v)
				}
			}
			var counts []int64
			var last time.Duration = -1
			h.Buckets(func(low time.Duration, n int64) {
				if low <= last {
					t.Errorf("bucket %v after %v: not ascending", low, last)
				}
				last = low
				counts = append(counts, n)
			})
			if len(counts) != len(tc.want) {
				t.Fatalf("counts %v, want %v", counts, tc.want)
			}
			for i := range counts {
				if counts[i] != tc.want[i] {
					t.Fatalf("counts %v, want %v", counts, tc.want)
				}
			}
			if tc.values != nil && (last < 4990*time.Microsecond || last > 5*time.Millisecond) {
				t.Errorf("highest bucket starts at %v, want 5ms to 3 digits", last)
			}
		})
	}
}
