package history

import (
	"strings"
	"testing"
	"time"
)

// TestLeftOutWeighsTheLagAgainstTheFigure is trial C's: runs whose
// generator lag p99 was 43–84 ms were left out whole (21 of 24), though
// their lag at the p50 level was 0.1 ms beside a p50 of 22 ms. A run is
// left out of a figure only when its generator's lag at that figure's
// level is a tenth of it or more.
func TestLeftOutWeighsTheLagAgainstTheFigure(t *testing.T) {
	ms := func(x float64) time.Duration { return time.Duration(x * float64(time.Millisecond)) }
	e := Endpoint{Name: "GET /h", Requests: 500, RPS: 50, P50: ms(22.5), P95: ms(57), P99: ms(124)}
	busy := Run{Status: "completed", Disturbed: "generator-host-busy", Lag: &Lag{P50: ms(0.11), P95: ms(18.6), P99: ms(59.5)}, Endpoints: []Endpoint{e}}
	tests := []struct {
		name string
		run  Run
		f    Figure
		want string // "" counts
	}{
		{"busy host, p50", busy, P50, ""},
		{"busy host, p95", busy, P95, "lag p(95) of 18.6ms is 32.6% of its p(95) of 57.0ms"},
		{"busy host, p99", busy, P99, "lag p(99) of 59.5ms is 48"},
		{"busy host, rps", busy, Throughput, ""},
		{"a schedule not kept, rps", Run{Status: "completed", Disturbed: "generator-host-busy", Lag: &Lag{P50: ms(150)}, Endpoints: []Endpoint{e}}, Throughput, "lag p50 of 150ms is past 100ms"},
		{"generator-bound, rps", Run{Status: "completed", Disturbed: "generator-bound", Lag: &Lag{}, Endpoints: []Endpoint{e}}, Throughput, "the generator, not the target, set its rate"},
		{"no lag recorded", Run{Status: "completed", Disturbed: "generator-host-busy", Endpoints: []Endpoint{e}}, P50, "recorded no scheduling lag"},
		{"quiet", Run{Status: "completed", Endpoints: []Endpoint{e}}, P99, ""},
		{"interrupted", Run{Status: "interrupted", Endpoints: []Endpoint{e}}, P50, "did not complete (interrupted)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.run.LeftOut(tc.f, e)
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Fatalf("left out: %q, want %q", got, tc.want)
			}
		})
	}
	if !busy.Analysed() {
		t.Error("a busy-host run whose p50 its lag could not move is not analysed at all")
	}
	if got := busy.LeftOutText(); !strings.Contains(got, "GET /h p(95) (lag 18.6ms, 32.6% of 57.0ms), p(99)") || strings.Contains(got, "p(50)") {
		t.Errorf("left out text %q", got)
	}
}
