package report

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/estimate"
	"github.com/loadlens/loadlens/internal/plan"
)

// TestWriteTestParses checks the starter test against the real parser: the
// file must load as written, with the computed rate, VUs and thresholds.
func TestWriteTestParses(t *testing.T) {
	tests := []struct {
		name      string
		in        estimate.Input
		baseURL   string
		path      string
		rate      float64
		vus       int
		stages    int
		threshold string
	}{
		{"case 3 with Little's law", estimate.Input{DAU: 100000, VisitsPerUser: 15, PeakHourShare: 0.12, Headroom: 1.4,
			ResponseTime: 100 * time.Millisecond, ThinkTime: 1400 * time.Millisecond, LatencyGoal: 100 * time.Millisecond},
			"http://127.0.0.1:8080", "/feed", 70, 105, 2, "p(95) < 100ms"},
		{"case 5 event, defaults", estimate.Input{EventUsers: 100000, RequestsPerUser: 50, EventWindow: 10 * time.Minute},
			"https://shop.example/api", "/coupons/issue?event=1", 8400, 0, 2, "p(95) < 1s"},
		{"fractional rate, odd path, newline in a note", estimate.Input{RPS: 0.123, PerInstance: 1, PerInstanceFrom: "line\n- evil: yes", Ramp: 30 * time.Second, Hold: time.Hour},
			"http://h:1", `/a "quoted" {{ randInt(1, 3) }}`, 0.13, 0, 2, "p(95) < 1s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := estimate.Estimate(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := WriteEstimateTest(&b, r, "", tc.baseURL, tc.path); err != nil {
				t.Fatal(err)
			}
			p, err := plan.Parse("test.yaml", []byte(b.String()), func(string) (string, bool) { return "", false })
			if err != nil {
				t.Fatalf("the written test does not parse: %v\n%s", err, b.String())
			}
			if len(p.Scenarios) != 1 || p.BaseURL == "" {
				t.Fatalf("scenarios %d, base URL %q", len(p.Scenarios), p.BaseURL)
			}
			load := p.Scenarios[0].Load
			if load.Model != plan.ArrivalRate || len(load.Stages) != tc.stages {
				t.Fatalf("model %v with %d stages, want arrival-rate with %d", load.Model, len(load.Stages), tc.stages)
			}
			for _, s := range load.Stages {
				if !near(s.Target, tc.rate) {
					t.Errorf("stage target %v, want %v", s.Target, tc.rate)
				}
			}
			if tc.vus > 0 && load.PreAllocatedVUs != tc.vus {
				t.Errorf("pre-allocated VUs %d, want %d", load.PreAllocatedVUs, tc.vus)
			}
			exprs := map[string]bool{}
			for _, th := range p.Thresholds {
				exprs[th.Expr] = true
			}
			if !exprs[tc.threshold] || !exprs["rate < 0.01"] {
				t.Errorf("thresholds %v, want %q and the error rate", exprs, tc.threshold)
			}
		})
	}
}

func TestWriteTestRejectsBadTargets(t *testing.T) {
	r, err := estimate.Estimate(estimate.Input{RPS: 10})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, baseURL, path, want string
		r                         estimate.Result
	}{
		{"no scheme", "127.0.0.1:8080", "/", "not an http:// or https:// URL", r},
		{"query in base", "http://h/?a=1", "/", "no query", r},
		{"relative path", "http://h", "feed", "must start with /", r},
		{"no target", "http://h", "/", "no target rate", estimate.Result{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := WriteEstimateTest(&strings.Builder{}, tc.r, "", tc.baseURL, tc.path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}
