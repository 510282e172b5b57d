package diagnose

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/store"
)

// synthetic are the corpus's built runs: every rule's positive and
// negative cases and the defects of issues 9 and 10.
func synthetic() map[string]func(t *testing.T) Input {
	m := map[string]func(t *testing.T) Input{
		"knee-ramp": kneeRamp, "vus-knee": vusKnee, "overloaded": overloaded, "healthy-ramp": healthyRamp,
		"hikari": hikari(true), "hikari-busy": hikari(false), "go-sql": withRun(goSQL), "incident": incident, "healthy": healthyEverywhere,
		"generator-cpu": generatorCPU(true), "generator-spike": generatorCPU(false),
		"lagged": lagged(50*time.Millisecond, 10*time.Millisecond, 10, 11, 12, 13), "dropping": dropping, "dropping-slow": droppingSlow,
		"erroring": erroring, "sporadic": sporadic, "not-found": notFound, "aborted-by-errors": abortedByErrors(false), "one-bad-second": oneBadSecond, "hanging-target": hangingTarget(true),
		"starved-open": starvedOpen(1, 2), "starved-spare-cpus": starvedVUs(1.0, 0, 1, 2, 3, 4, 5, 6, 7), "cpu-held-drops": cpuHeldDrops,
		"vus-doubling": vusDoubling(modelVUs), "vus-healthy": vusHealthy, "drifting": drifting(40, 20*time.Millisecond),
		"steady-noise": drifting(40, 0), "jvm-gc": jvmGC, "go-gc-rising": goGC(true),
		"db-cpu":             slowFrom(nodeCPU(0.46, 0.9, 15), 15),
		"app-cpu":            slowFrom(series.Set{mk("process_cpu_seconds_total", series.Rate, stepUp(0.97, 10), "cpu_limit", "1", "role", "app")}, 10),
		"app-cpu-over-limit": slowFrom(goService(1.14, 1, 10), 10), // the scrapes read 1.14 of 1 core: capped
		"cgroup-quota":       quotaRun(0.5, 0.5, 0.9),              // a loopback target throttled by its cgroup quota (loadlens_cgroup_cpu_*)
		"app-cpu-gauge": slowFrom(series.Set{mk("process_cpu_seconds_total", series.Rate, stepUp(1.9, 20), "role", "app", "target", "shop"),
			mk(CPULimit, series.Gauge, pts(0, 5, repeat(2, 9)...), "role", "app", "target", "shop")}, 20),
		"micrometer-cpu": slowFrom(series.Set{mk("process_cpu_usage", series.Gauge, stepUp(0.95, 25), "role", "app")}, 25),
		"cfs": withSeries(series.Set{
			mk("container_cpu_cfs_periods_total", series.Rate, pts(0, 5, repeat(10, 9)...), "container", "shop", "role", "app"),
			mk("container_cpu_cfs_throttled_periods_total", series.Rate, pts(0, 5, 0, 0, 5, 5, 5, 5, 5, 0, 0), "container", "shop", "role", "app")}),
		"two-modes": endpoints([]string{"GET /products/{id}"}, []reqs{{n: 200, dur: twoPeaks(2*time.Millisecond, 48*time.Millisecond, 0.6)}}),
		"slow-endpoint": endpoints([]string{"GET /a", "GET /b", "POST /coupons/issue"}, []reqs{
			{ep: 0, n: 450, dur: even(2*time.Millisecond, 0.5)}, {ep: 1, n: 450, dur: even(3*time.Millisecond, 0.5)},
			{ep: 2, n: 100, dur: even(300*time.Millisecond, 0.5)}}),
		"lock-step": lockStep, "go-sql-full-early": goSQLFullEarly, "host-busy": busyHost(1.94, 0), "host-steal": busyHost(0.6, 0.5),
		"lb-refused-page": behindLB(nginxPage, 100, 0, 0.02), "lb-refused-rates": behindLB("503 Service Unavailable", 100, 50, 0.02), "lag-few-iterations": lagFewIterations,
		"lag-no-cpu": busyHost(0.3, 0), "partial-end": partialEnd, "closed-end": closedEnd, "two-holds": twoHolds, "lock-collapse": lockCollapse,
		"same-name": sameName, "sold-out": soldOut, "refused": deadTarget(sample.ConnRefused),
		"late-scale": lateScale(0.96, true), "planned-scale": plannedScale, "throttled-pods": throttledPods(0.4), "throttled-1pc": throttledPods(0.01),
		"restarts": restarts(true), "restarts-before": restarts(false), "oom-cadvisor": oomFromCAdvisor(false), "backend-bound": backendBound(false), "backend-scaled": backendBound(true),
		"pgxpool": poolFamilyRun(0, 0), "otel-pool-wait-ms": poolFamilyRun(5, 0), // acquire times in nanoseconds and milliseconds: seconds(KEY)
		"pgbouncer": pgbouncer, "postgres-sessions": postgresSessions, "interrupted": deadTarget(sample.Interrupted), "dns": deadTarget(sample.DNS), "tls": deadTarget(sample.TLS),
		"tls-mute": tlsFailures("TLS handshake timeout (10s)"), "check-cut-bodies": bodyCheck(3),
		"n-plus-one": nPlusOneRun(20, 4*time.Millisecond), "heavy-query": oneHeavyQuery, "slow-external": externalCall(300 * time.Millisecond), "cache-miss": cacheMissRun(false), "redis-miss": cacheMissRun(true),
		"jvm-pinned": slowFrom(jvmPinned(0.97, 10), 10), "jvm-quota": slowFrom(jvmQuota(0.5), 10), "jvm-flat-overload": jvmFlatOverload,
		"jvm-hogged": slowFrom(jvmHogged(10), 10), "jvm-hogged-context": withSeries(jvmHogged(10)), "jvm-hogged-start": withSeries(jvmHogged(0)), "node-hogged": slowFrom(nodeHogged(15), 15),
		"pinned-core-hogged": withSeries(hoggedCore(0, "1")), "pinned-core-hogged-slow": slowFrom(hoggedCore(10, "0"), 10),
		"generator-queue": generatorQueue(issue20Drops, "generator_cpu"), "generator-queue-few": generatorQueue(map[int]int{3: 40}, "generator_behind"),
		// errors at the run's edges (errtail_test.go)
		"errors-last-second":  edgeErrors(modelArrivalRate, 30, 100, 0, sample.HTTP5xx, sample.OK, 29),
		"errors-last-cut":     edgeErrors(modelArrivalRate, 30, 100, 2, sample.HTTP5xx, sample.HTTP5xx, 29),
		"errors-first-second": edgeErrors(modelArrivalRate, 30, 100, 0, sample.HTTP5xx, sample.OK, 0),
		"errors-graceful-500": edgeErrors(modelVUs, 30, 100, 10, sample.OK, sample.HTTP5xx),
		"resets-last-second":  edgeErrors(modelArrivalRate, 30, 100, 0, sample.ConnReset, sample.OK, 29),
		// a lone burst amid the run (errburst_test.go)
		"errors-burst":   burstRun(modelArrivalRate, 30, 100, 100, sample.HTTP5xx, 15),
		"errors-bursts":  withLater(60, 100, 40, sample.HTTP5xx, 10, 20),
		"timeouts-burst": burstRun(modelArrivalRate, 30, 100, 100, sample.Timeout, 15),
		// checks that failed on failed requests, one finding (checkgroup_test.go)
		"checks-on-failed-requests": checksOnFailedRequests(5),
	}
	for _, oc := range offeredCases() { // the schedule's record, and errors judged when their requests were sent
		m["offered: "+strings.ReplaceAll(oc.name, "/", " per ")] = func(t *testing.T) Input {
			return Input{Run: build(t, layout(modelArrivalRate, "GET /owners"), oc.secs)}
		}
	}
	return m
}

// withRun gives a series-only fixture a steady closed-model run to go with.
func withRun(f func(t *testing.T) Input) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		in := f(t)
		in.Run = build(t, layout(modelVUs, "POST /coupons/issue"), steady(20, 100, 20, 30*time.Millisecond))
		return in
	}
}

// writeRunDB stores a built run and its series in a new run.db, as a run
// would: every second's snapshot, the series, and how long it lasted.
func writeRunDB(t *testing.T, path string, in Input) {
	t.Helper()
	v, ok := snapshotsOf.Load(in.Run)
	if !ok {
		t.Fatal("the run was not built by build")
	}
	w, err := store.Create(path, store.Meta{ID: filepath.Base(path), Name: "corpus", Start: time.Unix(0, 0).UTC(), Layout: in.Run.Layout})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, s := range v.([]*metrics.Snapshot) {
		if err := w.WriteSecond(s); err != nil {
			t.Fatal(err)
		}
	}
	if len(in.Series) > 0 {
		if err := w.WriteSeries(in.Series...); err != nil {
			t.Fatal(err)
		}
	}
	writeTraces(t, w, in.Run)
	if err := w.Finish(store.Finish{End: time.Unix(0, 0).Add(in.Run.Elapsed()).UTC(), Status: "completed", Elapsed: in.Run.Elapsed()}); err != nil {
		t.Fatal(err)
	}
}

// diagnoseRunDB reads a run.db the way `loadlens summary` does and
// diagnoses it.
func diagnoseRunDB(t *testing.T, path string) (Input, []Finding) {
	t.Helper()
	rd, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	run, err := rd.Run()
	if err != nil {
		t.Fatal(err)
	}
	set, err := rd.Series()
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Run: run, Series: set, Traces: readTraces(t, rd)}
	return in, Diagnose(in)
}

// TestEveryFigureIsRecomputedFromRunDB is the property the findings
// promise: over a corpus of runs stored in run.db (the synthetic runs
// above and the demo shop's recorded runs in testdata/corpus), every
// number a finding or the healthy verdict states equals the value an
// independent reader recomputes from the file; every number in the text is
// a figure; and every onset is the first second its condition held.
func TestEveryFigureIsRecomputedFromRunDB(t *testing.T) {
	paths := map[string]string{}
	dir := t.TempDir()
	for name, fx := range synthetic() {
		path := filepath.Join(dir, name+".db")
		writeRunDB(t, path, fx(t))
		paths[name] = path
	}
	recorded, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*.db"))
	for _, p := range recorded {
		paths["recorded/"+strings.TrimSuffix(filepath.Base(p), ".db")] = p
	}
	if len(recorded) == 0 {
		t.Error("no recorded runs in testdata/corpus")
	}
	paths["recorded/trialA38-heavy100 read as MySQL's"] = heavyAsMySQL(t, dir) // db-busy on threads_running
	kinds := map[string]bool{}
	var names []string
	for n := range paths {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Run(n, func(t *testing.T) {
			in, fs := diagnoseRunDB(t, paths[n])
			raw := readRaw(t, paths[n])
			for _, f := range fs {
				kinds[f.Kind] = true
				checkFigures(t, raw, f.Kind+": "+title(f), f.Figures, f.Parts, title(f))
				for _, e := range f.Evidence {
					checkFigures(t, raw, f.Kind+" evidence: "+evidenceText(f, e), f.Figures, e.Parts, evidenceText(f, e))
					if m := f.Figures[e.Figure]; e.Source != m.Source || e.Value != m.Value || e.Sec != m.To {
						t.Errorf("%s: evidence %q shows %s = %v at %d, its figure is %s = %v at %d", f.Kind, evidenceText(f, e), e.Source, e.Value, e.Sec, m.Source, m.Value, m.To)
					}
				}
				checkOnset(t, raw, f)
				if f.To < f.From {
					t.Errorf("%s: seconds %d–%d run backwards", f.Kind, f.From, f.To)
				}
				for _, g := range f.Figures {
					if g.Stat == StatOnset && int(g.Value) != f.From {
						t.Errorf("%s: its seconds start at %d, its title says from %ds", f.Kind, f.From, int(g.Value))
					}
				}
				checkWholeSeconds(t, raw, f.Kind, f.Figures)
			}
			if v := Healthy(in, fs); v != nil {
				kinds["healthy"] = true
				text := Join(v.Parts, v.Figures, figureText)
				checkFigures(t, raw, "healthy: "+text, v.Figures, v.Parts, text)
				checkWholeSeconds(t, raw, "healthy", v.Figures)
			}
		})
	}
	for _, k := range []string{KindSaturation, KindPoolExhaustion, KindCPUSaturation, KindGeneratorBound, KindErrorsAtLoad,
		KindMoreVUsSameTPS, KindLatencyDrift, KindGCPressure, KindBimodalLatency, KindAllFailed, KindCheckFailed, KindHostBusy, KindCPUThrottled, KindLateScaleOut, KindPodRestarts, KindBackendBound, KindTargetHostBusy, "healthy",
		KindTraceDBTail, KindNPlusOne, KindTraceHTTPTail, KindCacheMiss, KindCacheCold, KindThreadPoolFull, KindDBBusy} {
		if !kinds[k] {
			t.Errorf("the corpus raises no %s finding: the property is not tested for it", k)
		}
	}
}

// checkFigures recomputes each figure a line refers to, and checks that
// the line is its words and names with those figures rendered, and that
// its words hold no number of their own.
func checkFigures(t *testing.T, raw *rawRun, where string, figs []Figure, parts []Segment, text string) {
	t.Helper()
	var rendered strings.Builder
	for _, p := range parts {
		switch {
		case p.Figure >= 0:
			f := figs[p.Figure]
			got, measured := raw.recompute(t, figs, p.Figure)
			if measured && !sameNumber(got, f.Value) {
				t.Errorf("%s\n  figure %q (%s of %s over %d–%d) is %v; run.db gives %v", where, f.What, f.Stat, f.Source, f.From, f.To, f.Value, got)
			}
			if measured {
				f.Value = got
			}
			rendered.WriteString(figureText(f))
		case p.Name != "":
			rendered.WriteString(p.Name)
		default:
			if strings.IndexFunc(p.Text, unicode.IsDigit) >= 0 {
				t.Errorf("%s\n  the words %q state a number that is not a figure", where, p.Text)
			}
			rendered.WriteString(p.Text)
		}
	}
	if rendered.String() != text {
		t.Errorf("rendered from run.db:\n  %s\nthe finding says:\n  %s", rendered.String(), text)
	}
}

// checkWholeSeconds checks that no per-second rate or level is read from
// the run's last, partial second, where it would be too low.
func checkWholeSeconds(t *testing.T, raw *rawRun, kind string, figs []Figure) {
	t.Helper()
	for _, f := range figs {
		if f.Stat == StatSum || f.Stat == StatCount || f.Stat == StatQuantile || f.Stat.Derived() || f.Stat == StatLimit {
			continue
		}
		perSecond := strings.HasPrefix(f.Source, SrcRequests) || strings.HasPrefix(f.Source, "vus") ||
			strings.HasPrefix(f.Source, SrcOffered) || strings.HasPrefix(f.Source, GeneratorCPU) || strings.HasPrefix(f.Source, HostCPU)
		if perSecond && f.To >= raw.whole() && kind != KindAllFailed && kind != KindCheckFailed {
			t.Errorf("%s: figure %q reads %s up to %ds, but the run ended inside %ds", kind, f.What, f.Source, f.To, raw.whole())
		}
	}
}

// checkOnset recomputes, with the rule's condition, the second a finding
// says it began, where the condition is a plain one.
func checkOnset(t *testing.T, raw *rawRun, f Finding) {
	t.Helper()
	want, ok := -1, true
	switch f.Kind {
	case KindAllFailed:
		for i := range raw.snaps {
			if n := raw.client(t, SrcRequests)[raw.sec(i)]; n > 0 {
				want = raw.sec(i)
				break
			}
		}
	case KindErrorsAtLoad:
		want = errorsOnset(t, raw)
	case KindCheckFailed:
		fails := raw.source(t, f.Figures[0].Source)
		want = firstSecond(fails, func(v float64) bool { return v > 0 })
	case KindPoolExhaustion, KindCPUSaturation, KindGCPressure, KindCPUThrottled:
		// The finding's first figure after the onset reads the condition's
		// series at the onset; the scrape before it must not meet it.
		ok = false
		if f.Kind == KindGCPressure && !strings.HasPrefix(title(f), "GC pressure") {
			return
		}
		checkEpisodeStart(t, raw, f)
	default:
		ok = false
	}
	if ok && want != f.From {
		t.Errorf("%s: %q says it began at %ds; run.db shows the condition first held at %ds", f.Kind, title(f), f.From, want)
	}
}

// errorsOnset is the first of two seconds with requests in a row (seconds
// without requests skipped) in which at least 3 requests and 1 % failed:
// the whole seconds, then the cut-short end, whose requests the stop
// interrupted do not count. Without two, when 5 % of the run's requests
// failed (the interrupted left out), the first second with a failure.
// Without either, the run's edges: the first second with requests, or the
// first of the seconds in a row up to its last, when each had 1 % failed
// (the interrupted left out) and together 3 the target answered.
func errorsOnset(t *testing.T, raw *rawRun) int {
	reqs, failed := raw.client(t, SrcRequests), raw.client(t, SrcFailed)
	cut := raw.client(t, SrcFailed+`{kind="interrupted"}`)
	var busy []int
	var total, bad3 float64
	for i := range raw.snaps {
		if s := raw.sec(i); reqs[s] > 0 {
			busy = append(busy, s)
			total += reqs[s]
			bad3 += failed[s] - cut[s]
		}
	}
	bad := func(s int) bool {
		n := failed[s]
		if s >= raw.whole() {
			n -= cut[s]
		}
		return n >= 3 && n >= 0.01*reqs[s]
	}
	for j := 0; j+1 < len(busy); j++ {
		if bad(busy[j]) && bad(busy[j+1]) {
			for j > 0 && bad(busy[j-1]) {
				j--
			}
			return errorsBegan(busy, j, func(s int) float64 { return failed[s] - cut[s] }, reqs)
		}
	}
	if bad3 >= 3 && bad3 >= 0.05*total {
		for _, s := range busy {
			if failed[s]-cut[s] > 0 {
				return s
			}
		}
	}
	if s := edgeOnset(t, raw, busy); s >= 0 {
		return s
	}
	return burstOnset(t, raw, busy)
}

// errorsBegan is the onset of errors found at busy[j]: the first earlier
// second in which 3 requests and 1 % failed, when no two seconds in a row
// between them had under 1 % failed and from it up to busy[j] 1 % failed.
func errorsBegan(busy []int, j int, kept func(int) float64, reqs perSec) int {
	clean := func(s int) bool { return kept(s) < 0.01*reqs[s] }
	for i := 0; i < j; i++ {
		if n := kept(busy[i]); n < 3 || n < 0.01*reqs[busy[i]] {
			continue
		}
		stopped := false
		for k := i + 1; k+1 < j; k++ {
			stopped = stopped || (clean(busy[k]) && clean(busy[k+1]))
		}
		if stopped {
			continue
		}
		var n, x float64
		for _, s := range busy[i:j] {
			n, x = n+kept(s), x+reqs[s]
		}
		if n >= 0.01*x {
			return busy[i]
		}
		break
	}
	return busy[j]
}

// burstOnset is errorsOnset amid the run: the first whole second with
// requests in which the target answered at least 10 and 5 % of them with a
// failure; -1 for none.
func burstOnset(t *testing.T, raw *rawRun, busy []int) int {
	reqs := raw.client(t, SrcRequests)
	answered := answeredSeries(t, raw)
	for _, s := range busy {
		own := 0.0
		for _, a := range answered {
			own += a[s]
		}
		if s < raw.whole() && own >= 10 && own >= 0.05*reqs[s] {
			return s
		}
	}
	return -1
}

// edgeOnset is errorsOnset at the run's edges, from its seconds with
// requests; -1 for none.
func edgeOnset(t *testing.T, raw *rawRun, busy []int) int {
	reqs, failed := raw.client(t, SrcRequests), raw.client(t, SrcFailed)
	cut := raw.client(t, SrcFailed+`{kind="interrupted"}`)
	answered := answeredSeries(t, raw)
	// stretch returns how many of secs, from the first, erred in a row, and
	// how many of their failures the target answered.
	stretch := func(secs []int) (n int, own float64) {
		for _, s := range secs {
			if kept := failed[s] - cut[s]; kept == 0 || kept < 0.01*reqs[s] {
				break
			}
			n++
			for _, a := range answered {
				own += a[s]
			}
		}
		return n, own
	}
	if n, own := stretch(busy); n > 0 && own >= 3 {
		return busy[0]
	}
	back := slices.Clone(busy)
	slices.Reverse(back)
	if n, own := stretch(back); n > 0 && own >= 3 {
		return back[n-1]
	}
	return -1
}

// answeredSeries are the failures the target answered, a series a kind: a
// status or a refused connection, not a reset, a timeout, a cancel.
func answeredSeries(t *testing.T, raw *rawRun) []perSec {
	var answered []perSec
	for _, k := range []string{"http_4xx", "http_5xx", "conn_refused", "grpc_unknown", "grpc_invalid_argument", "grpc_not_found",
		"grpc_already_exists", "grpc_permission_denied", "grpc_resource_exhausted", "grpc_failed_precondition", "grpc_aborted",
		"grpc_out_of_range", "grpc_unimplemented", "grpc_internal", "grpc_unavailable", "grpc_data_loss", "grpc_unauthenticated"} {
		answered = append(answered, raw.client(t, SrcFailed+`{kind="`+k+`"}`))
	}
	return answered
}

// checkEpisodeStart checks that the finding's condition held at its first
// scrape and not at the scrape before: the onset is where it began.
func checkEpisodeStart(t *testing.T, raw *rawRun, f Finding) {
	t.Helper()
	var cond Figure
	for _, g := range f.Figures {
		if g.Stat == StatValue && g.From == f.From {
			cond = g
			break
		}
	}
	if cond.Source == "" {
		t.Errorf("%s: no figure reads the condition at the onset %ds", f.Kind, f.From)
		return
	}
	vals := raw.source(t, cond.Source)
	var held func(v float64) bool
	if f.Kind == KindPoolExhaustion {
		limit := -1.0
		for _, g := range f.Figures {
			if strings.Contains(g.What, "maximum") {
				limit = g.Value
			}
		}
		held = func(v float64) bool { return v >= limit }
		if strings.Contains(cond.Source, "pgbouncer") {
			// PgBouncer queues clients only when its pool is full: the condition is a client waiting.
			cond.Source = strings.Replace(cond.Source, "pgbouncer_pools_server_active_connections", "pgbouncer_pools_client_waiting_connections", 1)
			vals = raw.source(t, cond.Source)
			held = func(v float64) bool { return v > 0 }
		} else if limit < 0 {
			t.Errorf("%s: no figure states the pool's maximum", f.Kind)
			return
		}
	} else {
		threshold := map[string]float64{KindCPUSaturation: cpuBusy, KindGCPressure: gcShare, KindCPUThrottled: cpuThrottled}[f.Kind]
		if strings.Contains(cond.Source, "throttled") {
			threshold = cpuThrottled
		}
		if f.Kind == KindGCPressure && strings.HasPrefix(cond.Source, "capped(") {
			threshold = cpuBusy // a Go service's GC pressure begins with its CPU at its limit (gogc.go)
		}
		held = func(v float64) bool { return v >= threshold }
	}
	if !held(vals[f.From]) {
		t.Errorf("%s: at its onset %ds the condition did not hold: %s = %v", f.Kind, f.From, cond.Source, vals[f.From])
	}
	prev := -1
	for sec := range vals {
		if sec < f.From && sec > prev {
			prev = sec
		}
	}
	if prev >= 0 && held(vals[prev]) {
		t.Errorf("%s: says it began at %ds, but it already held at %ds (%s = %v)", f.Kind, f.From, prev, cond.Source, vals[prev])
	}
}

// firstSecond returns the first second at which ok holds, -1 for none.
func firstSecond(vals perSec, ok func(float64) bool) int {
	first := -1
	for sec, v := range vals {
		if ok(v) && (first < 0 || sec < first) {
			first = sec
		}
	}
	return first
}
