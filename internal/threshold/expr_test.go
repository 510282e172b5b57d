package threshold

import (
	"errors"
	"math"
	"testing"
)

func TestParseExpr(t *testing.T) {
	tests := []struct {
		name      string
		metric    string
		expr      string
		wantAgg   AggKind
		wantP     float64
		wantOp    Op
		wantValue float64
	}{
		{"percentile ms", "http_req_duration", "p(95) < 800ms", Percentile, 95, Lt, 800},
		{"no spaces", "http_req_duration", "p(95)<800", Percentile, 95, Lt, 800},
		{"decimal percentile", "http_req_waiting", "p(99.9)<=1.5s", Percentile, 99.9, Lte, 1500},
		{"spaces inside p", "http_req_duration", " p( 50 ) >= 2m ", Percentile, 50, Gte, 120000},
		{"p(100)", "iteration_duration", "p(100) < 1s", Percentile, 100, Lt, 1000},
		{"hours, as Go and k6 durations", "http_req_duration", "p(95)<1h", Percentile, 95, Lt, 3600000},
		{"a fraction of an hour", "iteration_duration", "max < 0.5h", Max, 0, Lt, 1800000},
		{"microseconds", "http_req_connecting", "avg < 250us", Avg, 0, Lt, 0.25},
		{"micro sign", "http_req_tls_handshaking", "max < 500µs", Max, 0, Lt, 0.5},
		{"bare number is ms", "scheduler_lag", "med > 12.5", Med, 0, Gt, 12.5},
		{"exponent", "http_req_duration", "min == 1e3ms", Min, 0, Eq, 1000},
		{"trend count", "http_req_duration", "count != 0", Count, 0, Ne, 0},
		{"rate ratio", "http_req_failed", "rate < 0.01", Rate, 0, Lt, 0.01},
		{"rate percent", "checks", "rate >= 99%", Rate, 0, Gte, 0.99},
		{"rate leading dot", "checks", "rate > .5", Rate, 0, Gt, 0.5},
		{"counter count", "http_reqs", "count > 100", Count, 0, Gt, 100},
		{"counter rate", "iterations", "rate >= 20.5", Rate, 0, Gte, 20.5},
		{"bytes count", "data_received", "count < 1e9", Count, 0, Lt, 1e9},
		{"gauge value", "vus", "value <= 50", Value, 0, Lte, 50},
		{"gauge max", "vus_max", "max < 100", Max, 0, Lt, 100},
		{"dropped count zero", "dropped_iterations", "count == 0", Count, 0, Eq, 0},
		{"tabs", "checks", "\trate\t>\t0.9\t", Rate, 0, Gt, 0.9},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			agg, p, op, v, err := ParseExpr(tc.metric, tc.expr)
			if err != nil {
				t.Fatalf("ParseExpr(%q, %q): %v", tc.metric, tc.expr, err)
			}
			if agg != tc.wantAgg || p != tc.wantP || op != tc.wantOp || math.Abs(v-tc.wantValue) > 1e-9 {
				t.Errorf("ParseExpr = %v %v %v %v, want %v %v %v %v", agg, p, op, v, tc.wantAgg, tc.wantP, tc.wantOp, tc.wantValue)
			}
		})
	}
}

func TestParseExprErrors(t *testing.T) {
	tests := []struct {
		name    string
		metric  string
		expr    string
		wantOff int
		wantMsg string
	}{
		{"unknown metric", "latency", "avg < 1", 0, `unknown metric "latency" (known: ` + knownNames(nil) + ")"},
		{"empty", "http_req_duration", "", 0, "expected an aggregation for http_req_duration (allowed: p(N), avg, min, max, med, count), found the end"},
		{"starts with operator", "checks", " < 1", 1, "expected an aggregation for checks (allowed: rate), found '<'"},
		{"unknown aggregation", "http_req_duration", "p95 < 1", 0, `unknown aggregation "p95" for http_req_duration, a trend (allowed: p(N), avg, min, max, med, count)`},
		{"rate on trend", "http_req_duration", "rate < 1", 0, `unknown aggregation "rate" for http_req_duration, a trend (allowed: p(N), avg, min, max, med, count)`},
		{"avg on rate", "http_req_failed", "avg < 1", 0, `unknown aggregation "avg" for http_req_failed, a rate (allowed: rate)`},
		{"p on counter", "http_reqs", "p(95) < 1", 0, `unknown aggregation "p" for http_reqs, a counter (allowed: count, rate)`},
		{"count on gauge", "vus", "count < 1", 0, `unknown aggregation "count" for vus, a gauge (allowed: value, min, max)`},
		{"percentile of connect time, which keeps no histogram", "http_req_connecting", "p(95) < 100ms", 0, `unknown aggregation "p" for http_req_connecting, a trend (allowed: avg, max, count)`},
		{"p without parenthesis", "http_req_duration", "p 95 < 1", 2, "expected ( after p: a percentile is written p(N), e.g. p(95)"},
		{"p without number", "http_req_duration", "p() < 1", 2, "expected a percentile number in p( ), found ')'"},
		{"p zero", "http_req_duration", "p(0) < 1", 2, "percentile 0 is not above 0 and at most 100"},
		{"p above 100", "http_req_duration", "p(100.5) < 1", 2, "percentile 100.5 is not above 0 and at most 100"},
		{"p negative", "http_req_duration", "p(-5) < 1", 2, "percentile -5 is not above 0 and at most 100"},
		{"p unclosed", "http_req_duration", "p(95 < 1", 5, "expected ) to close p(, found '<'"},
		{"missing operator", "http_req_duration", "avg 800", 4, "expected a comparison (<, <=, >, >=, ==, !=), found '8'"},
		{"single equals", "http_req_duration", "avg = 800", 4, "expected a comparison (<, <=, >, >=, ==, !=), found '='"},
		{"operator at end", "http_req_duration", "avg", 3, "expected a comparison (<, <=, >, >=, ==, !=), found the end"},
		{"missing value", "http_req_duration", "avg <", 5, "expected a number, found the end"},
		{"word value", "http_req_duration", "avg < fast", 6, "expected a number, found 'f'"},
		{"infinite value", "http_reqs", "count < 1e999", 8, "number 1e999 is out of range"},
		{"unknown time unit", "http_req_duration", "avg < 1d", 7, `unknown time unit "d": use us, µs, ms, s, m or h (no unit means ms)`},
		{"percent on trend", "http_req_duration", "avg < 1%", 7, `unknown time unit "%": use us, µs, ms, s, m or h (no unit means ms)`},
		{"unit on trend count", "http_req_duration", "count > 5ms", 9, `unexpected unit "ms": count of http_req_duration is a plain number`},
		{"unit on counter rate", "http_reqs", "rate > 5/s", 8, `unexpected unit "/s": rate of http_reqs is a plain number`},
		{"unit on gauge", "vus", "value < 5s", 9, `unexpected unit "s": value of vus is a plain number`},
		{"unit on rate", "checks", "rate > 0.9ms", 10, `unexpected unit "ms": a rate is a ratio like 0.01 or a percentage like 1%`},
		{"rate above 1", "checks", "rate > 1.5", 7, "rate 1.5 is outside 0..1 (0%..100%)"},
		{"rate percent above 100", "http_req_failed", "rate < 150%", 7, "rate 150% is outside 0..1 (0%..100%)"},
		{"negative rate", "http_req_failed", "rate < -0.1", 7, "rate -0.1 is outside 0..1 (0%..100%)"},
		{"negative duration (the field trial: never passes)", "http_req_duration", "p(95) < -5ms", 8, "duration -5ms is negative: a time is 0 or more, e.g. p(95) < 500ms"},
		{"negative duration, no unit", "iteration_duration", "avg > -1", 6, "duration -1 is negative: a time is 0 or more, e.g. p(95) < 500ms"},
		{"negative duration in seconds", "scheduler_lag", "max <= -0.5s", 7, "duration -0.5s is negative: a time is 0 or more, e.g. p(95) < 500ms"},
		{"text after value", "http_req_duration", "avg < 800ms and more", 12, "unexpected 'a' after the value"},
		{"two values", "http_req_duration", "avg < 800 900", 10, "unexpected '9' after the value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			agg, p, op, v, err := ParseExpr(tc.metric, tc.expr)
			if err == nil {
				t.Fatalf("ParseExpr(%q, %q) = %v %v %v %v, want an error", tc.metric, tc.expr, agg, p, op, v)
			}
			assertError(t, err, tc.wantOff, tc.wantMsg)
		})
	}
}

func FuzzParseExpr(f *testing.F) {
	seeds := []struct{ metric, expr string }{
		{"http_req_duration", "p(95) < 800ms"}, {"http_req_failed", "rate<1%"}, {"http_reqs", "count > 1e3"},
		{"vus", "value == 3"}, {"checks", "rate >= 0.99"}, {"iteration_duration", "p(99.9)<=1.5s"},
	}
	for _, s := range seeds {
		f.Add(s.metric, s.expr)
	}
	f.Fuzz(func(t *testing.T, metric, expr string) {
		agg, p, op, v, err := ParseExpr(metric, expr)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Offset < 0 || e.Offset > len(expr) {
				t.Fatalf("ParseExpr(%q, %q) error %v: not an *Error inside the expression", metric, expr, err)
			}
			return
		}
		kind, _ := KindOf(metric)
		switch {
		case !aggAllowed(metric, kind, agg):
			t.Fatalf("ParseExpr(%q, %q) returned %v, not allowed for a %v", metric, expr, agg, kind)
		case agg == Percentile && (p <= 0 || p > 100):
			t.Fatalf("ParseExpr(%q, %q) returned percentile %v", metric, expr, p)
		case op > Ne || math.IsNaN(v) || math.IsInf(v, 0):
			t.Fatalf("ParseExpr(%q, %q) returned op %v value %v", metric, expr, op, v)
		case kind == RateKind && (v < 0 || v > 1):
			t.Fatalf("ParseExpr(%q, %q) returned rate %v", metric, expr, v)
		}
	})
}

func TestLeavesOut(t *testing.T) {
	cases := []struct {
		agg  AggKind
		p    float64
		want float64
		ok   bool
	}{
		{Percentile, 95, 0.05, true},
		{Percentile, 99.9, 0.001, true},
		{Med, 0, 0.5, true},
		{Max, 0, 0, true},
		{Avg, 0, 0, false},
		{Min, 0, 0, false},
	}
	for _, c := range cases {
		got, ok := LeavesOut(c.agg, c.p)
		if ok != c.ok || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("LeavesOut(%v, %v) = %v, %v; want %v, %v", c.agg, c.p, got, ok, c.want, c.ok)
		}
	}
}
