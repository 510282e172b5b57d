package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
)

// TestTrialA39Replays diagnoses the run.db files of outside trial A39
// again (copied to testdata/corpus): nginx's limit_req refusing half of
// 100 req/s, a DB pool that queued the load on a host other jobs kept
// busy, and the fixed item service whose generator lagged in its tail.
func TestTrialA39Replays(t *testing.T) {
	replayTrials(t, []replayCase{
		{"nginx: its own 503 page names the load balancer, with its remedies", "trialA39-nginx", KindErrorsAtLoad,
			&expect{Critical, [2]int{0, 0}, [2]int{29, 29}, []string{"http_5xx 100%: refused by the load balancer (nginx), not the app"},
				[]string{"the failed answers are nginx's own refusal page, not the app's: <center>nginx/1.22.1</center>",
					"nginx received 101 req/s of the client's 100 req/s, 50 req/s of them failed (medians)", "the app's CPU meanwhile: 0.5%"}},
			[]string{"a pool, thread or connection limit was reached", "fix the slow query or lock"}},
		{"cache bug: the full pool queued the load, the busy host's CPU is context", "trialA39-cachebug", KindCPUSaturation,
			&expect{Info, [2]int{0, 0}, [2]int{51, 51}, []string{"host CPU busy: 100% busy"},
				[]string{"the load queued at a full pool (the pool-exhaustion finding), not for this CPU: the target used 0.115 cores of the 1 core it may use meanwhile"}},
			[]string{"host CPU saturated", "give it more CPU"}},
		{"cache bug: nor are the app's CPUs the other processes took a cause", "trialA39-cachebug", KindTargetHostBusy,
			&expect{Warning, [2]int{0, 0}, [2]int{51, 51}, []string{"from the run's start: no quiet second to compare this load with"},
				[]string{"the target itself: 0.115 cores of the 2 cores process_cpu_usage is a share of (5.74%)", "it used 0.115 cores of the 1 core it may use (median)"}}, nil},
		{"cache bug: the pool stays the critical finding", "trialA39-cachebug", KindPoolExhaustion,
			&expect{Critical, [2]int{0, 0}, [2]int{51, 51}, []string{"DB pool exhausted: 10 of 10 connections in use from 0:00"}, nil}, nil},
		{"cache fixed: a lag a tenth of the p99 only names the p99, not every number", "trialA39-cachefixed", KindHostBusy,
			&expect{Critical, [2]int{5, 5}, [2]int{37, 37}, []string{"; its lag could explain a material part of the p99 (lag 17.3ms, 19.5% of 88.8ms), under a tenth of the p50 and p95: those are the target's"},
				[]string{"the generator's lag over the run, p50: 77µs of the p50 latency 40.9ms"}},
			[]string{NotTheTargets, "do not use these figures"}},
	})
}

// TestCPUQueueFromPoolFirstInList checks that the cache bug's findings
// lead with its pool: the busy host's CPU no longer precedes it.
func TestCPUQueueFromPoolFirstInList(t *testing.T) {
	_, fs := diagnoseRunDB(t, "testdata/corpus/trialA39-cachebug.db")
	if len(fs) == 0 || fs[0].Kind != KindPoolExhaustion {
		t.Fatalf("first finding is not the pool's: %s", titles(fs))
	}
}

// nginxPage is nginx's own 503 page as loadlens keeps a failure's body.
const nginxPage = "503 Service Temporarily Unavailable: <html> <head><title>503 Service Temporarily Unavailable</title></head> <body> <center><h1>503 Service Temporarily Unavailable</h1></center> <hr><center>nginx/1.22.1</center> </body> </html>"

// behindLB is 20 seconds at 100 req/s through a load balancer, half of them
// failing with msg: nginx's request rate lb (none at 0), the app's counted
// requests app over two series by status (none at 0), and the app's CPU in
// cores of its 2.
func behindLB(msg string, lb, app, appCPU float64) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := steady(20, 100, 3, 2*time.Millisecond)
		for i := range secs {
			secs[i].offered = 100
			secs[i].reqs[0].fail, secs[i].reqs[0].kind, secs[i].reqs[0].msg = 50, sample.HTTP5xx, msg
		}
		lbl := []string{"role", "lb", "target", "lb"}
		al := []string{"role", "app", "target", "app"}
		set := series.Set{
			mk("process_cpu_seconds_total", series.Rate, pts(0, 1, repeat(appCPU, 20)...), al...),
			mk("go_sched_gomaxprocs_threads", series.Gauge, pts(0, 1, repeat(2, 20)...), al...),
		}
		if lb > 0 {
			set = append(set, mk("nginx_http_requests_total", series.Rate, pts(0, 1, repeat(lb, 20)...), lbl...))
		}
		if app > 0 {
			set = append(set, mk("http_requests_total", series.Rate, pts(0, 1, repeat(50, 20)...), append(al, "code", "200")...),
				mk("http_requests_total", series.Rate, pts(0, 1, repeat(app-50, 20)...), append(al, "code", "503")...))
		}
		return Input{Run: build(t, layout(modelArrivalRate, "GET /hello"), secs), Series: set}
	}
}

// TestErrorsRefusedByLoadBalancer checks that the errors finding names the
// load balancer when its own page or its counts show it refused the
// requests, and never when the app answered the 503s itself.
func TestErrorsRefusedByLoadBalancer(t *testing.T) {
	const refused = ": refused by the load balancer (nginx), not the app"
	appBody := "503 Service Unavailable: {\"error\":\"overloaded\"}"
	cases := []struct {
		name  string
		in    func(t *testing.T) Input
		lb    bool
		title string // a further part of the title when lb
	}{
		{"nginx's own page, its counter beside the client's", behindLB(nginxPage, 100, 0, 0.02), true, refused},
		{"no page kept, but nginx got 100 req/s and the idle app counted 50", behindLB("503 Service Unavailable", 100, 50, 0.02), true, refused},
		{"the app's own 503s passed through nginx: the app counted them", behindLB(appBody, 100, 100, 0.02), false, ""},
		{"the app's own 503s, no counter of the app's", behindLB(appBody, 100, 0, 0.02), false, ""},
		{"nginx got more than the app counted, but the app's CPU was busy", behindLB(appBody, 100, 50, 1.9), false, ""},
		{"no balancer scraped: the app's own 503s", behindLB(appBody, 0, 0, 0.02), false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := Diagnose(tc.in(t))
			e, ok := findKind(fs, KindErrorsAtLoad)
			if !ok {
				t.Fatalf("no errors finding; got %s", titles(fs))
			}
			got := strings.Contains(title(e), "refused by the load balancer")
			if got != tc.lb {
				t.Fatalf("load balancer named: %v, want %v: %s", got, tc.lb, title(e))
			}
			lead := strings.HasPrefix(e.Remedies[0], "most failures are nginx's own refusals, not the app's")
			if lead != tc.lb {
				t.Errorf("first remedy %q: the balancer's is %v, want %v", e.Remedies[0], lead, tc.lb)
			}
			if tc.lb && !strings.HasSuffix(title(e), tc.title) {
				t.Errorf("title %q does not end %q", title(e), tc.title)
			}
		})
	}
}

// lagFewIterations lags 4 seconds of a busy host's 40 by 50 ms, each with
// 5 requests of 100: the late seconds count, but under 1 % of the
// iterations started late, under a tenth of every latency figure.
func lagFewIterations(t *testing.T) Input {
	secs := steady(40, 100, 3, 40*time.Millisecond)
	for s := 10; s < 14; s++ {
		secs[s].reqs[0].n, secs[s].lag = 5, 50*time.Millisecond
	}
	for i := range secs {
		secs[i].offered = secs[i].reqs[0].n
	}
	return Input{Run: build(t, layout(modelArrivalRate, "GET /"), secs), Series: hostSeries(40, 1.94, 0, 0.04)}
}

// TestHostBusyGradedByLag checks the busy host's words and severity by how
// much of the latencies its lag could explain: all (the median), the tail,
// or none.
func TestHostBusyGradedByLag(t *testing.T) {
	cases := []struct {
		name string
		in   func(t *testing.T) Input
		want *expect
		not  []string
	}{
		{"lag of the median: the numbers are not the target's", busyHost(1.94, 0),
			&expect{Critical, [2]int{5, 5}, [2]int{15, 15}, []string{NotTheTargets}, nil}, []string{"under a tenth"}},
		{"lag under a tenth of each figure: a warning, the latencies stand", lagFewIterations,
			&expect{Warning, [2]int{10, 10}, [2]int{13, 13}, []string{"; but its lag stayed under a tenth of every latency figure (p99: lag ", "): the latencies are the target's, a little high"}, nil},
			[]string{NotTheTargets, "do not use these figures"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := Diagnose(tc.in(t))
			f, _ := expectKind(t, fs, KindHostBusy, tc.want)
			text := title(f) + "\n" + strings.Join(f.Remedies, "\n")
			for _, bad := range tc.not {
				if strings.Contains(text, bad) {
					t.Errorf("the finding says %q:\n%s", bad, text)
				}
			}
		})
	}
}
