package diagnose

import (
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// failAt makes every request of the seconds at idx of secs fail as kind.
func failAt(secs []sec, kind sample.Kind, idx ...int) []sec {
	for _, i := range idx {
		secs[i].reqs[0].fail, secs[i].reqs[0].kind = secs[i].reqs[0].n, kind
	}
	return secs
}

// edgeErrors is a steady run of n seconds at rate requests/s of the given
// model whose requests failed as kind in the seconds at idx; cut, when
// more than 0, adds a last second the stop cut short after 200 ms, with
// cut requests, all failed as cutKind (the closed model's graceful stop).
func edgeErrors(model string, n, rate, cut int, kind, cutKind sample.Kind, idx ...int) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := failAt(steady(n, rate, 10, 2*time.Millisecond), kind, idx...)
		if cut > 0 {
			secs = append(secs, sec{vus: 10, reqs: []reqs{{n: cut, dur: even(2*time.Millisecond, 0.5), fail: cut, kind: cutKind}}})
		}
		run := build(t, layout(model, "GET /x"), secs)
		if cut > 0 {
			run.SetElapsed(time.Duration(n)*time.Second + 200*time.Millisecond)
		}
		return Input{Run: run}
	}
}

// TestErrorsAtTheEdges checks that a target's errors are named at the
// run's edges, where one second of them is enough: in its last seconds,
// whose stretch the run's end cut short of two, in its first, and in a run
// of 3 s; the stop's own failures (requests cut off, resets) are not the
// target's, and one second amid the run is a burst (errburst_test.go).
// Issue 20: 500s in the last seconds of a run read no errors finding.
func TestErrorsAtTheEdges(t *testing.T) {
	open, closed := modelArrivalRate, modelVUs
	none := sample.OK
	cases := []struct {
		name string
		in   func(t *testing.T) Input
		want *expect // nil: no errors finding
	}{
		{"500s in the last whole second, 3% of the run", edgeErrors(open, 30, 100, 0, sample.HTTP5xx, none, 29),
			&expect{Critical, [2]int{29, 29}, [2]int{29, 29}, []string{"Errors from 0:29 at a load served before", "http_5xx 100%"},
				[]string{"100 http_5xx failures (100% of the failures) from 0:29"}}},
		{"500s in the last 2 seconds, the last cut short", edgeErrors(open, 30, 100, 2, sample.HTTP5xx, sample.HTTP5xx, 29),
			&expect{Critical, [2]int{29, 29}, [2]int{30, 30}, []string{"Errors from 0:29", "http_5xx 100%"},
				[]string{"102 http_5xx failures (100% of the failures) from 0:29"}}},
		// fresh39: the stretch ended at the last whole second, so the cut-short
		// one's 2 failures were left out of "181 http_5xx failures" of 183.
		{"500s in the last 3 whole seconds and the cut-short one", edgeErrors(open, 30, 100, 2, sample.HTTP5xx, sample.HTTP5xx, 27, 28, 29),
			&expect{Critical, [2]int{27, 27}, [2]int{30, 30}, []string{"Errors from 0:27", "http_5xx 100%"},
				[]string{"302 http_5xx failures (100% of the failures) from 0:27"}}},
		{"500s in the last 3 seconds at 2 req/s", edgeErrors(open, 90, 2, 0, sample.HTTP5xx, none, 87, 88, 89),
			&expect{Critical, [2]int{87, 87}, [2]int{89, 89}, []string{"Errors from 1:27", "http_5xx 100%"},
				[]string{"6 http_5xx failures (100% of the failures) from 1:27"}}},
		{"500s in the first second, 10% of the run", edgeErrors(open, 10, 100, 0, sample.HTTP5xx, none, 0),
			&expect{Critical, [2]int{0, 0}, [2]int{0, 0}, []string{"Errors from the start (0:00", "http_5xx 100%"},
				[]string{"100 http_5xx failures (100% of the failures) from 0:00"}}},
		{"500s in the first second, 3% of the run", edgeErrors(open, 30, 100, 0, sample.HTTP5xx, none, 0),
			&expect{Critical, [2]int{0, 0}, [2]int{0, 0}, []string{"Errors from the start (0:00", "http_5xx 100%"},
				[]string{"100 http_5xx failures (100% of the failures) from 0:00"}}},
		{"500s in the first and the last second", edgeErrors(open, 30, 100, 0, sample.HTTP5xx, none, 0, 29),
			&expect{Critical, [2]int{0, 0}, [2]int{29, 29}, []string{"Errors from the start (0:00", "http_5xx 100%"},
				[]string{"200 http_5xx failures (100% of the failures) from 0:00"}}},
		{"500s in one second amid the run, 3% of it, are a burst", edgeErrors(open, 30, 100, 0, sample.HTTP5xx, none, 15),
			&expect{Warning, [2]int{15, 15}, [2]int{15, 15}, []string{"A burst of errors at 0:15", "then none"}, nil}},
		{"resets in the first second need two", edgeErrors(open, 30, 100, 0, sample.ConnReset, none, 0), nil},
		{"500s in the first 2 seconds of a long run", edgeErrors(open, 60, 100, 0, sample.HTTP5xx, none, 0, 1),
			&expect{Critical, [2]int{0, 0}, [2]int{1, 1}, []string{"Errors from the start (0:00", "http_5xx 100%"},
				[]string{"200 http_5xx failures (100% of the failures) from 0:00"}}},
		{"a 3 s run whose last second answered 500", edgeErrors(open, 3, 100, 0, sample.HTTP5xx, none, 2),
			&expect{Critical, [2]int{2, 2}, [2]int{2, 2}, []string{"Errors from 0:02", "http_5xx 100%"}, nil}},
		{"closed model: the graceful stop's last requests answered 500", edgeErrors(closed, 30, 100, 10, none, sample.HTTP5xx),
			&expect{Critical, [2]int{30, 30}, [2]int{30, 30}, []string{"Errors from 0:30, the run's last second, which its end cut short: 100.00% of requests failed, http_5xx 100%"},
				[]string{"first failing second: 10 of 10 requests failed before the run ended in it", "10 http_5xx failures (100% of the failures) from 0:30"}}},
		{"closed model: the graceful stop cut requests off", edgeErrors(closed, 30, 100, 10, none, sample.Interrupted), nil},
		{"resets in the last second may be the stop's", edgeErrors(open, 30, 100, 0, sample.ConnReset, none, 29), nil},
		{"no errors", edgeErrors(open, 30, 100, 0, none, none), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in(t)
			fs := Diagnose(in)
			expectKind(t, fs, KindErrorsAtLoad, tc.want)
			if v := Healthy(in, fs); v != nil && tc.want != nil {
				t.Errorf("a run with an errors finding is called healthy: %s", Join(v.Parts, v.Figures, rawValue))
			}
		})
	}
}
