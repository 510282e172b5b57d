package app

import (
	"path/filepath"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/report"
)

// historyRecord is what history keeps of a run: its labels, load shape and
// per-endpoint figures, the same whether made as the run ends or read back
// from its run.db (the index's test holds it to that).
func historyRecord(in *report.Input) history.Run {
	r := in.Run
	tot := r.Total()
	path, err := filepath.Abs(in.Dir)
	if err != nil {
		path = in.Dir // only the working directory's loss makes this fail; the ID still names the run
	}
	rec := history.Run{ID: filepath.Base(in.Dir), Host: in.Host, Path: path, Dir: in.Dir, Name: in.Name, Start: in.Start.UTC(),
		Status: in.Status, ExitCode: in.ExitCode, Tags: in.Tags, Shape: in.Shape, ShapeID: history.ShapeID(in.Shape),
		Elapsed: r.Elapsed(), Requests: tot.Requests, ErrorRate: errorRate(&tot), Findings: len(in.Findings)}
	rec.RPS = r.Rate(&tot) // the run's headline rate, as its endpoint tables make theirs
	rec.Disturbed = disturbedBy(in.Findings)
	rec.Lag = runLag(r)
	judged := len(in.Results)
	rec.Thresholds = &judged
	for i := range r.Endpoints {
		e := &r.Endpoints[i]
		ep := history.Endpoint{Name: endpointName(r, i), Requests: e.Requests, ErrorRate: errorRate(e)}
		ep.RPS = r.Rate(e)
		if e.Duration != nil && e.Duration.Count() > 0 {
			ep.P50, ep.P95, ep.P99 = e.Duration.Quantile(50), e.Duration.Quantile(95), e.Duration.Quantile(99)
		}
		rec.Endpoints = append(rec.Endpoints, ep)
	}
	return rec
}

// disturbedBy is the kind of the critical finding that says the load
// generator or its host limited the run, or "".
func disturbedBy(fs []diagnose.Finding) string {
	for _, f := range fs {
		if f.Severity == diagnose.Critical && (f.Kind == diagnose.KindGeneratorBound || f.Kind == diagnose.KindHostBusy) {
			return f.Kind
		}
	}
	return ""
}

// runLag is the generator's scheduling lag over the run, every scenario's
// merged; nil when none was recorded (a closed model records none).
func runLag(r *metrics.Run) *history.Lag {
	all := metrics.NewHist()
	for i := range r.Scenarios {
		if l := r.Scenarios[i].Lag; l != nil {
			all.Merge(l)
		}
	}
	if all.Count() == 0 {
		return nil
	}
	return &history.Lag{P50: all.Quantile(50), P95: all.Quantile(95), P99: all.Quantile(99)}
}

// endpointName names an endpoint as the summary does, with its scenario
// when there are several.
func endpointName(r *metrics.Run, id int) string {
	ep := r.Layout.Endpoints[id]
	if len(r.Layout.Scenarios) > 1 {
		return r.Layout.Scenarios[ep.Scenario].Name + " · " + ep.Name
	}
	return ep.Name
}

func errorRate(e *metrics.EndpointTotal) float64 {
	if e.Requests == 0 {
		return 0
	}
	var n int64
	for _, f := range e.Failures {
		n += f
	}
	return float64(n) / float64(e.Requests)
}
