package app

import (
	"math"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/metrics/metricstest"
	"github.com/loadlens/loadlens/internal/report"
)

// TestHistoryRecordRatesAreTheHeadlines: history's runs table and its
// endpoint table show one run's rate as the run's own headline and
// endpoint table do; a run of one endpoint read 49.5 (requests over the
// whole elapsed time, graceful stop included) beside 49.7 (trial B39).
func TestHistoryRecordRatesAreTheHeadlines(t *testing.T) {
	for _, c := range []struct {
		name      string
		endpoints int
		elapsed   time.Duration
	}{
		{"one endpoint, a graceful stop after the load", 1, 10090 * time.Millisecond},
		{"three endpoints", 3, 10 * time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			layout := metricstest.Layout(c.endpoints)
			run := metrics.NewRun(layout)
			metricstest.Seconds(layout, 10, func(s *metrics.Snapshot) { run.Add(s) })
			run.SetElapsed(c.elapsed)
			rec := historyRecord(&report.Input{Run: run, Dir: t.TempDir()})
			tot := run.Total()
			if want := run.Rate(&tot); math.Abs(rec.RPS-want) > 1e-9 {
				t.Errorf("the run's rate %.3f, want its headline %.3f", rec.RPS, want)
			}
			for i, ep := range rec.Endpoints {
				if want := run.Rate(&run.Endpoints[i]); math.Abs(ep.RPS-want) > 1e-9 {
					t.Errorf("%s: rate %.3f, want the endpoint table's %.3f", ep.Name, ep.RPS, want)
				}
			}
			if c.endpoints == 1 && math.Abs(rec.RPS-rec.Endpoints[0].RPS) > 1e-9 {
				t.Errorf("one endpoint: the run's rate %.3f, its endpoint's %.3f", rec.RPS, rec.Endpoints[0].RPS)
			}
		})
	}
}
