package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// burstRun is n seconds at rate requests/s of the given model in which the
// seconds at idx had fail requests fail as kind.
func burstRun(model string, n, rate, fail int, kind sample.Kind, idx ...int) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := steady(n, rate, 10, 2*time.Millisecond)
		for _, i := range idx {
			secs[i].reqs[0].fail, secs[i].reqs[0].kind = fail, kind
		}
		return Input{Run: build(t, layout(model, "GET /x"), secs)}
	}
}

// withLater is n seconds at rate requests/s whose seconds at idx all
// failed with 500s, and one request of second at failed as kind.
func withLater(n, rate, at int, kind sample.Kind, idx ...int) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := steady(n, rate, 10, 2*time.Millisecond)
		for _, i := range idx {
			secs[i].reqs[0].fail, secs[i].reqs[0].kind = rate, sample.HTTP5xx
		}
		secs[at].reqs[0].fail, secs[at].reqs[0].kind = 1, kind
		return Input{Run: build(t, layout(modelArrivalRate, "GET /x"), secs)}
	}
}

// TestErrorBursts checks that a lone second amid the run in which the
// target answered at least 10 requests and 5 % of them with a failure is a
// warning, worded as a burst that stopped, and that what is not the
// target's own answer (timeouts, resets, the stop's), too few failures or
// too small a share of a busy second, and sporadic single failures, stay
// silent. Issue 20: one second of 100 500s in a 30 s run (3 %) read no
// errors finding while a rate==0 threshold failed.
func TestErrorBursts(t *testing.T) {
	open, closed := modelArrivalRate, modelVUs
	cases := []struct {
		name string
		in   func(t *testing.T) Input
		want *expect // nil: no errors finding
	}{
		{"100 500s in one second of a 30 s run, 3% of it", burstRun(open, 30, 100, 100, sample.HTTP5xx, 15),
			&expect{Warning, [2]int{15, 15}, [2]int{15, 15},
				[]string{"A burst of errors at 0:15: 100 of 100 requests failed (3.33% of the run's 3,000 requests), http_5xx 100%, then none"},
				[]string{"after the burst: 0 of 1,400 requests failed until the run ended", "100 http_5xx failures (100% of the failures) from 0:15"}}},
		{"10 of 100 in one second: the least burst", burstRun(open, 30, 100, 10, sample.HTTP5xx, 15),
			&expect{Warning, [2]int{15, 15}, [2]int{15, 15}, []string{"A burst of errors at 0:15: 10 of 100 requests failed", "then none"}, nil}},
		{"9 of 100 in one second: too few", burstRun(open, 30, 100, 9, sample.HTTP5xx, 15), nil},
		{"49 of 1,000 in one second: under 5% of it", burstRun(open, 30, 1000, 49, sample.HTTP5xx, 15), nil},
		{"50 of 1,000 in one second: 5% of it", burstRun(open, 30, 1000, 50, sample.HTTP5xx, 15),
			&expect{Warning, [2]int{15, 15}, [2]int{15, 15}, []string{"A burst of errors at 0:15: 50 of 1,000 requests failed"}, nil}},
		{"refused connections in one second", burstRun(open, 30, 100, 100, sample.ConnRefused, 15),
			&expect{Warning, [2]int{15, 15}, [2]int{15, 15}, []string{"A burst of errors at 0:15", "conn_refused 100%"}, nil}},
		{"timeouts in one second may be loadlens's lateness", burstRun(open, 30, 100, 100, sample.Timeout, 15), nil},
		{"resets in one second may be loadlens's or the stop's", burstRun(open, 30, 100, 100, sample.ConnReset, 15), nil},
		{"closed model: 500s in one second", burstRun(closed, 30, 100, 100, sample.HTTP5xx, 10),
			&expect{Warning, [2]int{10, 10}, [2]int{10, 10}, []string{"A burst of errors at 0:10: 100 of 100 requests failed", "then none"}, nil}},
		{"two lone bursts, 1.7% of the run", burstRun(open, 60, 100, 50, sample.HTTP5xx, 10, 20),
			&expect{Warning, [2]int{10, 10}, [2]int{20, 20}, []string{"Bursts of errors from 0:10 to 0:20: 100 of 1,100 requests failed (1.67% of the run's 6,000 requests)", "then none"}, nil}},
		{"a failure after the burst: not 'then none'", withLater(30, 100, 25, sample.HTTP5xx, 15),
			&expect{Warning, [2]int{15, 15}, [2]int{15, 15}, []string{"A burst of errors at 0:15"},
				[]string{"after the burst: 1 of 1,400 requests failed until the run ended"}}},
		{"two bursts: what follows the last", withLater(60, 100, 40, sample.HTTP5xx, 10, 20),
			&expect{Warning, [2]int{10, 10}, [2]int{20, 20}, []string{"Bursts of errors from 0:10 to 0:20"}, []string{"after the last burst: 1 of 3,900 requests failed until the run ended"}}},
		{"sporadic single failures", burstRun(open, 30, 100, 1, sample.HTTP5xx, 2, 5, 9, 14, 21, 27), nil},
		{"1 in 10,000", burstRun(open, 30, 1000, 1, sample.HTTP5xx, 3, 6, 9), nil},
		{"the stop's burst: four 503s, then the interrupted", abortedByErrors(true), nil},
		{"two seconds in a row stay critical", burstRun(open, 30, 100, 100, sample.HTTP5xx, 15, 16),
			&expect{Critical, [2]int{15, 15}, [2]int{16, 16}, []string{"Errors from 0:15"}, nil}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in(t)
			fs := Diagnose(in)
			f, found := expectKind(t, fs, KindErrorsAtLoad, tc.want)
			if v := Healthy(in, fs); v != nil && tc.want != nil {
				t.Errorf("a run with an errors finding is called healthy: %s", Join(v.Parts, v.Figures, rawValue))
			}
			burst := found && strings.Contains(strings.ToLower(title(f)), "burst")
			if burst && !strings.Contains(strings.Join(f.Remedies, "\n"), "retry storm") {
				t.Errorf("a burst's remedies are not a transient's: %q", f.Remedies)
			}
			if found && !burst && strings.Contains(strings.Join(f.Remedies, "\n"), "retry storm") {
				t.Errorf("a stretch of errors got a burst's remedies: %q", f.Remedies)
			}
		})
	}
}
