package e2e

import (
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/series"
)

// observedTarget answers /ok for the load and /metrics in Prometheus text
// format with a database/sql pool: exhausted (every connection in use and
// the wait count rising at every scrape) or healthy (few in use, no wait).
// /broken is a metrics endpoint that always fails.
func observedTarget(t *testing.T, exhausted bool) *httptest.Server {
	var scrapes atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ok", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{"ok": true}`) })
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		n := scrapes.Add(1)
		inUse, waits, waited := 2, 0, 0.0
		if exhausted {
			inUse, waits, waited = 10, int(7*n), 0.9*float64(n)
		}
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		fmt.Fprintf(w, `# HELP go_sql_max_open_connections Maximum number of open connections to the database.
# TYPE go_sql_max_open_connections gauge
go_sql_max_open_connections{db_name="shop"} 10
# TYPE go_sql_open_connections gauge
go_sql_open_connections{db_name="shop"} 10
# TYPE go_sql_in_use_connections gauge
go_sql_in_use_connections{db_name="shop"} %d
# TYPE go_sql_idle_connections gauge
go_sql_idle_connections{db_name="shop"} %d
# TYPE go_sql_wait_count_total counter
go_sql_wait_count_total{db_name="shop"} %d
# TYPE go_sql_wait_duration_seconds_total counter
go_sql_wait_duration_seconds_total{db_name="shop"} %g
# TYPE go_goroutines gauge
go_goroutines %d
# TYPE process_cpu_seconds_total counter
process_cpu_seconds_total %g
`, inUse, 10-inUse, waits, waited, 20+n%5, 0.35*float64(n))
	})
	mux.HandleFunc("GET /broken", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "exporter down", http.StatusServiceUnavailable)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// chartByTitle returns the first chart drawn whose title starts with
// title (a chart's title ends with the labels all its series share).
func chartByTitle(b *browser, title string) (chartState, bool) {
	for _, c := range charts(b) {
		if strings.HasPrefix(c.Title, title) {
			return c, true
		}
	}
	return chartState{}, false
}

// TestServerViewInABrowser runs tests that scrape a /metrics endpoint and
// checks that the dashboard and report.html chart the server's series
// beside the client's, list the findings (or say the run was healthy),
// mark them on the charts and show a failing scrape.
func TestServerViewInABrowser(t *testing.T) {
	b := startBrowser(t)
	cases := []struct {
		name      string
		exhausted bool
		want      string // in the Findings section
	}{
		{"pool exhausted", true, "DB pool exhausted"},
		{"healthy", false, "No bottleneck found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := observedTarget(t, c.exhausted)
			dir := t.TempDir()
			shot := strings.ReplaceAll(c.name, " ", "-")
			test := writeTest(t, dir, "observed.yaml", fmt.Sprintf(`
name: observed-%s
base_url: %s
scenarios:
  browse:
    rate: 20
    duration: 10s
    flow:
      - get: /ok
observe:
  interval: 1s
  targets:
    - name: app
      url: %s/metrics
      preset: go
      labels: {role: app}
    - name: broken
      url: %s/broken
`, shot, srv.URL, srv.URL, srv.URL))
			run := startLive(t, dir, "run", test, "--results", "results", "--quiet")

			b.open(run.dashboard)
			waitFor(t, 20*time.Second, "the dashboard to chart the pool with 3 scrapes", func() bool {
				var n int
				b.eval(`var c = (window.LL && LL.charts || []).find(c => c.title.startsWith("DB connection pool"));
					return c ? c.u.data[0].length : 0`, &n)
				return n >= 3
			})
			for _, title := range []string{"DB connection pool", "CPU, cores busy", "Goroutines and open files"} {
				if c, ok := chartByTitle(b, title); !ok || c.Points == 0 || !c.Canvas {
					t.Errorf("dashboard chart %q: %+v, drawn %v; want it drawn with data", title, c, ok)
				}
			}
			if got := text(b, "#server .obs-head"); !strings.Contains(got, "app") || !strings.Contains(got, "role app") || !strings.Contains(got, "every 1 s") {
				t.Errorf("dashboard server group heading %q lacks the target, its role and its interval", got)
			}
			b.screenshot("observed-" + shot + "-dashboard.png")
			poolPoints := func() int {
				var n int
				b.eval(`var c = (window.LL && LL.charts || []).find(c => c.title.startsWith("DB connection pool"));
					return c ? c.points() : 0`, &n)
				return n
			}
			seen := poolPoints()
			if dashboardUp(run.dashboard) {
				b.open(run.dashboard) // a page opened mid-run gets every point so far
				waitFor(t, 10*time.Second, "the reopened dashboard to chart the pool", func() bool { return poolPoints() > 0 })
				if got := poolPoints(); got < seen {
					t.Errorf("the dashboard opened again mid-run charts %d pool points, want at least the %d shown before", got, seen)
				}
			} else {
				// the steps above outlasted the run on a busy host; the dashboard lives only as long as the run
				t.Log("the run ended before the dashboard could be opened again: the mid-run reopen is not judged")
			}
			if code := run.wait(t); code != 0 {
				t.Fatalf("run exit %d, want 0", code)
			}
			// On a busy host a healthy run is rightly told its generator was short of CPU instead:
			// that finding, and no finding about the target, is as good an answer.
			generatorOnly := func(f string) bool {
				return !c.exhausted && strings.Contains(f, "the numbers are not the target's") && !strings.Contains(f, "DB pool")
			}
			starved := false
			if !pollUntil(30*time.Second, func() bool {
				f := text(b, "#findings")
				starved = generatorOnly(f)
				return !strings.Contains(text(b, "#findings-box"), "So far") && (strings.Contains(f, c.want) || starved) &&
					text(b, "#verdict") != "LIVE"
			}) {
				t.Fatalf("the ended dashboard does not show the final findings (want %q): verdict %q, findings %q",
					c.want, text(b, "#verdict"), text(b, "#findings-box"))
			}
			if starved {
				t.Logf("the host was busy: the dashboard named the generator, not the target: %q", text(b, "#findings"))
			}
			if got := text(b, "#scrape-errors"); !strings.Contains(got, "scraping broken") {
				t.Errorf("the ended dashboard does not show the failing scrape: %q", got)
			}
			b.screenshot("observed-" + shot + "-dashboard-ended.png")
			if errs := b.consoleErrors(); len(errs) > 0 {
				t.Errorf("dashboard console errors:\n%s", strings.Join(errs, "\n"))
			}

			b.openReport(filepath.Join(onlyRunDir(t, filepath.Join(dir, "results")), "report.html"), 10*time.Second)
			assertCharts(t, b, 10)
			for _, title := range []string{"DB connection pool", "DB pool waits", "CPU, cores busy", "Scheduler lag (p99)"} {
				if _, ok := chartByTitle(b, title); !ok {
					t.Errorf("report.html has no chart %q", title)
				}
			}
			reportStarved := false
			if got := text(b, "#findings"); !strings.Contains(got, c.want) {
				if reportStarved = generatorOnly(got); !reportStarved {
					t.Errorf("report Findings section lacks %q:\n%s", c.want, got)
				}
			}
			var synced struct {
				Hovered float64 `json:"hovered"`
				Server  float64 `json:"server"`
			}
			b.eval(`var red = LL.charts[0].u, pool = LL.charts.find(c => c.title.startsWith("DB connection pool")).u;
				var r = red.over.getBoundingClientRect();
				red.over.dispatchEvent(new MouseEvent("mousemove", {clientX: r.left + r.width * 0.6, clientY: r.top + r.height / 2, bubbles: true}));
				return {hovered: red.posToVal(red.cursor.left, "x"), server: pool.cursor.left >= 0 ? pool.posToVal(pool.cursor.left, "x") : -1}`, &synced)
			if synced.Server < 0 || math.Abs(synced.Server-synced.Hovered) > 0.2 {
				t.Errorf("hovering second %.2f of the requests chart puts the pool chart's cursor at %.2f; want the same second", synced.Hovered, synced.Server)
			}
			var marked int
			b.eval(`return LL.findings.length`, &marked)
			if got := text(b, "main"); strings.Contains(got, "broken") && !strings.Contains(text(b, ".scrape-error"), "scraping broken") {
				t.Errorf("report.html does not show the failing scrape beside the server's charts")
			}
			if c.exhausted && marked == 0 {
				t.Errorf("report.html marks no finding on its charts")
			}
			if !c.exhausted && !reportStarved && text(b, "#healthy") == "" {
				t.Errorf("report.html of a healthy run has no healthy statement")
			}
			b.screenshot("observed-" + shot + "-report.png")
			if errs := b.consoleErrors(); len(errs) > 0 {
				t.Errorf("report console errors:\n%s", strings.Join(errs, "\n"))
			}
		})
	}
}

// longObserved is n series of targets app-0, app-1, ... sampled every
// second for secs seconds, as the presets name them.
func longObserved(secs, n int) series.Set {
	names := []string{"hikaricp_connections_active", "hikaricp_connections_pending", "hikaricp_connections_idle",
		"hikaricp_connections_max", "process_cpu_usage", "jvm_memory_used_bytes", "http_server_requests_seconds_count"}
	set := series.Set{}
	for i := range n {
		target := fmt.Sprintf("app-%d", i/len(names))
		s := &series.Series{Name: names[i%len(names)], Labels: []series.Label{{Name: "role", Value: "app"}, {Name: "target", Value: target}}}
		for sec := range secs {
			s.Points = append(s.Points, series.Point{Sec: sec, Value: 10 * (1 + math.Sin(float64(sec*(i+1))/97))})
		}
		set = append(set, s)
	}
	return set
}

// TestLongObservedReportInABrowser draws report.html of a 10-minute run
// over 20 endpoints with 50 server series and two findings, checking its
// size and that Chromium draws every chart, and logging how long it took.
func TestLongObservedReportInABrowser(t *testing.T) {
	b := startBrowser(t)
	dir := t.TempDir()
	writeLongRun(t, dir, 600, 20)
	run, stored := readLongRun(t, dir)
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	in := &report.Input{Name: "long-observed", Status: "completed", Version: "test", Start: start, End: start.Add(10 * time.Minute),
		Run: run, Host: "box", CPUs: 8, Series: longObserved(600, 50), GeneratorCPU: report.GeneratorCPUBySecond(stored),
		Findings: []diagnose.Finding{
			{Kind: diagnose.KindPoolExhaustion, Severity: diagnose.Critical, From: 120, To: 300, Parts: diagnose.Words("DB pool exhausted: 10 of 10 connections in use (hikaricp, target=app-0) from 2:00")},
			{Kind: diagnose.KindLatencyDrift, Severity: diagnose.Warning, From: 400, To: 599, Parts: diagnose.Words("Latency drifts up at constant load")},
		}}
	page := writeReportPage(t, dir, in)
	st, err := os.Stat(page)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("report.html of 10 minutes × 20 endpoints × 50 series: %.2f MB", float64(st.Size())/(1<<20))
	if st.Size() > 5<<20 {
		t.Errorf("report.html is %d bytes, over 5 MB", st.Size())
	}

	b.openReport(page, 20*time.Second)
	var ms float64
	b.eval(`return LL.renderMs`, &ms)
	t.Logf("Chromium: charts drawn in %.0f ms", ms)
	assertCharts(t, b, 6+1+7*4+1) // client, spectrum, 4 per target (pool, CPU, memory, requests), and target 7's one series
	var groups int
	b.eval(`return document.querySelectorAll("#server .obs-group").length`, &groups)
	if groups != 8 {
		t.Errorf("%d server groups, want 8 (one per target)", groups)
	}
	for _, want := range []string{"#1", "#2", "DB pool exhausted", "Latency drifts up"} {
		if got := text(b, "#findings"); !strings.Contains(got, want) {
			t.Errorf("Findings lack %q", want)
		}
	}
	b.screenshot("report-long-observed.png")
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}

// dashboardUp reports whether the live dashboard at url still answers.
func dashboardUp(url string) bool {
	c := &http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}
