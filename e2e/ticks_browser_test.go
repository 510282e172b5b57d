package e2e

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/series"
)

// TestSmallValuesHaveUniqueTicks draws report.html with series of small
// values — CPU cores from 0.002 to 0.0065, a plain gauge from 0.02 to
// 0.065, a wait from 0.2 to 0.65 ms — and reads the y-axis labels that
// Chromium's uPlot drew: no two ticks read the same, and each reads its own
// value (the axes once labelled ticks 0.002 apart "0", "0", "0", "0.01").
func TestSmallValuesHaveUniqueTicks(t *testing.T) {
	b := startBrowser(t)
	dir := t.TempDir()
	writeLongRun(t, dir, 40, 1)
	run, _ := readLongRun(t, dir)
	wave := func(name string, lo, hi float64) *series.Series {
		s := &series.Series{Name: name, Kind: series.Gauge, Labels: []series.Label{{Name: "role", Value: "app"}, {Name: "target", Value: "app"}}}
		for sec := range 40 {
			s.Points = append(s.Points, series.Point{Sec: sec, Value: lo + (hi-lo)*(1+math.Sin(float64(sec)/4))/2})
		}
		return s
	}
	start := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	in := &report.Input{Name: "small-values", Status: "completed", Version: "test", Start: start, End: start.Add(40 * time.Second),
		Run: run, Host: "box", CPUs: 2, Series: series.Set{
			wave("container_cpu_usage_seconds_total", 0.002, 0.0065), // a family drawn in cores
			wave("app_queue_load", 0.02, 0.065),                      // a metric of its own chart: plain numbers
			wave("app_wait_seconds", 0.0002, 0.00065),                // seconds, drawn as milliseconds
		}}
	page := writeReportPage(t, dir, in)
	b.openReport(page, 20*time.Second)
	b.screenshot("report-small-ticks.png")
	for _, c := range []struct {
		title, suffix string
		scale         float64 // of a label's figure to the series' value
	}{
		{"Container CPU", "", 1},
		{"app_queue_load", "", 1},
		{"app_wait_seconds", "µs", 1e-6},
	} {
		var axis struct {
			Splits []float64 `json:"splits"`
			Labels []string  `json:"labels"`
		}
		b.eval(`var c = LL.charts.find(c => c.title.startsWith(`+strconv.Quote(c.title)+`));
			return c ? {splits: c.u.axes[1]._splits, labels: c.u.axes[1]._values} : null`, &axis)
		if len(axis.Labels) < 3 || len(axis.Labels) != len(axis.Splits) {
			t.Errorf("%s: want 3 or more ticks, each labelled: %+v", c.title, axis)
			continue
		}
		seen := map[string]bool{}
		for i, l := range axis.Labels {
			if seen[l] {
				t.Errorf("%s: the label %q is on two ticks: %q at %v", c.title, l, axis.Labels, axis.Splits)
			}
			seen[l] = true
			v, err := strconv.ParseFloat(strings.TrimSuffix(l, c.suffix), 64)
			if l == "0" {
				v, err = 0, nil
			}
			if want := axis.Splits[i]; err != nil || math.Abs(v*c.scale-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("%s: the tick at %v reads %q", c.title, want, l)
			}
		}
		t.Logf("%s: %q", c.title, axis.Labels)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}
