package estimate

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/threshold"
)

// secs makes n seconds of reqs requests, failed of them failed, with every
// duration figure at d.
func secs(n int, reqs, failed int64, d time.Duration) []metrics.Second {
	out := make([]metrics.Second, n)
	for i := range out {
		out[i] = metrics.Second{Sec: i, Requests: reqs, Failed: failed, P50: d, P90: d, P95: d, P99: d, Max: d, Mean: d}
	}
	return out
}

func thresholds(t *testing.T, kv ...string) []threshold.Threshold {
	t.Helper()
	var defs []threshold.Threshold
	for i := 0; i+1 < len(kv); i += 2 {
		th, err := threshold.New(kv[i], kv[i+1])
		if err != nil {
			t.Fatal(err)
		}
		defs = append(defs, th)
	}
	return defs
}

// TestSustainedRateCountsOnlySuccessesWithinTheSLO: the field trial's case 3
// (65 % 5xx, p95 3 s at 400 req/s offered) was planned as 242 req/s per
// instance; failed requests and seconds past the SLO are not capacity.
func TestSustainedRateCountsOnlySuccessesWithinTheSLO(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name      string
		defs      []string
		secs      []metrics.Second
		wantRate  float64
		wantMet   int
		wantOfAll int
	}{
		{name: "case 3: 65% failed at p95 3s, nothing sustained",
			defs: []string{"http_req_duration", "p(95) < 100ms", "http_req_failed", "rate < 0.01"},
			secs: secs(20, 400, 260, 3000*ms), wantRate: 0, wantMet: 0, wantOfAll: 20},
		{name: "every second within the SLO: the successes per second",
			defs: []string{"http_req_duration", "p(95) < 100ms", "http_req_failed", "rate < 0.01"},
			secs: secs(10, 100, 0, 50*ms), wantRate: 100, wantMet: 10, wantOfAll: 10},
		{name: "failures within the budget are not counted as capacity",
			defs: []string{"http_req_failed", "rate < 0.05"},
			secs: secs(4, 200, 8, 50*ms), wantRate: 192, wantMet: 4, wantOfAll: 4},
		{name: "seconds over the error budget do not count",
			defs: []string{"http_req_failed", "rate < 0.01"},
			secs: append(secs(3, 100, 0, 50*ms), secs(2, 400, 200, 50*ms)...), wantRate: 100, wantMet: 3, wantOfAll: 5},
		{name: "seconds over the latency limit do not count",
			defs: []string{"http_req_duration", "p(95) < 100ms"},
			secs: append(secs(2, 80, 0, 90*ms), secs(3, 120, 0, 400*ms)...), wantRate: 80, wantMet: 2, wantOfAll: 5},
		{name: "a p(95) limit fails a second where more than 5% failed, however fast",
			defs: []string{"http_req_duration", "p(95) < 100ms"},
			secs: secs(3, 100, 6, 10*ms), wantRate: 0, wantMet: 0, wantOfAll: 3},
		{name: "<= admits the limit itself, < does not",
			defs:     []string{"http_req_duration", "p(99) <= 100ms", "http_req_duration", "avg < 100ms"},
			secs:     append(secs(1, 50, 0, 100*ms), metrics.Second{Requests: 50, P99: 100 * ms, Mean: 99 * ms}),
			wantRate: 50, wantMet: 1, wantOfAll: 2},
		{name: "rate == 0 allows no failed request: a second with one fails it",
			defs: []string{"http_req_failed", "rate == 0"},
			secs: append(secs(3, 100, 0, 10*ms), secs(1, 100, 1, 10*ms)...), wantRate: 100, wantMet: 3, wantOfAll: 4},
		{name: "a second without requests shows nothing sustained",
			defs: []string{"http_req_failed", "rate < 0.01"},
			secs: append(secs(1, 0, 0, 0), secs(1, 30, 0, ms)...), wantRate: 30, wantMet: 1, wantOfAll: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			slo, ok := SLOFromThresholds(thresholds(t, tt.defs...), RequestDuration)
			if !ok {
				t.Fatalf("no SLO taken from %q", tt.defs)
			}
			got := SustainedRate(tt.secs, slo)
			if !near(got.Rate, tt.wantRate) || got.Met != tt.wantMet || got.Seconds != tt.wantOfAll {
				t.Fatalf("got %v req/s over %d of %d seconds, want %v over %d of %d",
					got.Rate, got.Met, got.Seconds, tt.wantRate, tt.wantMet, tt.wantOfAll)
			}
		})
	}
}

// TestSLOFromThresholds takes only what a second can be judged on.
func TestSLOFromThresholds(t *testing.T) {
	tests := []struct {
		name       string
		defs       []string
		ok         bool
		limits     int
		maxErrors  float64
		wantSource string
	}{
		{name: "latency and errors", defs: []string{"http_req_duration", "p(95) < 800ms", "http_req_failed", "rate < 0.01"},
			ok: true, limits: 1, maxErrors: 0.01, wantSource: "http_req_duration p(95) < 800ms, http_req_failed rate < 0.01"},
		{name: "the tighter error budget wins", defs: []string{"http_req_failed", "rate < 0.05", "http_req_failed", "rate < 0.02"},
			ok: true, maxErrors: 0.02},
		{name: "p(97), a filter and a lower limit are not kept per second",
			defs: []string{"http_req_duration", "p(97) < 1s", "http_req_duration{endpoint:a}", "p(95) < 1s", "http_reqs", "count > 10"},
			ok:   false, maxErrors: -1},
		{name: "no thresholds", ok: false, maxErrors: -1},
		{name: "rate == 0 is kept", defs: []string{"http_req_failed", "rate == 0", "http_req_failed", "rate < 0.01"},
			ok: true, maxErrors: 0, wantSource: "http_req_failed rate == 0, http_req_failed rate < 0.01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			slo, ok := SLOFromThresholds(thresholds(t, tt.defs...), RequestDuration)
			if ok != tt.ok || len(slo.Latency) != tt.limits || !near(slo.MaxErrors, tt.maxErrors) ||
				!strings.Contains(slo.Source, tt.wantSource) {
				t.Fatalf("got ok %v, %d limits, errors %v, %q", ok, len(slo.Latency), slo.MaxErrors, slo.Source)
			}
		})
	}
}

// TestEverySLOPartIsKeptOrNamed: the run had `rate == 0` on
// http_req_failed, which the plan dropped without a word. Each threshold
// of the run is kept, replaced by a flag given, or named as not judged per
// second; a part no flag gives stays the run's.
func TestEverySLOPartIsKeptOrNamed(t *testing.T) {
	run := []string{"http_req_duration", "p(95) < 200ms", "http_req_failed", "rate == 0", "checks", "rate > 0.99",
		"http_req_duration{endpoint:GET /a}", "p(95) < 100ms", "http_req_duration", "p(97) < 1s"}
	unjudged := []string{"checks rate > 0.99", "http_req_duration{endpoint:GET /a} p(95) < 100ms", "http_req_duration p(97) < 1s"}
	tests := []struct {
		name      string
		goal      time.Duration
		maxErrors float64
		defs      []string
		source    string
		replaced  []string
		errors    float64
		unjudged  []string
	}{
		{"the run's own", 0, 0, run, "the run's thresholds http_req_duration p(95) < 200ms, http_req_failed rate == 0", nil, 0, unjudged},
		{"a latency goal keeps the run's errors", time.Second, 0, run,
			"p(95) < 1s (given) and the run's http_req_failed rate == 0", []string{"http_req_duration p(95) < 200ms"}, 0, unjudged},
		{"an error budget keeps the run's latency", 0, 0.05, run,
			"the run's http_req_duration p(95) < 200ms and errors < 5% (given)", []string{"http_req_failed rate == 0"}, 0.05, unjudged},
		{"nothing to judge a second on", 0, 0, []string{"checks", "rate > 0.99"},
			"p(95) < 1s and errors < 1% (the starter test's, as the run has no threshold to judge a second on)", nil, 0.01, unjudged[:1]},
		{"a goal on a run without an error threshold", 2 * time.Second, 0, nil, "p(95) < 2s (given) and errors < 1% (the starter test's)", nil, 0.01, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var defs []threshold.Threshold
			if tc.defs != nil {
				defs = thresholds(t, tc.defs...)
			}
			slo := SLOFor(tc.goal, tc.maxErrors, defs, RequestDuration)
			if slo.Source != tc.source || !near(slo.MaxErrors, tc.errors) || strings.Join(slo.Replaced, "; ") != strings.Join(tc.replaced, "; ") ||
				strings.Join(slo.Unjudged, "; ") != strings.Join(tc.unjudged, "; ") {
				t.Fatalf("source %q, errors %v, replaced %q, unjudged %q;\nwant %q, %v, %q, %q", slo.Source, slo.MaxErrors, slo.Replaced, slo.Unjudged,
					tc.source, tc.errors, tc.replaced, tc.unjudged)
			}
		})
	}
}
