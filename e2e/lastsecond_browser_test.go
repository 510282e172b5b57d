package e2e

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/metrics/metricstest"
	"github.com/loadlens/loadlens/internal/report"
	llsample "github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
)

// TestShortLastSecondChartsNoRate draws report.html of a run at 100
// requests a second whose last second lasted 0.3 s (30 requests) and reads
// what Chromium's charts hold there: nothing, in the throughput chart and
// the generator's bytes — neither a drop to 30 % (its count) nor a rate
// made of a part second (a graceful stop's answers over 0.25 s charted
// twice the offered rate) — and 100/s in every whole second; the cards keep
// the run's count, the last second's 30 included.
func TestShortLastSecondChartsNoRate(t *testing.T) {
	b := startBrowser(t)
	dir := t.TempDir()
	layout := metricstest.Layout(1)
	rec := metrics.NewRecorder(layout, 1)
	run := metrics.NewRun(layout)
	bytesIn := &series.Series{Name: "loadlens_received_bytes", Kind: series.Gauge,
		Labels: []series.Label{{Name: "role", Value: report.RoleGenerator}, {Name: "target", Value: "loadlens"}}}
	const secs, perSec = 6, 100
	for sec := range secs {
		n := perSec
		if sec == secs-1 {
			n = perSec * 3 / 10 // the run ends 0.3 s into its last second
		}
		sink := rec.Sink(sec)
		for k := range n {
			at := time.Duration(sec)*time.Second + time.Duration(k)*10*time.Millisecond
			sink.Request(&llsample.Request{Endpoint: 0, End: at, Duration: 5 * time.Millisecond, Received: 1000, Status: 200})
		}
		run.Add(rec.Collect(sec))
		bytesIn.Points = append(bytesIn.Points, series.Point{Sec: sec, Value: float64(1000 * n)})
	}
	run.SetElapsed((secs-1)*time.Second + 300*time.Millisecond)
	start := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	in := &report.Input{Name: "short-last-second", Status: "completed", Version: "test", Start: start, End: start.Add(run.Elapsed()),
		Run: run, Host: "box", CPUs: 2, Series: series.Set{bytesIn}}
	b.openReport(writeReportPage(t, dir, in), 20*time.Second)
	b.screenshot("report-short-last-second.png")

	var got struct {
		Requests []*float64 `json:"rq"`
		Bytes    []*float64 `json:"bytes"`
		Total    float64    `json:"total"`
	}
	b.eval(`var col = t => { var c = LL.charts.find(c => c.title.startsWith(t)); return c ? c.u.data[1] : null; };
		return {rq: col("Requests and errors"), bytes: col("Data per second"), total: LL.charts.length}`, &got)
	for _, c := range []struct {
		chart string
		col   []*float64
		want  float64
	}{
		{"requests per second", got.Requests, perSec},
		{"bytes received per second", got.Bytes, 1000 * perSec},
	} {
		if len(c.col) != secs {
			t.Errorf("%s: %d points, want %d: %v", c.chart, len(c.col), secs, c.col)
			continue
		}
		for sec, v := range c.col {
			switch {
			case sec == secs-1 && v != nil:
				t.Errorf("%s at the last second (0.3 s long): %v, want no point", c.chart, *v)
			case sec < secs-1 && (v == nil || math.Abs(*v-c.want) > 1e-6*c.want):
				t.Errorf("%s at second %d: %v, want %v", c.chart, sec, v, c.want)
			}
		}
	}
	if card := text(b, ".cards"); !strings.Contains(card, "530 requests") {
		t.Errorf("the cards do not count the run's 530 requests: %q", card)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}
