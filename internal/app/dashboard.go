package app

import (
	"encoding/json"
	"time"

	"github.com/loadlens/loadlens/internal/live"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/threshold"
)

// dashboardFeed hands each second of a run to the live dashboard.
type dashboardFeed struct {
	d    *live.Dashboard
	defs []threshold.Threshold
	cpus int
	obs  *observations // the run's series so far; nil when there are none
}

// startDashboard serves the dashboard of the run described by in on addr.
func startDashboard(addr string, in *report.Input, planned time.Duration) (*dashboardFeed, error) {
	meta, err := json.Marshal(report.NewPageMeta(in, planned))
	if err != nil {
		return nil, err
	}
	d, err := live.StartDashboard(addr, meta)
	if err != nil {
		return nil, err
	}
	return &dashboardFeed{d: d, defs: in.Thresholds, cpus: in.CPUs}, nil
}

// second publishes the latest second of run with the thresholds judged on
// the run so far. It only encodes and queues: the dashboard never waits
// for a browser.
func (f *dashboardFeed) second(run *metrics.Run, elapsed time.Duration, cpu float64, aborted map[int]bool) {
	frame := report.NewFrame(run, len(run.Series)-1, cpu, f.cpus)
	if len(f.defs) > 0 {
		run.SetElapsed(elapsed)
		frame.Thresholds = report.ThresholdStates(f.defs, evaluate(run, f.defs, aborted))
	}
	b, err := json.Marshal(frame)
	if err != nil {
		return // a frame of numbers and strings always encodes
	}
	f.d.Publish(b)
}

// end shows how the run ended and stops serving; a nil feed does nothing.
func (f *dashboardFeed) end(in *report.Input, reportPath string) {
	if f == nil {
		return
	}
	if b, err := json.Marshal(report.NewFinal(in, reportPath)); err == nil {
		f.d.End(b)
	}
	f.close()
}

// close stops serving; a nil feed does nothing.
func (f *dashboardFeed) close() {
	if f != nil {
		_ = f.d.Close()
	}
}
