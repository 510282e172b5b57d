package diagnose

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/series"
)

// expect is what a finding must show.
type expect struct {
	severity Severity
	from, to [2]int   // inclusive bounds the finding's From and To must fall in
	title    []string // substrings of the title
	evidence []string // substrings, each of some evidence's text or source
}

func TestRules(t *testing.T) {
	cases := []struct {
		name string
		in   func(t *testing.T) Input
		kind string
		want *expect // nil: the run must not raise kind
	}{
		{"saturation: open ramp past 400 req/s", kneeRamp, KindSaturation, &expect{Warning, [2]int{14, 16}, [2]int{29, 29},
			[]string{"Saturation at 400 req/s from 0:14 (7.6 in flight)", "offered load rose to 670 req/s", "mean latency 20.0ms → 4.92s"},
			[]string{"Little's law: 380 req/s × 20.0ms = 7.6 requests in flight (active VUs: 7)", "median from there to the highest load: 400 req/s"}}},
		{"saturation: closed ramp, knee at ~3,700 req/s", vusKnee, KindSaturation, &expect{Warning, [2]int{14, 17}, [2]int{29, 29},
			[]string{"Saturation at 3,700 req/s from 0:15 (1,550 VUs)", "VUs rose 1.87×, throughput did not"}, []string{"Little's law"}}},
		{"saturation: offered 200 req/s from the start, served 100", overloaded, KindSaturation, &expect{Warning, [2]int{0, 1}, [2]int{19, 19},
			[]string{"throughput stayed below the offered load from 0:00 to 0:19: 100 req/s of 200 req/s offered (medians)"}, []string{"the queue grows"}}},
		{"saturation: healthy ramp", healthyRamp, KindSaturation, nil},
		{"saturation: latency drift at steady load is not saturation", drifting(40, 20*time.Millisecond), KindSaturation, nil},
		{"saturation: a slower target with drops is not a knee of the ramp", dropping, KindSaturation, nil},

		{"pool: hikaricp 10 of 10 active, 71 waiting (case study 5)", hikari(true), KindPoolExhaustion, &expect{Critical, [2]int{12, 12}, [2]int{27, 27},
			[]string{"DB pool exhausted: 10 of 10 connections in use from 0:12, up to 71 requests waiting for a connection (hikaricp, pool=HikariPool-1, role=app)"},
			[]string{"1.2 pool timeouts a second at 0:17", "the client saw 55 timeout failures", "4 scrapes from 0:12 to 0:27: 10 connections in use at each"}}},
		{"pool: hikaricp busy, exhausted at one scrape only", hikari(false), KindPoolExhaustion, nil},
		{"pool: go_sql in use = max open with waits", goSQL, KindPoolExhaustion, &expect{Critical, [2]int{8, 8}, [2]int{15, 15},
			[]string{"10 of 10 connections in use from 0:08, up to 30 waits for a connection a second (go_sql, db_name=shop, role=app)"},
			[]string{"at most 12 s spent waiting for a connection per second of the run (wait time, added as each wait ends; not a number of waiters)"}}},

		{"cpu: DB host at 90% (case study 1, fix 2)", slowFrom(nodeCPU(0.46, 0.9, 15), 15), KindCPUSaturation, &expect{Critical, [2]int{15, 15}, [2]int{40, 40},
			[]string{"DB CPU saturated: 90% busy (node_cpu_seconds_total, role=db) from 0:15 while the load held steady: not this load's level"},
			[]string{"the client at that second", "before: 46% busy (median of the scrapes) with the load at 100 req/s; from the onset: 100 req/s"}}},
		{"cpu: DB host full as the load rises into it", withLoad(kneeRamp, nodeCPU(0.46, 0.95, 15)), KindCPUSaturation, &expect{Critical, [2]int{15, 15}, [2]int{40, 40},
			[]string{"DB CPU saturated: 95% busy (node_cpu_seconds_total, role=db) from 0:15"}, []string{"the client at that second"}}},
		{"cpu: DB host at 78% (case study 1, first run)", withSeries(nodeCPU(0.78, 0.78, 0)), KindCPUSaturation, nil},
		{"cpu: DB host at 46% (case study 1, fix 1)", withSeries(nodeCPU(0.46, 0.46, 0)), KindCPUSaturation, nil},
		{"cpu: app process at its 1-core limit", slowFrom(series.Set{mk("process_cpu_seconds_total", series.Rate, stepUp(0.97, 10), "cpu_limit", "1", "role", "app")}, 10),
			KindCPUSaturation, &expect{Critical, [2]int{10, 10}, [2]int{40, 40}, []string{"App CPU saturated: 97% of 1 core"}, []string{"it used 0.97 cores of the 1 core it may use"}}},
		{"cpu: app limit from a cpu_limit gauge of the same target", slowFrom(series.Set{
			mk("process_cpu_seconds_total", series.Rate, stepUp(1.9, 20), "role", "app", "target", "shop"),
			mk(CPULimit, series.Gauge, pts(0, 5, repeat(2, 9)...), "role", "app", "target", "shop")}, 20),
			KindCPUSaturation, &expect{Critical, [2]int{20, 20}, [2]int{40, 40}, []string{"95% of 2 cores"}, nil}},
		{"cpu: process without a known limit says nothing", withSeries(series.Set{mk("process_cpu_seconds_total", series.Rate, stepUp(1.9, 10), "role", "app")}),
			KindCPUSaturation, nil},
		{"cpu: Micrometer process_cpu_usage", slowFrom(series.Set{mk("process_cpu_usage", series.Gauge, stepUp(0.95, 25), "role", "app")}, 25),
			KindCPUSaturation, &expect{Critical, [2]int{25, 25}, [2]int{40, 40}, []string{"App CPU saturated: 95% of its CPUs busy (process_cpu_usage, role=app)"}, nil}},
		{"cpu: container throttled by its limit", withSeries(series.Set{
			mk("container_cpu_cfs_periods_total", series.Rate, pts(0, 5, repeat(10, 9)...), "container", "shop", "role", "app"),
			mk("container_cpu_cfs_throttled_periods_total", series.Rate, pts(0, 5, 0, 0, 5, 5, 5, 5, 5, 0, 0), "container", "shop", "role", "app")}),
			KindCPUThrottled, &expect{Critical, [2]int{10, 10}, [2]int{30, 30}, []string{"App container CPU throttled 50% of periods at its limit (container=shop, role=app) from 0:10"},
				[]string{"highest: 5 of 10 periods a second throttled (50%) at 0:10"}}},

		{"generator: CPU 1.9 of 2 cores", generatorCPU(true), KindGeneratorBound, &expect{Critical, [2]int{8, 8}, [2]int{19, 19},
			[]string{"The load generator is the bottleneck from 0:08: its CPU at 95% of 2 cores", "not the target's"}, []string{"loadlens used 1.9 of 2 cores"}}},
		{"generator: one CPU spike", generatorCPU(false), KindGeneratorBound, nil},
		{"generator: scheduler lag 50ms beside a 12ms p95", lagged(50*time.Millisecond, 10*time.Millisecond, 10, 11, 12, 13), KindGeneratorBound,
			&expect{Critical, [2]int{10, 10}, [2]int{13, 13}, []string{"scheduler lag p99 up to 50"}, []string{"iterations started late"}}},
		{"generator: one second of lag", lagged(50*time.Millisecond, 10*time.Millisecond, 10), KindGeneratorBound, nil},
		{"generator: 25ms of lag beside 2s responses", lagged(25*time.Millisecond, 2*time.Second, 5, 6, 7, 8, 9, 10), KindGeneratorBound, nil},
		{"generator: drops while the target stays fast", dropping, KindGeneratorBound, &expect{Critical, [2]int{10, 10}, [2]int{19, 19},
			[]string{"200 iterations dropped for lack of VUs"}, []string{"the target was not slower"}}},
		{"generator: drops because the target slowed down", droppingSlow, KindGeneratorBound, nil},

		{"errors: timeouts and 5xx from 305 req/s", erroring, KindErrorsAtLoad, &expect{Critical, [2]int{17, 17}, [2]int{29, 29},
			[]string{"Errors start at 305 req/s offered (0:17)", "timeout 84%", "http_5xx 16%"},
			[]string{"before 0:17: 0.00% of 2,890 requests failed, at up to 290 req/s", `http_req_failed{kind="timeout"}`}}},
		{"errors: sporadic failures and a burst at the stop", sporadic, KindErrorsAtLoad, nil},
		{"errors: 404 from the first second is every request failing, not errors at a load", notFound, KindErrorsAtLoad, nil},
		{"all failed: 404 from the first second", notFound, KindAllFailed, &expect{Critical, [2]int{0, 0}, [2]int{9, 9},
			[]string{"Every request failed: 500 of 500 answered with a 4xx status from 0:00 — the target rejected every request"}, []string{"500 of 500 requests failed with http_4xx from 0:00"}}},

		{"more VUs: 1,500 → 3,000 VUs at ~3,700 req/s (case study 2)", vusDoubling(modelVUs), KindMoreVUsSameTPS, &expect{Warning, [2]int{1, 1}, [2]int{29, 29},
			[]string{"VUs 1,500 → 3,000 (2.0×) from 0:01", "throughput 3,70", "405ms → 811ms"}, []string{"Little's law", "lower level, 0:01–0:05: 1,500 VUs", "hold at the most VUs, 0:21–0:29: 3,000 VUs"}}},
		{"more VUs: ramp that still scales", vusHealthy, KindMoreVUsSameTPS, nil},
		{"more VUs: open model is not judged by VUs", vusDoubling(modelArrivalRate), KindMoreVUsSameTPS, nil},

		{"drift: p95 rises 20 → 40ms at a steady 100 req/s", drifting(40, 20*time.Millisecond), KindLatencyDrift, &expect{Warning, [2]int{0, 1}, [2]int{38, 39},
			[]string{"Latency drifts up at a steady 100 req/s: p95"}, []string{"Theil–Sen slope", "Kendall's tau"}}},
		{"drift: noise around a constant 20ms", drifting(40, 0), KindLatencyDrift, nil},
		{"drift: 15 seconds are too few to tell", drifting(15, 20*time.Millisecond), KindLatencyDrift, nil},
		{"drift: a fast service's p95 wandering 1.3 → 3.8ms, as a busy host makes it", driftingFrom(25, 1300*time.Microsecond, 2500*time.Microsecond), KindLatencyDrift, nil},
		{"drift: a fast read scanning its growing table, 2 → 12ms", driftingFrom(25, 2*time.Millisecond, 10*time.Millisecond), KindLatencyDrift, &expect{Warning, [2]int{0, 1}, [2]int{23, 24},
			[]string{"Latency drifts up at a steady 100 req/s: p95"}, []string{"Theil–Sen slope", "Kendall's tau"}}},

		{"gc: JVM paused 7% of the time", jvmGC, KindGCPressure, &expect{Warning, [2]int{10, 10}, [2]int{35, 35},
			[]string{"GC pressure: App paused for GC 7% of the time (jvm_gc_pause_seconds_sum, role=app) from 0:10"}, nil}},
		{"gc: Go pause share rising with load", goGC(true), KindGCPressure, &expect{Warning, [2]int{0, 0}, [2]int{25, 25},
			[]string{"GC pause share rises with load", "0.2% at", "2.7% at"}, []string{"Kendall's tau"}}},
		{"gc: flat 0.5%", goGC(false), KindGCPressure, nil},

		{"bimodal: cache hits and misses", endpoints([]string{"GET /products/{id}"}, []reqs{{n: 200, dur: twoPeaks(2*time.Millisecond, 48*time.Millisecond, 0.6)}}),
			KindBimodalLatency, &expect{Info, [2]int{0, 0}, [2]int{9, 9},
				[]string{"Bimodal latency on GET /products/{id}: 60% of requests at ~2.00ms, the rest at ~48.1ms"}, []string{"almost no requests in between"}}},
		{"bimodal: one slow endpoint hidden in the average", endpoints([]string{"GET /a", "GET /b", "POST /coupons/issue"}, []reqs{
			{ep: 0, n: 450, dur: even(2*time.Millisecond, 0.5)}, {ep: 1, n: 450, dur: even(3*time.Millisecond, 0.5)},
			{ep: 2, n: 100, dur: even(300*time.Millisecond, 0.5)}}), KindBimodalLatency, &expect{Info, [2]int{0, 0}, [2]int{9, 9},
			[]string{"One slow endpoint: POST /coupons/issue p50 299ms vs 2.40ms for the other requests", "(10% of requests)"}, nil}},
		{"bimodal: wide but unimodal latencies", endpoints([]string{"GET /a", "GET /b"}, []reqs{
			{ep: 0, n: 300, dur: logNormal(10*time.Millisecond, 1)}, {ep: 1, n: 300, dur: logNormal(12*time.Millisecond, 0.8)}}), KindBimodalLatency, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			expectKind(t, Diagnose(tc.in(t)), tc.kind, tc.want)
		})
	}
}

func checkFinding(t *testing.T, f Finding, w *expect) {
	t.Helper()
	if f.Severity != w.severity {
		t.Errorf("severity %s, want %s", f.Severity, w.severity)
	}
	if f.From < w.from[0] || f.From > w.from[1] || f.To < w.to[0] || f.To > w.to[1] {
		t.Errorf("seconds %d–%d, want From in %v and To in %v", f.From, f.To, w.from, w.to)
	}
	for _, s := range w.title {
		if !strings.Contains(title(f), s) {
			t.Errorf("title %q lacks %q", title(f), s)
		}
	}
	for _, s := range w.evidence {
		if !hasEvidence(f, s) {
			t.Errorf("no evidence with %q in %+v", s, f.Evidence)
		}
	}
	if len(f.Evidence) == 0 || len(f.Remedies) == 0 {
		t.Errorf("finding without evidence or remedies: %+v", f)
	}
	for _, g := range f.Figures {
		if math.IsNaN(g.Value) || math.IsInf(g.Value, 0) {
			t.Errorf("figure %q of %s over %d–%d is %v", g.What, g.Source, g.From, g.To, g.Value)
		}
	}
}

// expectKind holds fs to want for kind: no such finding when want is nil,
// else one that checkFinding passes. It reports whether one was found, so
// that a case checks the rest only then.
func expectKind(t *testing.T, fs []Finding, kind string, want *expect) (Finding, bool) {
	t.Helper()
	f, found := findKind(fs, kind)
	if want == nil {
		if found {
			t.Fatalf("unexpected %s finding: %s", kind, title(f))
		}
		return f, false
	}
	if !found {
		t.Fatalf("no %s finding; got %s", kind, titles(fs))
	}
	checkFinding(t, f, want)
	return f, true
}

func findKind(fs []Finding, kind string) (Finding, bool) {
	for _, f := range fs {
		if f.Kind == kind {
			return f, true
		}
	}
	return Finding{}, false
}

func hasEvidence(f Finding, s string) bool {
	for _, e := range f.Evidence {
		if strings.Contains(evidenceText(f, e), s) || strings.Contains(e.Source, s) {
			return true
		}
	}
	return false
}

func titles(fs []Finding) string {
	if len(fs) == 0 {
		return "none"
	}
	var out []string
	for _, f := range fs {
		out = append(out, f.Kind+": "+title(f))
	}
	return strings.Join(out, "; ")
}
