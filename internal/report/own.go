package report

import (
	"time"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// own is the "loadlens" section of summary.json: what k6's layout has no
// place for — per-endpoint figures, failures by kind, scheduler lag.
func own(in *Input) map[string]any {
	r := in.Run
	endpoints := ownEndpoints(in)
	scenarios, checks, thresholds := ownScenarios(r), ownChecks(r), ownThresholds(in)
	tot := r.Total()
	var warnings []string
	if d := in.Dropped(); d > 0 {
		warnings = append(warnings, "iterations were dropped for lack of a free VU: percentiles are optimistic")
	}
	warnings = append(warnings, Accounting(in)...)
	warnings = append(warnings, OutputWarnings(in)...)
	out := map[string]any{
		"name": in.Name, "dir": in.Dir, "status": in.Status, "version": in.Version,
		"start": in.Start.Format(time.RFC3339Nano), "end": in.End.Format(time.RFC3339Nano), "duration_ms": ms(r.Elapsed()),
		"passed": in.Passed(), "verdict": Verdict(in), "thresholds": thresholds, "endpoints": endpoints, "scenarios": scenarios, "checks": checks,
		"failures_by_kind": byKind(tot.Failures[:]), "notices": in.Notices, "warnings": warnings,
		"interrupted": in.Interrupted(), "durations_lower_bounds": in.Interrupted() > 0, "truncated_bodies": in.Truncated(),
		"redirects": in.Redirects(), "requests_sent": tot.Requests + in.Redirects(), "iterations_not_sent": in.NotSent(),
		"findings": findingsJSON(in.Findings), "healthy": HealthyText(in.Healthy),
	}
	if g := groupsJSON(r); g != nil {
		out["groups"] = g
	}
	if len(in.Tags) > 0 {
		out["tags"] = in.Tags
	}
	if in.Shape != "" {
		out["load_shape"] = in.Shape
	}
	if why := in.GateNote(); why != "" {
		out["gate_note"] = why // why passed is false though every threshold passed
	}
	if len(in.Agents) > 0 {
		out["agents"] = agentsJSON(in.Agents)
	}
	if o := outputsJSON(in); o != nil {
		out["outputs"] = o
	}
	if c := in.BodyCap(); c > 0 {
		out["max_body"] = c // the cap every truncated body met; absent when unknown or they differ
	}
	return out
}

// ownEndpoints is summary.json's per-endpoint figures.
func ownEndpoints(in *Input) []map[string]any {
	r := in.Run
	var endpoints []map[string]any
	for i := range r.Endpoints {
		e := &r.Endpoints[i]
		info := r.Layout.Endpoints[i]
		nf := failed(e)
		ep := map[string]any{
			"scenario": r.Layout.Scenarios[info.Scenario].Name, "endpoint": info.Name, "method": info.Method,
			"requests": e.Requests, "failed": nf, "error_rate": nanZero(ratio(nf, e.Requests)),
			"failures_by_kind": byKind(e.Failures[:]), "duration": trend(e.Duration), "waiting": trend(e.Waiting),
			"errors": errorGroups(e.Errors), "interrupted": e.Failures[sample.Interrupted], "truncated_bodies": e.Truncated,
			"redirects": e.Redirects,
		}
		if c := in.bodyCap(i); c > 0 {
			ep["max_body"] = c
		}
		if i < len(in.HTTPVersions) && in.HTTPVersions[i].Any() {
			ep["http_versions"] = in.HTTPVersions[i] // k6's proto tag: what an http2 scenario negotiated
		}
		addActive(ep, r, e)
		if t := in.Traces; t.Kept() && i < len(t.Slowest) {
			ep["traces"] = map[string]any{"slowest": keptJSON(t, t.Slowest[i]), "failed": keptJSON(t, t.Failed[i])}
		}
		endpoints = append(endpoints, ep)
	}
	return endpoints
}

// ownScenarios is summary.json's per-scenario figures.
func ownScenarios(r *metrics.Run) []map[string]any {
	var scenarios []map[string]any
	for i, s := range r.Scenarios {
		info := r.Layout.Scenarios[i]
		sc := map[string]any{
			"name": info.Name, "model": info.Model, "iterations": s.Iterations, "dropped_iterations": s.Dropped,
			"vus_max": s.VUsMaxAllocated, "iteration_duration": trend(s.IterationDuration), "scheduler_lag": trend(s.Lag),
		}
		if s.NotSent > 0 {
			sc["not_sent"] = notSentJSON(&r.Scenarios[i]) // iterations ended before a request of theirs was sent
		}
		scenarios = append(scenarios, sc)
	}
	return scenarios
}

// ownChecks is summary.json's checks, each with its endpoint.
func ownChecks(r *metrics.Run) []map[string]any {
	var checks []map[string]any
	for i, c := range r.Checks {
		info := r.Layout.Checks[i]
		ep := ""
		if int(info.Endpoint) < len(r.Layout.Endpoints) {
			ep = r.Layout.Endpoints[info.Endpoint].Name
		}
		checks = append(checks, map[string]any{"scenario": r.Layout.Scenarios[info.Scenario].Name, "endpoint": ep,
			"name": info.Name, "passes": c.Passes, "fails": c.Fails})
	}
	return checks
}

// ownThresholds is summary.json's thresholds with what they observed.
func ownThresholds(in *Input) []map[string]any {
	var thresholds []map[string]any
	for i, res := range in.Results {
		th := map[string]any{"metric": res.Key, "expr": res.Expr, "observed": res.Observed,
			"observed_text": Observed(&in.Thresholds[i], res), "has_data": res.HasData, "pass": res.Pass, "aborted": res.Aborted}
		if res.Reason != "" {
			th["reason"] = res.Reason
		}
		thresholds = append(thresholds, th)
	}
	return thresholds
}

// addActive adds an endpoint's rate over the span it was sent to, and that
// span: rps = requests / active_s, active_s at least a second (see
// rateNote and metrics.Run.Rate), 0 when it is none; and the first and last
// seconds with its requests.
func addActive(ep map[string]any, r *metrics.Run, e *metrics.EndpointTotal) {
	ep["active_s"], ep["rps"] = r.Active(e).Seconds(), r.Rate(e)
	if e.Requests > 0 {
		ep["first_second"], ep["last_second"] = e.FirstSec, e.LastSec
	}
}

func byKind(f []int64) map[string]int64 {
	out := map[string]int64{}
	for _, k := range kindOrder() {
		if f[k] > 0 {
			out[k.String()] = f[k]
		}
	}
	return out
}

func errorGroups(gs []metrics.ErrorGroup) []map[string]any {
	var out []map[string]any
	for _, g := range gs {
		var samples []string
		messages := []map[string]any{}
		for _, s := range g.Samples {
			samples = append(samples, s.Message)
			m := map[string]any{"message": s.Message, "count": s.Count, "first_second": s.First}
			if s.Status != 0 {
				m["status"] = s.Status
			}
			messages = append(messages, m)
		}
		// messages is samples with what each counted; others, the failures none of them counts
		out = append(out, map[string]any{"kind": g.Kind.String(), "count": g.Count, "first_second": g.First, "last_second": g.Last, "samples": samples,
			"messages": messages, "others": g.Others()})
	}
	return out
}

// findingsJSON lists the diagnosis's findings with their evidence.
func findingsJSON(fs []diagnose.Finding) []map[string]any {
	out := []map[string]any{}
	for i := range fs {
		f := &fs[i]
		var ev []map[string]any
		for k := range f.Evidence {
			e := &f.Evidence[k]
			ev = append(ev, map[string]any{"source": e.Source, "second": e.Sec, "value": Num(e.Value), "text": EvidenceText(f, e)})
		}
		m := map[string]any{"kind": f.Kind, "title": FindingTitle(f), "severity": f.Severity.String(),
			"from_second": f.From, "to_second": f.To, "evidence": ev, "remedies": f.Remedies}
		if len(f.Figures) > 0 {
			m["figures"] = f.Figures // every number the title and evidence state, with what it is and where it came from
		}
		out = append(out, m)
	}
	return out
}
