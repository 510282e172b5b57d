package threshold

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func TestNew(t *testing.T) {
	th, err := New(`http_req_duration{endpoint:"GET /x"}`, "p(99.9) < 1.5s")
	if err != nil {
		t.Fatal(err)
	}
	want := Threshold{
		Metric: "http_req_duration", Filter: []Tag{{"endpoint", "GET /x"}},
		Key: `http_req_duration{endpoint:"GET /x"}`, Expr: "p(99.9) < 1.5s",
		Agg: Percentile, P: 99.9, Op: Lt, Value: 1500,
	}
	if th.Metric != want.Metric || !slices.Equal(th.Filter, want.Filter) || th.Key != want.Key || th.Expr != want.Expr ||
		th.Agg != want.Agg || th.P != want.P || th.Op != want.Op || th.Value != want.Value {
		t.Errorf("New = %+v, want %+v", th, want)
	}
	if th.AggName() != "p(99.9)" {
		t.Errorf("AggName = %q, want p(99.9)", th.AggName())
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name    string
		key     string
		expr    string
		wantOff int
		wantMsg string
	}{
		{"bad key", "http_reqs{x:1}", "count > 1", 10, `filter key "x" is not allowed for http_reqs (allowed: scenario, endpoint, name, method, group, status)`},
		{"bad expression", "http_reqs", "count > ", 8, "expected a number, found the end"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.key, tc.expr)
			var e *Error
			if !errors.As(err, &e) || e.Offset != tc.wantOff || e.Msg != tc.wantMsg {
				t.Errorf("New error %v, want at %d %q", err, tc.wantOff, tc.wantMsg)
			}
		})
	}
}

func TestPassAndEvaluate(t *testing.T) {
	tests := []struct {
		name     string
		expr     string
		observed float64
		hasData  bool
		want     bool
	}{
		{"lt pass", "avg < 800", 799.9, true, true},
		{"lt fail on equal", "avg < 800", 800, true, false},
		{"lte pass on equal", "avg <= 800", 800, true, true},
		{"lte fail", "avg <= 800", 800.1, true, false},
		{"gt pass", "min > 1s", 1001, true, true},
		{"gt fail", "min > 1s", 1000, true, false},
		{"gte pass", "min >= 1s", 1000, true, true},
		{"gte fail", "min >= 1s", 999, true, false},
		{"eq pass", "count == 3", 3, true, true},
		{"eq fail", "count == 3", 4, true, false},
		{"ne pass", "count != 3", 4, true, true},
		{"ne fail", "count != 3", 3, true, false},
		{"NaN fails lt", "avg < 800", math.NaN(), true, false},
		{"no data fails, whatever the comparison", "avg < 800", 5, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			th, err := New("http_req_duration", tc.expr)
			if err != nil {
				t.Fatal(err)
			}
			if tc.hasData && th.Pass(tc.observed) != tc.want {
				t.Errorf("Pass(%v) = %v, want %v", tc.observed, !tc.want, tc.want)
			}
			r := th.Evaluate(tc.observed, tc.hasData)
			if r.Pass != tc.want || r.HasData != tc.hasData || r.Key != "http_req_duration" || r.Expr != tc.expr || r.Aborted {
				t.Errorf("Evaluate = %+v, want Pass %v", r, tc.want)
			}
			if wantReason := map[bool]string{false: NoData}[tc.hasData]; r.Reason != wantReason {
				t.Errorf("Evaluate reason %q, want %q", r.Reason, wantReason)
			}
		})
	}
}

func TestUnitAndNames(t *testing.T) {
	tests := []struct {
		key, expr string
		wantUnit  string
		wantAgg   string
	}{
		{"http_req_duration", "p(95) < 1", "ms", "p(95)"},
		{"http_req_duration", "med < 1", "ms", "med"},
		{"http_req_duration", "count < 1", "", "count"},
		{"http_req_failed", "rate < 1%", "", "rate"},
		{"http_reqs", "rate > 10", "/s", "rate"},
		{"http_reqs", "count > 10", "", "count"},
		{"data_sent", "count > 10", "B", "count"},
		{"data_received", "rate > 10", "B/s", "rate"},
		{"vus", "value > 1", "", "value"},
	}
	for _, tc := range tests {
		t.Run(tc.key+" "+tc.expr, func(t *testing.T) {
			th, err := New(tc.key, tc.expr)
			if err != nil {
				t.Fatal(err)
			}
			if th.Unit() != tc.wantUnit || th.AggName() != tc.wantAgg {
				t.Errorf("Unit %q AggName %q, want %q %q", th.Unit(), th.AggName(), tc.wantUnit, tc.wantAgg)
			}
		})
	}
}

func TestStrings(t *testing.T) {
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"Lt", Lt.String(), "<"}, {"Lte", Lte.String(), "<="}, {"Gt", Gt.String(), ">"},
		{"Gte", Gte.String(), ">="}, {"Eq", Eq.String(), "=="}, {"Ne", Ne.String(), "!="},
		{"bad op", Op(99).String(), "?"},
		{"Percentile", Percentile.String(), "p(N)"}, {"Avg", Avg.String(), "avg"}, {"Value", Value.String(), "value"},
		{"bad agg", AggKind(99).String(), "unknown"},
		{"Trend", Trend.String(), "trend"}, {"Gauge", Gauge.String(), "gauge"}, {"bad kind", MetricKind(9).String(), "unknown"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("String = %q, want %q", tc.got, tc.want)
			}
		})
	}
}
