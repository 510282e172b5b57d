package report

import "testing"

// TestFramesChartSessionLengthsNotZero: the per-second latency the pages
// chart is never a 0 that no duration measured (trial B: a WebSocket and an
// SSE run drew "p50: 0s … max: 0s" while their sessions lasted 2 ms to
// 3.6 s). A run of sessions alone charts its sessions' lengths and says so
// (PageMeta.Latency "sessions"); beside requests or calls the sessions stay
// out, and the frame counts only the durations its percentiles are of.
func TestFramesChartSessionLengthsNotZero(t *testing.T) {
	tests := []struct {
		name    string
		keep    []int
		latency string  // PageMeta.Latency
		n       int64   // Frame.Latencies
		p95     float64 // Frame.P95, ms
	}{
		{"SSE alone: its sessions' lengths", []int{1}, "sessions", 2, 2000},
		{"GET + SSE: the GET's", []int{0, 1}, "requests", 10, 2},
		{"gRPC + SSE: the calls'", []int{1, 2}, "calls", 4, 30},
		{"GET alone", []int{0}, "requests", 10, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := sessionLatencyRun(t, tt.keep...)
			if got := NewPageMeta(in, 0).Latency; got != tt.latency {
				t.Errorf("PageMeta.Latency = %q, want %q", got, tt.latency)
			}
			f := Frames(in)[0]
			if f.Latencies != tt.n {
				t.Errorf("Frame.Latencies = %d, want %d", f.Latencies, tt.n)
			}
			if f.P95 < tt.p95*0.98 || f.P95 > tt.p95*1.02 { // the histogram's precision
				t.Errorf("Frame.P95 = %v ms, want %v", f.P95, tt.p95)
			}
			if f.P50 <= 0 || f.Max < f.P95 {
				t.Errorf("Frame p50 %v, max %v: want a length above 0 and max ≥ p95", f.P50, f.Max)
			}
		})
	}
}
