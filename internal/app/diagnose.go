package app

import (
	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/series"
)

// diagnoseRun names the run's bottlenecks from the client's measurements
// and the series, and keeps both in the report input.
func diagnoseRun(in *report.Input, set series.Set) {
	models := make([]string, len(in.Run.Layout.Scenarios))
	for i, s := range in.Run.Layout.Scenarios {
		models[i] = s.Model
	}
	d := diagnose.Input{Run: in.Run, Series: set, Models: models, LocalTargets: localTargets(in)}
	if in.Traces != nil {
		d.Traces = in.Traces.Breakdowns
	}
	in.Series = set
	in.GeneratorCPU = report.GeneratorCPUBySecond(set)
	in.Findings = diagnose.Diagnose(d)
	in.Healthy = diagnose.Healthy(d, in.Findings)
}
