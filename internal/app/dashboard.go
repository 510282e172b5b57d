package app

import (
	"encoding/json"
	"time"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/live"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/threshold"
)

// liveDiagnosisEvery is how often the dashboard's findings are refreshed
// while the run lasts: often enough to watch a pool fill up, rarely enough
// that diagnosis costs nothing worth measuring.
const liveDiagnosisEvery = 5

// dashboardFeed hands each second of a run to the live dashboard, with the
// series points added since the second before, and every few seconds a
// diagnosis of the run so far, made on a goroutine of its own.
type dashboardFeed struct {
	d      *live.Dashboard
	defs   []threshold.Threshold
	cpus   int
	models []string      // load model per scenario, for diagnosis
	obs    *observations // the run's series so far; nil when there are none

	describe *report.SeriesDescriber
	sent     []int      // points of each kept series already published, in obs's order
	mirror   series.Set // the feed's copy of the series, grown only by appending
	lastDiag int        // the second of the last live diagnosis

	diagJobs chan diagnose.Input // at most one waiting: a busy diagnosis skips a turn
	diagDone chan struct{}
}

// DashboardConfig says where to serve a run's live dashboard.
type DashboardConfig struct {
	Addr  string // host:port (port 0: a free one); "": no dashboard
	Token string // required of every browser; "": none on loopback, one made up elsewhere
}

// startDashboard serves the dashboard of the run described by in.
func startDashboard(cfg DashboardConfig, in *report.Input, planned time.Duration) (*dashboardFeed, error) {
	meta, err := json.Marshal(report.NewPageMeta(in, planned))
	if err != nil {
		return nil, err
	}
	d, err := live.StartDashboard(cfg.Addr, meta, cfg.Token)
	if err != nil {
		return nil, err
	}
	f := &dashboardFeed{d: d, defs: in.Thresholds, cpus: in.CPUs, describe: report.NewSeriesDescriber(in.Run.Unit()),
		diagJobs: make(chan diagnose.Input, 1), diagDone: make(chan struct{})}
	for _, s := range in.Run.Layout.Scenarios {
		f.models = append(f.models, s.Model)
	}
	go f.diagnoseLoop()
	return f, nil
}

// setStart gives the page the run's start, fixed after the dashboard began
// serving (see open); browsers connecting from now on get it.
func (f *dashboardFeed) setStart(in *report.Input, planned time.Duration) {
	if meta, err := json.Marshal(report.NewPageMeta(in, planned)); err == nil { // numbers and strings: it always encodes
		f.d.SetMeta(meta)
	}
}

// second publishes the latest second of run with the thresholds judged on
// the run so far and the series points added since the last second. It
// only copies, encodes and queues: neither the dashboard nor the live
// diagnosis ever makes the collector wait. It calls pause between its
// steps (see collectPause).
func (f *dashboardFeed) second(run *metrics.Run, elapsed time.Duration, cpu float64, aborted map[int]bool, pause func()) {
	run.SetElapsed(elapsed) // before the frame: a last second cut short charts its rate over what it lasted
	frame := report.NewFrame(run, len(run.Series)-1, cpu, f.cpus)
	if len(f.defs) > 0 {
		frame.Thresholds = report.ThresholdStates(f.defs, evaluate(run, f.defs, aborted))
		pause()
	}
	frame.Observed = f.observedDelta()
	pause()
	b, err := json.Marshal(frame)
	if err != nil {
		return // a frame of numbers and strings always encodes
	}
	f.d.Publish(b)
	pause()
	if t, err := json.Marshal(report.NewEndpointTable(run)); err == nil {
		f.d.SetEndpoints(t)
	}
	if sec := frame.Sec; sec+1-f.lastDiag >= liveDiagnosisEvery {
		pause()
		f.lastDiag = sec + 1
		select {
		case f.diagJobs <- diagnose.Input{Run: runSoFar(run), Series: f.seriesSoFar(), Models: f.models}:
		default: // the last one is still being made
		}
	}
}

// observedDelta returns the series first seen and the points added since
// the last call, or nil when nothing was added.
func (f *dashboardFeed) observedDelta() *report.ObservedDelta {
	if f.obs == nil {
		return nil
	}
	var news []seriesNews
	news, f.sent = f.obs.pointsSince(f.sent)
	d := &report.ObservedDelta{}
	for _, n := range news {
		if n.index == len(f.mirror) {
			s := &series.Series{Name: n.name, Labels: n.labels, Kind: n.kind}
			f.mirror = append(f.mirror, s)
			d.New = append(d.New, f.describe.Describe(n.index, s))
		}
		kept := f.mirror[n.index]
		kept.Points = append(kept.Points, n.points...)
		if len(n.points) > 0 {
			d.Points = append(d.Points, report.NewSeriesPoints(n.index, n.points))
		}
	}
	if d.Empty() {
		return nil
	}
	return d
}

// seriesSoFar returns the series published so far, sharing their points:
// each is cut at its current length and capacity, so the feed's later
// appends never touch what the diagnosis reads.
func (f *dashboardFeed) seriesSoFar() series.Set {
	out := make(series.Set, len(f.mirror))
	for i, s := range f.mirror {
		n := len(s.Points)
		out[i] = &series.Series{Name: s.Name, Labels: s.Labels, Kind: s.Kind, Points: s.Points[:n:n]}
	}
	return out
}

// runSoFar returns what diagnosis reads of run, safe to read while the
// collector goes on: the seconds so far (never changed once added) and a
// copy of each endpoint's totals and histogram.
func runSoFar(run *metrics.Run) *metrics.Run {
	n := len(run.Series)
	c := &metrics.Run{Layout: run.Layout, Series: run.Series[:n:n],
		Endpoints: make([]metrics.EndpointTotal, len(run.Endpoints)), Scenarios: make([]metrics.ScenarioTotal, len(run.Scenarios)),
		Checks: make([]metrics.CheckTotal, len(run.Checks))}
	for i, ck := range run.Checks {
		c.Checks[i] = ck.Clone() // the collector adds to its statuses in place
	}
	for i := range run.Endpoints {
		e := &run.Endpoints[i]
		c.Endpoints[i] = metrics.EndpointTotal{Figures: metrics.Figures{Requests: e.Requests, Failures: e.Failures, Truncated: e.Truncated,
			Sent: e.Sent, Received: e.Received, Duration: e.Duration.Clone()}}
	}
	for i, s := range run.Scenarios {
		c.Scenarios[i] = metrics.ScenarioTotal{Iterations: s.Iterations, Dropped: s.Dropped, VUsMin: s.VUsMin, VUsMax: s.VUsMax,
			VUsLast: s.VUsLast, VUsMaxAllocated: s.VUsMaxAllocated}
	}
	return c
}

// diagnoseLoop diagnoses the run so far whenever second asks, and shows
// the findings on the dashboard, until the jobs channel closes.
func (f *dashboardFeed) diagnoseLoop() {
	defer close(f.diagDone)
	for in := range f.diagJobs {
		fs := diagnose.Diagnose(in)
		d := report.NewDiagnosis(fs, diagnose.Healthy(in, fs))
		d.UpTo = len(in.Run.Series)
		if b, err := json.Marshal(d); err == nil {
			f.d.SetDiagnosis(b)
		}
	}
}

// end shows how the run ended, with the final diagnosis, the points that
// came after the last second and whether report.html could be written; the
// run's cleanups then stop serving (close). A nil feed does nothing.
func (f *dashboardFeed) end(in *report.Input, reportPath string, reportErr error) {
	if f == nil {
		return
	}
	f.stopDiagnosis() // so that no live diagnosis follows the final one
	final := report.NewFinal(in, reportPath)
	if reportErr != nil {
		final.Report, final.ReportError = "", reportErr.Error()
	}
	final.Observed = f.observedDelta()
	if b, err := json.Marshal(final); err == nil {
		f.d.End(b)
	}
}

// stopDiagnosis ends the live diagnosis and waits for it.
func (f *dashboardFeed) stopDiagnosis() {
	if f.diagJobs != nil {
		close(f.diagJobs)
		<-f.diagDone
		f.diagJobs = nil
	}
}

// close stops the live diagnosis and serving; closing again does nothing.
func (f *dashboardFeed) close() {
	f.stopDiagnosis()
	_ = f.d.Close()
}

// seriesNews is what one kept series gained since the dashboard last
// looked: itself when it is new, and its new points.
type seriesNews struct {
	index  int // in the order series were first kept
	name   string
	labels []series.Label
	kind   series.Kind
	points []series.Point // copied
}

// pointsSince returns, under o's lock, what the kept series gained since
// sent (the points of each already seen, in the order kept): each series
// with new points, new series included. It returns the counts to pass
// next time. Kept series only ever grow, so a count is a cursor.
func (o *observations) pointsSince(sent []int) ([]seriesNews, []int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var news []seriesNews
	for i, s := range o.set {
		if i == len(sent) {
			sent = append(sent, 0)
			news = append(news, seriesNews{index: i, name: s.Name, labels: s.Labels, kind: s.Kind})
		}
		if len(s.Points) == sent[i] {
			continue
		}
		pts := append([]series.Point(nil), s.Points[sent[i]:]...)
		sent[i] = len(s.Points)
		if len(news) > 0 && news[len(news)-1].index == i {
			news[len(news)-1].points = pts
		} else {
			news = append(news, seriesNews{index: i, points: pts})
		}
	}
	return news, sent
}
