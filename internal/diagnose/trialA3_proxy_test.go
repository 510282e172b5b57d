package diagnose

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
)

// proxy502 is the title part of errors a proxy answered with its own 502s.
const proxy502 = "refused by the load balancer (nginx, its own 502s), not the app"

// TestTrialA3ProxyReplays diagnoses trial A3's c5-lb again: nginx with
// upstream max_conns=2 in front of two idle Go backends answered 43 % of
// 300 req/s with its own 502 page in ~254µs, and the verdict read "fix the
// slow query or lock". The healthy runs of the trial stay without errors.
func TestTrialA3ProxyReplays(t *testing.T) {
	cases := []replayCase{
		{"c5-lb: nginx's own fast 502s beside idle backends name the proxy and its upstream limit", "trialA3-c5-lb", KindErrorsAtLoad,
			&expect{Critical, [2]int{0, 0}, [2]int{29, 29}, []string{"http_5xx 100%: " + proxy502},
				[]string{"the failed answers are nginx's own 502 page, not the app's: <center>nginx/1.22.1</center>",
					"the fastest 42.9% of GET /x, as many as failed, took 255µs (p21.45), the rest 21.4ms (p71.45); p41.9 658µs, p43.9 20.6ms: the proxy answered them without a backend's work",
					"be1's CPU meanwhile: 3% of its CPU limit (median): it had room to answer them", "be2's CPU meanwhile: 3% of its CPU limit",
					"host's CPU meanwhile: 15.5% busy (median)"}},
			[]string{"fix the slow query or lock", "a pool, thread or connection limit was reached"}},
	}
	for _, h := range []string{"c1-40pct", "c4-redis-nohog", "c6-open30", "c6-open30-b", "c6-open70", "c6-open70-b",
		"c6-closed30", "c6-closed30-b", "c6-closed70", "c6-closed70-b"} {
		cases = append(cases, replayCase{h + ": healthy, no errors", "trialA3-" + h, KindErrorsAtLoad, nil, []string{"refused by the load balancer"}})
	}
	replayTrials(t, cases)
}

// TestProxy502RemediesAreItsLimits checks that c5-lb's remedies lead with
// the proxy's upstream limit and its error log, not the app's pools.
func TestProxy502RemediesAreItsLimits(t *testing.T) {
	_, fs := diagnoseRunDB(t, filepath.Join("testdata", "corpus", "trialA3-c5-lb.db"))
	e, ok := findKind(fs, KindErrorsAtLoad)
	if !ok {
		t.Fatalf("no errors finding; got %s", titles(fs))
	}
	all := strings.Join(e.Remedies, "\n")
	for _, want := range []string{"most failures are nginx's own 502s, not the app's", "max_conns", "no live upstreams", "keepalive"} {
		if !strings.Contains(all, want) {
			t.Errorf("remedies lack %q:\n%s", want, all)
		}
	}
	if !strings.HasPrefix(e.Remedies[0], mostFailuresLead+"nginx's own 502s") {
		t.Errorf("first remedy is not the proxy's: %q", e.Remedies[0])
	}
}

// TestProxy502OnlyOnItsRun checks that no other recorded run reads as a
// proxy's own 502s (demo-refused's refusals keep their own finding).
func TestProxy502OnlyOnItsRun(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*.db"))
	for _, p := range paths {
		run := strings.TrimSuffix(filepath.Base(p), ".db")
		_, fs := diagnoseRunDB(t, p)
		for _, f := range fs {
			if strings.Contains(title(f), "its own 502s") != (run == "trialA3-c5-lb" && f.Kind == KindErrorsAtLoad) {
				t.Errorf("%s: %s finding: %s", run, f.Kind, title(f))
			}
		}
	}
}

// gateway is 20 seconds at 100 req/s through nginx, 50 of them failing
// each second with status and msg in fail each, the served ones in 20 ms;
// the app (unless noApp) used cpu of its 2 cores, counted counted req/s
// (none at 0) and answered its scrapes as up says.
type gateway struct {
	status       int
	msg          string
	fail         time.Duration
	cpu, counted float64
	up           float64
	noApp        bool
}

func (g gateway) input(t *testing.T) Input {
	secs := steady(20, 100, 3, 20*time.Millisecond)
	for i := range secs {
		r := &secs[i].reqs[0]
		secs[i].offered = 100
		r.fail, r.kind, r.msg = 50, sample.HTTP5xx, g.msg
		r.dur = func(i, n int) time.Duration { // the first 50 fail (build)
			if i < 50 {
				return even(g.fail, 0.4)(i, 50)
			}
			return even(20*time.Millisecond, 0.4)(i-50, n-50)
		}
	}
	run := build(t, layout(modelArrivalRate, "GET /x"), secs)
	for i := range run.Endpoints[0].Errors {
		for j := range run.Endpoints[0].Errors[i].Samples {
			run.Endpoints[0].Errors[i].Samples[j].Status = g.status // build answers every 5xx with 503
		}
	}
	var set series.Set
	if !g.noApp {
		al := []string{"role", "app", "target", "be1"}
		set = series.Set{
			mk("process_cpu_seconds_total", series.Rate, pts(0, 1, repeat(g.cpu, 20)...), al...),
			mk("go_sched_gomaxprocs_threads", series.Gauge, pts(0, 1, repeat(2, 20)...), al...),
			mk("up", series.Gauge, pts(0, 1, repeat(g.up, 20)...), al...),
		}
		if g.counted > 0 {
			set = append(set, mk("http_requests_total", series.Rate, pts(0, 1, repeat(g.counted, 20)...), al...))
		}
	}
	return Input{Run: run, Series: set}
}

// nginx502 is nginx's own 502 page as loadlens keeps a failure's body.
const nginx502 = "502: <html> <head><title>502 Bad Gateway</title></head> <body> <center><h1>502 Bad Gateway</h1></center> <hr><center>nginx/1.22.1</center> </body> </html>"

// TestErrorsProxy502 checks that a proxy's own 502s read as its refusals
// only when they answered fast and every scraped backend had headroom: a
// backend's own 502, a slow 502 or 504, a busy, down or unscraped backend,
// or one that counted the failed requests keep the errors the app's.
func TestErrorsProxy502(t *testing.T) {
	fast, slow := 250*time.Microsecond, 20*time.Millisecond
	appBody := "502: {\"error\":\"upstream payment service failed\"}"
	cases := []struct {
		name  string
		g     gateway
		proxy bool
	}{
		{"nginx's own 502s, fast, beside an idle app", gateway{502, nginx502, fast, 0.02, 0, 1, false}, true},
		{"nginx's own 502s, the app counted only what it served", gateway{502, nginx502, fast, 0.02, 50, 1, false}, true},
		{"the app's own 502 body, fast", gateway{502, appBody, fast, 0.02, 0, 1, false}, false},
		{"nginx's own 502s as slow as the served requests", gateway{502, nginx502, slow, 0.02, 0, 1, false}, false},
		{"nginx's own 502s, the app's CPU busy", gateway{502, nginx502, fast, 1.9, 0, 1, false}, false},
		{"nginx's own 502s, the app counted every request", gateway{502, nginx502, fast, 0.02, 100, 1, false}, false},
		{"nginx's own 502s, the app down", gateway{502, nginx502, fast, 0.02, 0, 0, false}, false},
		{"nginx's own 502s, no app scraped", gateway{502, nginx502, fast, 0, 0, 0, true}, false},
		{"nginx's own 504s, fast", gateway{504, strings.ReplaceAll(nginx502, "502", "504"), fast, 0.02, 0, 1, false}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := Diagnose(tc.g.input(t))
			e, ok := findKind(fs, KindErrorsAtLoad)
			if !ok {
				t.Fatalf("no errors finding; got %s", titles(fs))
			}
			if got := strings.HasSuffix(title(e), proxy502); got != tc.proxy {
				t.Fatalf("the proxy's 502s: %v, want %v: %s", got, tc.proxy, title(e))
			}
			lead := strings.HasPrefix(e.Remedies[0], mostFailuresLead+"nginx's own 502s")
			if lead != tc.proxy {
				t.Errorf("first remedy %q: the proxy's is %v, want %v", e.Remedies[0], lead, tc.proxy)
			}
			if tc.proxy && slices.ContainsFunc(e.Remedies, func(r string) bool { return strings.Contains(r, "slow query") }) {
				t.Errorf("the proxy's 502s keep the app's remedies: %q", e.Remedies)
			}
		})
	}
}
