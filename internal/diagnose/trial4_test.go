package diagnose

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
)

// TestTrial4FindingsStayFixed checks the defects the fourth field trial
// found in the findings, each against a run built like the one that showed
// it: what the finding must say, and what no finding may say again.
func TestTrial4FindingsStayFixed(t *testing.T) {
	cases := []struct {
		name  string
		in    func(t *testing.T) Input
		kind  string
		want  *expect
		never []string // substrings no finding's title or evidence may hold
	}{
		{"a check of one name on three endpoints is counted per endpoint, as the CHECKS table", sameCheckName, KindCheckFailed,
			&expect{Info, [2]int{0, 0}, [2]int{5, 5}, []string{`"status is 200" failed 120 of 120 times from 0:00 on GET /missing`},
				[]string{"100.00% of the check's runs failed", "first failing second: 20 of 20 failed"}},
			[]string{"of 360", "33.3% of the check's runs"}},
		{"a check that failed only on timed-out requests is their symptom, not a race", timedOutCheck, KindCheckFailed,
			&expect{Info, [2]int{4, 4}, [2]int{9, 9}, []string{`Check failed because the request failed: "never more coupons than available" failed 3 of 20 times`},
				[]string{"3 requests of GET /coupons/stats failed from 0:04 to 0:09"}},
			[]string{"Check failed: "}},
		{"errors at an offered load never served before: not 'a load served before'", rampPastCapacity, KindErrorsAtLoad,
			// The requests that failed at 0:06 queued a second: they were sent at 0:05's 250 req/s.
			&expect{Critical, [2]int{6, 6}, [2]int{9, 9}, []string{"Errors start at 250 req/s offered (0:06)"},
				[]string{"completed (up to 250 req/s offered)", "95 of 190 requests failed at 250 req/s offered (they were sent at 0:05)"}},
			[]string{"served before"}},
		{"errors at an offered load served before without errors", steadyThenErrors, KindErrorsAtLoad,
			&expect{Critical, [2]int{6, 6}, [2]int{9, 9}, []string{"Errors from 0:06 at a load served before (100 req/s offered)"},
				[]string{"the same load was served before: 100 req/s offered and 100 req/s completed at 0:05, without errors"}}, nil},
		{"a DB CPU full while the client's latency stayed flat is context", withSeries(nodeCPU(0.46, 0.9, 15)), KindCPUSaturation,
			&expect{Info, [2]int{15, 15}, [2]int{40, 40}, []string{"DB CPU busy: 90% busy (node_cpu_seconds_total, role=db) from 0:15, but the client's latency did not rise with it"},
				[]string{"the client's mean latency: 30.0ms before 0:15, 30.0ms just after (medians)"}},
			[]string{"CPU saturated"}},
		{"a DB CPU full from the run's start is context", withSeries(nodeCPU(1, 1, 0)), KindCPUSaturation,
			&expect{Info, [2]int{0, 0}, [2]int{40, 40}, []string{"DB CPU busy: 100% busy (node_cpu_seconds_total, role=db) from 0:00, from the run's start with the load at its full rate: consistent with this load, but not shown to hold it back"}, nil},
			[]string{"CPU saturated"}},
		{"GC rising with load: its span covers both scrapes it compares", gcUpDown, KindGCPressure,
			&expect{Warning, [2]int{0, 0}, [2]int{24, 24}, []string{"GC pause share rises with load"},
				[]string{"of wall time at 1,002 req/s (0:24)", "of wall time at 2,226 req/s (0:12)", "scrapes from 0:00 to 0:24"}}, nil},
		{"a ramp of a flow that thinks between two GETs is no saturation", thinkFlow, KindSaturation, nil, nil},
		{"an overload of two endpoints is still saturation, its title from the seconds it names", twoEndpointOverload, KindSaturation,
			&expect{Warning, [2]int{0, 1}, [2]int{9, 9}, []string{"Saturation: throughput stayed below the offered load from 0:0", "to 0:09: 100 req/s of 200 req/s offered (medians)"},
				[]string{"to 0:09 (medians): 100 req/s completed of 200 req/s offered", "GET /a alone: p50", "were in flight at the end: they queued"}}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := Diagnose(tc.in(t))
			if _, found := expectKind(t, fs, tc.kind, tc.want); !found {
				return
			}
			for _, g := range fs {
				text := findingText(g)
				for _, bad := range tc.never {
					if strings.Contains(text, bad) {
						t.Errorf("%s finding says %q:\n%s", g.Kind, bad, text)
					}
				}
			}
		})
	}
}

// TestACheckFailingOnFailedRequestsRanksBelowTheirCause keeps the errors
// the timeouts belong to above the check they failed.
func TestACheckFailingOnFailedRequestsRanksBelowTheirCause(t *testing.T) {
	fs := Diagnose(timedOutCheck(t))
	if len(fs) < 2 || fs[0].Kind == KindCheckFailed {
		t.Fatalf("findings in order: %s; want the errors before the check they failed", titles(fs))
	}
	for _, f := range fs {
		if f.Kind == KindCheckFailed && strings.Contains(strings.Join(f.Remedies, " "), "atomic") {
			t.Errorf("a race remedy for a check that failed on timeouts: %v", f.Remedies)
		}
	}
}

// sameCheckName is three GETs, each checked "status is 200", 20 a second
// for 6 s: only GET /missing fails, every time (a 4xx).
func sameCheckName(t *testing.T) Input {
	l := layout(modelArrivalRate, "GET /direct/items/1", "GET /gw/items/1", "GET /missing")
	for ep := range 3 {
		l.Checks = append(l.Checks, sample.CheckInfo{Scenario: 0, Endpoint: int32(ep), Name: "status is 200"})
	}
	secs := make([]sec, 6)
	for i := range secs {
		secs[i] = sec{vus: 2, reqs: []reqs{{ep: 0, n: 20, dur: even(40*time.Millisecond, 0.3)}, {ep: 1, n: 20, dur: even(60*time.Millisecond, 0.3)},
			{ep: 2, n: 20, dur: even(time.Millisecond, 0.3), fail: 20, kind: sample.HTTP4xx}},
			checks: [][2]int64{{20, 0}, {20, 0}, {0, 20}}}
	}
	return Input{Run: build(t, l, secs)}
}

// timedOutCheck is case study 5's audit: its stats request timed out once
// a second from 0:04 (with the users' 5xx), and each time the content
// check on it failed, having no response to read.
func timedOutCheck(t *testing.T) Input {
	l := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "users", Model: modelArrivalRate}, {Name: "audit", Model: modelArrivalRate}},
		Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "POST /coupons/issue", Method: "POST"}, {Scenario: 1, Name: "GET /coupons/stats", Method: "GET"}},
		Checks:    []sample.CheckInfo{{Scenario: 1, Endpoint: 1, Name: "never more coupons than available"}}}
	var secs []sec
	for s := range 10 {
		failed, out := 0, 0
		if s >= 4 {
			failed = 40
		}
		if s == 4 || s == 6 || s == 9 {
			out = 1
		}
		secs = append(secs, sec{vus: 3, reqs: []reqs{{ep: 0, n: 100, dur: even(20*time.Millisecond, 0.3), fail: failed, kind: sample.HTTP5xx},
			{ep: 1, n: 2, dur: even(5*time.Millisecond, 0), fail: out, kind: sample.Timeout}}, checks: [][2]int64{{int64(2 - out), int64(out)}}})
	}
	return Input{Run: build(t, l, secs)}
}

// rampPastCapacity offers 100 req/s more by 30 each second to a target of
// 190 req/s; from 0:06 half of what completes is a 5xx. Completed
// throughput plateaued at 190 before the errors: not the offered load.
func rampPastCapacity(t *testing.T) Input {
	secs := openQueue(10, func(t int) int { return 100 + 30*t }, 190, 20*time.Millisecond)
	for i := 6; i < len(secs); i++ {
		secs[i].reqs[0].fail, secs[i].reqs[0].kind = secs[i].reqs[0].n/2, sample.HTTP5xx
	}
	return Input{Run: build(t, layout(modelArrivalRate, "POST /coupons/issue"), secs)}
}

// steadyThenErrors offers 100 req/s throughout, all served, until from
// 0:06 a tenth fail: time, not load, brought them.
func steadyThenErrors(t *testing.T) Input {
	secs := openQueue(10, func(int) int { return 100 }, 190, 20*time.Millisecond)
	for i := 6; i < len(secs); i++ {
		secs[i].reqs[0].fail, secs[i].reqs[0].kind = 10, sample.HTTP5xx
	}
	return Input{Run: build(t, layout(modelArrivalRate, "POST /coupons/issue"), secs)}
}

// TestTrial4Replays diagnoses the trial's own run.db files again (copied to
// testdata/corpus): what a finding must say there, what none may say.
func TestTrial4Replays(t *testing.T) {
	cases := []struct {
		name, db string
		kind     string
		want     *expect // nil: no finding of kind
		never    []string
	}{
		{"checkmerge: /missing's own check figures", "trial4-checkmerge", KindCheckFailed,
			&expect{Info, [2]int{0, 0}, [2]int{6, 6}, []string{`"status is 200" failed 120 of 120 times from 0:00 on GET /missing`}, []string{"100.00% of the check's runs failed"}},
			[]string{"failed 0 of 120", "\n0% of the check's runs failed"}},
		{"case 3 improved: a DB host busy from 0:17 while p95 stayed under 1 ms is context", "trial4-case3-improved", KindCPUSaturation,
			&expect{Info, [2]int{17, 17}, [2]int{25, 25}, []string{"but the client's latency did not rise with it"}, nil}, []string{"CPU saturated"}},
		{"case 3: a DB host busy from 0:00 at 17 req/s is context", "trial4-case3-busy-db", KindCPUSaturation,
			&expect{Info, [2]int{0, 0}, [2]int{37, 37}, []string{"DB CPU busy: 100% busy (node_cpu_seconds_total, role=db, target=host) from 0:00, from the run's start"}, nil},
			[]string{"CPU saturated"}},
		{"thinksat: a flow that thinks is no saturation", "trial4-thinksat", KindSaturation, nil, nil},
		{"case 5: errors at an offered load never served", "trial4-case5", KindErrorsAtLoad,
			&expect{Critical, [2]int{9, 9}, [2]int{28, 28}, []string{"Errors start at 350 req/s offered (0:09)"}, []string{"at up to 190 req/s completed"}},
			[]string{"served before", "make the update atomic"}},
		{"case 5: the audit's check failed on its timeouts, one finding with the status checks that failed on them", "trial4-case5", KindCheckFailed,
			&expect{Info, [2]int{9, 14}, [2]int{23, 28}, []string{"Checks failed because the requests failed: ", `"never more coupons than available" failed from`},
				[]string{`"never more coupons than available" failed `, `"status is 200" failed `}}, []string{"Check failed: ", "Check failed because"}},
		{"case 5: saturation's title and evidence from the same seconds", "trial4-case5", KindSaturation,
			&expect{Warning, [2]int{6, 6}, [2]int{12, 12}, []string{"from 0:06 to 0:12: 192 req/s of 350 req/s offered (medians)"},
				[]string{"from 0:06 to 0:12 (medians): 192 req/s completed of 350 req/s offered"}}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, fs := diagnoseRunDB(t, filepath.Join("testdata", "corpus", tc.db+".db"))
			if _, found := expectKind(t, fs, tc.kind, tc.want); !found {
				return
			}
			for _, g := range fs {
				text := findingText(g)
				text += "\n" + strings.Join(g.Remedies, "\n")
				for _, bad := range tc.never {
					if strings.Contains(text, bad) {
						t.Errorf("%s finding says %q:\n%s", g.Kind, bad, text)
					}
				}
			}
		})
	}
}

// thinkFlow ramps an arrival rate of iterations GET /a, think 1–3 s, GET
// /b against a target of fixed latencies (40 and 60 ms): 4 + 2t iterations
// start in second t, each holds its VU about 3 s, and /b comes 2 s after
// /a. Offered counts both requests at the start, so it leads what
// completes while the mean latency rises with the mix, not with a queue.
func thinkFlow(t *testing.T) Input {
	r := func(t int) int {
		if t < 0 {
			return 0
		}
		return 4 + 2*t
	}
	secs := make([]sec, 10)
	for i := range secs {
		secs[i] = sec{vus: int64(r(i) + r(i-1) + r(i-2)), vusMax: 1000, reqs: []reqs{{ep: 0, n: r(i), dur: even(40*time.Millisecond, 0.1)}}}
		if n := r(i - 2); n > 0 {
			secs[i].reqs = append(secs[i].reqs, reqs{ep: 1, n: n, dur: even(60*time.Millisecond, 0.1)})
		}
	}
	return Input{Run: build(t, layout(modelArrivalRate, "GET /a", "GET /b"), secs)}
}

// twoEndpointOverload offers 200 req/s, half to each of two endpoints, to
// a target that serves 100 req/s: both queue.
func twoEndpointOverload(t *testing.T) Input {
	secs := openQueue(10, func(int) int { return 200 }, 100, 10*time.Millisecond)
	for i := range secs {
		q := secs[i].reqs[0]
		a, b := q, q
		a.n, b.ep, b.n = q.n/2, 1, q.n-q.n/2
		secs[i].reqs = []reqs{a, b}
	}
	return Input{Run: build(t, layout(modelArrivalRate, "GET /a", "GET /b"), secs)}
}

// gcUpDown ramps throughput up to 0:12 and down again, with the GC pause
// share following it (scraped every 2 s): the least share comes after the
// most.
func gcUpDown(t *testing.T) Input {
	var secs []sec
	var shares []float64
	for s := range 25 {
		x := 1050 + 100*min(s, 24-s) - 2*s
		secs = append(secs, sec{vus: int64(x / 100), reqs: []reqs{{n: x, dur: even(10*time.Millisecond, 0.3)}}})
		if s%2 == 0 {
			shares = append(shares, float64(x)/100000)
		}
	}
	return Input{Run: build(t, layout(modelVUs, "GET /x"), secs), Series: series.Set{mk("go_gc_duration_seconds_sum", series.Rate, pts(0, 2, shares...), "role", "app")}}
}
