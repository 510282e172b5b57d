package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/metrics/metricstest"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/store"
)

// writeLongRun writes the run.db of a synthetic run of secs seconds over n
// endpoints into dir, as a run killed before finishing would leave it.
func writeLongRun(t *testing.T, dir string, secs, n int) {
	t.Helper()
	layout := metricstest.Layout(n)
	start := time.Now().Add(-time.Duration(secs) * time.Second)
	w, err := store.Create(filepath.Join(dir, "run.db"), store.Meta{ID: "long", Name: "long", Version: "test", Host: "box", CPUs: 8,
		Start: start, TestSource: []byte("name: long\n"), Layout: layout,
		Extra: map[string]string{"thresholds": `[{"key":"http_req_duration","expr":"p(95) < 500ms"}]`}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	metricstest.Seconds(layout, secs, func(snap *metrics.Snapshot) {
		sec := snap.Second
		if err := w.WriteSecond(snap); err != nil {
			t.Fatal(err)
		}
		// what a run records of the generator each second (internal/app/self.go)
		self := func(name string, v float64) *series.Series {
			return &series.Series{Name: name, Labels: []series.Label{{Name: "role", Value: report.RoleGenerator}},
				Points: []series.Point{{Sec: sec, Value: v}}}
		}
		if err := w.WriteSeries(self(diagnose.GeneratorCPU, 0.5+float64(sec%60)/100), self(diagnose.GeneratorCapacity, 8),
			self("loadlens_scheduler_lag_p99_s", 0.0002), self("loadlens_received_bytes", 2e6), self("loadlens_sent_bytes", 2e5),
			self("loadlens_goroutines", 90), self("loadlens_open_fds", 70)); err != nil {
			t.Fatal(err)
		}
	})
}

// TestReportOfALongRun rebuilds report.html of a 10-minute run over 20
// endpoints that never finished, then checks its size and that Chromium
// draws it, logging how long that took.
func TestReportOfALongRun(t *testing.T) {
	b := startBrowser(t)
	dir := t.TempDir()
	runDir := filepath.Join(dir, "20261122-100000-long")
	if err := os.Mkdir(runDir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeLongRun(t, runDir, 600, 20)
	r := loadlens(t, dir, "report", runDir, "--junit", "junit.xml", "--summary-md", "summary.md")
	if r.code != 0 || !strings.Contains(r.stdout, "report.html") {
		t.Fatalf("report: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	page := filepath.Join(runDir, "report.html")
	st, err := os.Stat(page)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("report.html of 10 minutes × 20 endpoints: %.2f MB", float64(st.Size())/(1<<20))
	if st.Size() > 5<<20 {
		t.Errorf("report.html is %d bytes, over 5 MB", st.Size())
	}

	b.openReport(page, 20*time.Second)
	var timing struct {
		Script float64 `json:"script"` // the report's script, parsing its data and drawing
		Load   float64 `json:"load"`   // navigation start to the load event
	}
	b.eval(`var n = performance.getEntriesByType("navigation")[0]; return {script: LL.renderMs, load: n.loadEventEnd}`, &timing)
	t.Logf("Chromium: charts drawn in %.0f ms; page loaded %.0f ms after navigation started", timing.Script, timing.Load)
	assertCharts(t, b, 7)
	var rows int
	b.eval(`return document.querySelectorAll("#endpoints tbody tr").length`, &rows)
	if rows != 20 {
		t.Errorf("endpoint table has %d rows, want 20", rows)
	}
	if got := text(b, "header"); !strings.Contains(got, "Incomplete") {
		t.Errorf("header of a run that never finished does not say so: %q", got)
	}
	b.screenshot("report-long.png")
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}

// readLongRun reads back the run writeLongRun wrote in dir, with the series
// stored beside it.
func readLongRun(t *testing.T, dir string) (*metrics.Run, series.Set) {
	t.Helper()
	rd, err := store.Open(filepath.Join(dir, "run.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	run, err := rd.Run()
	if err != nil {
		t.Fatal(err)
	}
	stored, err := rd.Series()
	if err != nil {
		t.Fatal(err)
	}
	return run, stored
}

// writeReportPage writes in as report.html in dir and returns its path.
func writeReportPage(t *testing.T, dir string, in *report.Input) string {
	t.Helper()
	page := filepath.Join(dir, "report.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := report.WriteHTML(f, in); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return page
}
