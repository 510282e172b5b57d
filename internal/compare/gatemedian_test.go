package compare

import (
	"strings"
	"testing"
)

// TestATailGateSeesTheMedianMove: an endpoint 30 % slower on every request
// read p95 +17.2 % [-3.0 %, +51.0 %] beside p50 +29.0 % [+27.7 %, +29.9 %]
// and passed 'p(95) +10%' as not significantly past it. A tail estimate
// past the limit beside a median wholly and significantly past it is not
// judged; a median that moved less, or a tail estimate within the limit,
// leaves the verdict as it was.
func TestATailGateSeesTheMedianMove(t *testing.T) {
	for _, tc := range []struct {
		name              string
		gate              string
		p95, p95Lo, p95Hi float64
		p50, p50Lo, p50Hi float64
		p50Significant    bool
		wantNotJudged     bool
		wantSaid          string
	}{
		{"the trial's endpoint", "p(95) +10%", 17.2, -3.0, 51.0, 29.0, 27.7, 29.9, true, true, "p50 rose +29.0%"},
		{"a median within the limit", "p(95) +10%", 17.2, -3.0, 51.0, 8.0, 5.0, 11.0, true, false, "not significantly past it"},
		{"a median whose interval reaches back", "p(95) +10%", 17.2, -3.0, 51.0, 14.0, 8.0, 20.0, true, false, "not significantly past it"},
		{"a median the table holds back", "p(95) +10%", 17.2, -3.0, 51.0, 29.0, 27.7, 29.9, false, false, "not significantly past it"},
		{"a tail within the limit", "p(95) +10%", 4.5, -8.0, 18.0, 29.0, 27.7, 29.9, true, false, "is within +10%"},
		{"a gate on the median itself", "p(50) +40%", 45, 20, 60, 29.0, 27.7, 29.9, true, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ParseGate(tc.gate)
			if err != nil {
				t.Fatal(err)
			}
			value := func(pct, lo, hi float64, sig bool) Value {
				d := pct / 10
				return Value{Has: true, Value: 10 + d, Samples: 30, Runs: 1, Requests: 3000, Delta: &d, DeltaPct: &pct,
					CI: &Interval{Lo: lo / 10, Hi: hi / 10}, CIPct: &Interval{Lo: lo, Hi: hi}, MinEffect: 1, Significant: sig}
			}
			base := Value{Has: true, Value: 10, Samples: 30, Runs: 1, Requests: 3000}
			r := &Report{Groups: []GroupInfo{{Runs: []int{0}, Comparable: true}, {Runs: []int{1}, Comparable: true}},
				Runs: []RunInfo{{Name: "a"}, {Name: "b"}},
				Rows: []Row{{Name: allEndpoints, Lines: []Line{
					{Metric: P50, Values: []Value{base, value(tc.p50, tc.p50Lo, tc.p50Hi, tc.p50Significant)}},
					{Metric: P95, Values: []Value{base, value(tc.p95, tc.p95Lo, tc.p95Hi, false)}},
				}}}}
			res := r.Check([]Gate{g})[0]
			if res.Failed || res.NotJudged != tc.wantNotJudged || !strings.Contains(res.Reason, tc.wantSaid) {
				t.Fatalf("failed %v, not judged %v (want %v): %s\nwant it to say %q", res.Failed, res.NotJudged, tc.wantNotJudged, res.Reason, tc.wantSaid)
			}
		})
	}
}

// TestAGateWithoutEndpointJudgesEachEndpoint: one endpoint of two 30 %
// slower moved the all-endpoints p95 by +9.2 % and passed 'p(95) +10%'; a
// gate without an endpoint fails when an endpoint alone would fail it,
// and passes when none does or an endpoint is missing on one side.
func TestAGateWithoutEndpointJudgesEachEndpoint(t *testing.T) {
	value := func(pct, lo, hi float64, sig bool) Value {
		d := pct / 10
		return Value{Has: true, Value: 10 + d, Samples: 30, Runs: 1, Requests: 3000, Delta: &d, DeltaPct: &pct,
			CI: &Interval{Lo: lo / 10, Hi: hi / 10}, CIPct: &Interval{Lo: lo, Hi: hi}, MinEffect: 1, Significant: sig}
	}
	base := Value{Has: true, Value: 10, Samples: 30, Runs: 1, Requests: 3000}
	row := func(name string, v Value) Row {
		return Row{Name: name, Lines: []Line{{Metric: P95, Values: []Value{base, v}}}}
	}
	for _, tc := range []struct {
		name       string
		b          Value
		wantFailed bool
	}{
		{"an endpoint significantly past the limit", value(23.6, 2.1, 41.3, true), true},
		{"an endpoint within the limit", value(4, -3, 11, false), false},
		{"an endpoint past the limit, not significantly", value(17.2, -3.0, 51.0, false), false},
		{"an endpoint the new run lacks", Value{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ParseGate("p(95) +10%")
			if err != nil {
				t.Fatal(err)
			}
			r := &Report{Groups: []GroupInfo{{Runs: []int{0}, Comparable: true}, {Runs: []int{1}, Comparable: true}},
				Runs:      []RunInfo{{Name: "a"}, {Name: "b"}},
				Rows:      []Row{row(allEndpoints, value(9.2, 1, 17, true)), row("GET /a", value(-1, -6, 4, false)), row("GET /b", tc.b)},
				endpoints: []string{"GET /a", "GET /b"}}
			res := r.Check([]Gate{g})[0]
			if res.Failed != tc.wantFailed || tc.wantFailed && !strings.Contains(res.Reason, "GET /b failed it") {
				t.Fatalf("failed %v (want %v): %s", res.Failed, tc.wantFailed, res.Reason)
			}
		})
	}
}
