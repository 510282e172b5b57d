package estimate

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
)

// ramp makes seconds of the given good-request counts, each offered as
// many arrivals, at latency d except those listed slow (400 ms).
func ramp(counts []int64, d time.Duration, slow ...int) []metrics.Second {
	out := make([]metrics.Second, len(counts))
	for i, n := range counts {
		lat := d
		for _, s := range slow {
			if s == i {
				lat = 400 * time.Millisecond
			}
		}
		out[i] = metrics.Second{Sec: i, Requests: n, P50: lat, P90: lat, P95: lat, P99: lat, Max: lat, Mean: lat,
			PerScenario: []metrics.ScenarioFigures{{Offered: n}}}
	}
	return out
}

// TestRampedAndItsRate: the s35 trial's ramp 50 → 260/s planned 137 req/s
// per instance (the average of its ramp) for a target the capacity search
// put at 186; a ramp's rate is the best RampWindow good seconds in a row.
func TestRampedAndItsRate(t *testing.T) {
	ms := time.Millisecond
	trial := []int64{58, 76, 93, 111, 125, 149, 164, 178, 120, 176, 190, 200, 150}
	tests := []struct {
		name     string
		secs     []metrics.Second
		ramped   bool
		wantRate float64
		wantMet  int
	}{
		{name: "the trial's ramp, failing from second 8", secs: ramp(trial, 20*ms, 8, 9, 10, 11, 12), ramped: true,
			wantRate: (149 + 164 + 178) / 3.0, wantMet: 8},
		{name: "a ramp that never failed: its best three seconds", secs: ramp(trial[:8], 20*ms), ramped: true,
			wantRate: (149 + 164 + 178) / 3.0, wantMet: 8},
		{name: "a single good second between slow ones is no rate", secs: ramp([]int64{50, 100, 150, 200}, 20*ms, 0, 2),
			ramped: true, wantRate: 0, wantMet: 2},
		{name: "a flat load is no ramp", secs: ramp([]int64{100, 104, 97, 101, 99}, 20*ms), ramped: false,
			wantRate: (104 + 97 + 101) / 3.0, wantMet: 5},
	}
	slo, _ := SLOFromThresholds(thresholds(t, "http_req_duration", "p(95) < 100ms"), RequestDuration)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			last := tt.secs[len(tt.secs)-1].Sec
			if got := Ramped(tt.secs, 0, last); got != tt.ramped {
				t.Fatalf("Ramped = %v, want %v", got, tt.ramped)
			}
			got := SustainedOnRamp(tt.secs, slo, RampWindow)
			if !near(got.Rate, tt.wantRate) || got.Met != tt.wantMet || got.Seconds != len(tt.secs) || got.Window != RampWindow {
				t.Fatalf("got %v over %d of %d seconds (window %d), want %v over %d of %d",
					got.Rate, got.Met, got.Seconds, got.Window, tt.wantRate, tt.wantMet, len(tt.secs))
			}
		})
	}
}

// TestRampedReadsVUsInTheClosedModel: without offered arrivals, the active
// VUs are the load.
func TestRampedReadsVUsInTheClosedModel(t *testing.T) {
	secs := []metrics.Second{{Sec: 0, VUs: 10}, {Sec: 1, VUs: 20}, {Sec: 2, VUs: 30}}
	if !Ramped(secs, 0, 2) {
		t.Error("10 → 30 VUs is a ramp")
	}
	if Ramped(secs, 1, 1) {
		t.Error("one second is no ramp")
	}
}

// TestFellBehind: a ramp within its SLO whose completions fell behind what
// it offered reached the target's limit (the s35 trial's second estimate
// said "never pushed to its limit" of a run whose diagnosis found the knee).
func TestFellBehind(t *testing.T) {
	sec := func(n int, offered, done int64) metrics.Second {
		return metrics.Second{Sec: n, Iterations: done, PerScenario: []metrics.ScenarioFigures{{Offered: offered}}}
	}
	tests := []struct {
		name string
		secs []metrics.Second
		want bool
	}{
		{"kept up throughout", []metrics.Second{sec(0, 100, 100), sec(1, 150, 148), sec(2, 200, 195)}, false},
		{"one slow second is jitter", []metrics.Second{sec(0, 100, 100), sec(1, 150, 120), sec(2, 200, 195)}, false},
		{"two seconds a tenth behind: a knee", []metrics.Second{sec(0, 100, 100), sec(1, 200, 170), sec(2, 250, 180)}, true},
		{"tiny seconds are not judged", []metrics.Second{sec(0, 5, 1), sec(1, 8, 2)}, false},
		{"the closed model offers nothing", []metrics.Second{{Sec: 0, Iterations: 10}, {Sec: 1, Iterations: 5}}, false},
	}
	for _, tt := range tests {
		if got := FellBehind(tt.secs, 0, 10); got != tt.want {
			t.Errorf("%s: FellBehind = %v, want %v", tt.name, got, tt.want)
		}
	}
}
