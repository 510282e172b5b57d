package demorun

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/demo"
	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/otlp"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/units"
)

// DemoConfig is what `loadlens demo` needs.
type DemoConfig struct {
	Serve bool         // only serve the shop until ctx ends
	Quick bool         // one short run against the improved shop instead of the session
	Shop  demo.Options // how the shop is built
	// ShopCommand starts the shop in a process of its own (a command that
	// prints "demo shop listening on URL"), so the generator's CPU figures
	// are its own; nil serves it from this process.
	ShopCommand []string
	Run         app.RunConfig
	// Traces has the shop export its spans to a receiver of the demo's,
	// every request sampled, so each report shows where the time went.
	Traces bool
}

// Demo starts the built-in shop and runs the scripted session against it
// (the naive shop, then the improved one, with before/after figures), or
// one quick run, or only serves the shop.
func Demo(ctx context.Context, cfg DemoConfig) (app.RunResult, error) {
	out := cfg.Run.Out
	if cfg.Serve {
		target, err := demo.Start(ctx, cfg.Shop)
		if err != nil {
			return app.RunResult{ExitCode: app.ExitRunFailed}, err
		}
		defer target.Close()
		fmt.Fprintf(out, "%s%s (Ctrl-C to stop)\n", shopReadyLine, target.URL)
		fmt.Fprintf(out, "try: loadlens run %s/products/1 --rate 100 --duration 30s\n", target.URL)
		return app.RunResult{ExitCode: app.ExitOK}, target.Wait(ctx)
	}
	if cfg.Traces {
		recv, err := otlp.Listen("127.0.0.1:0", otlp.Options{Spans: app.SpanBound})
		if err != nil {
			return app.RunResult{ExitCode: app.ExitRunFailed}, err
		}
		defer recv.Close()
		cfg.Shop.OTLPEndpoint, cfg.Run.Traces = recv.Endpoint(), recv
		if len(cfg.ShopCommand) > 0 {
			cfg.ShopCommand = append(cfg.ShopCommand, "--otlp-endpoint", recv.Endpoint())
		}
		fmt.Fprintf(out, "traces: the shop exports its spans to %s\n", recv.Endpoint()+otlp.Path)
	}
	shop, err := startShop(ctx, cfg)
	if err != nil {
		return app.RunResult{ExitCode: app.ExitRunFailed}, err
	}
	defer shop.close()
	if cfg.Quick {
		fmt.Fprintf(out, "demo shop at %s; a quick run of about 10 seconds\n", shop.url)
		p, err := plan.Parse("demo-shop.yaml", withTracing(demo.QuickTest(shop.url), cfg.Traces), nil)
		if err != nil {
			return app.RunResult{ExitCode: app.ExitRunFailed}, fmt.Errorf("the built-in demo test: %w", err)
		}
		cfg.Run.Plan = p
		return app.Run(ctx, cfg.Run)
	}
	return demoSession(ctx, cfg.Run, shop.url, cfg.Traces)
}

// withTracing adds a tracing section sampling every request to an embedded
// test, when the demo shows traces.
func withTracing(src []byte, on bool) []byte {
	if !on {
		return src
	}
	return append(src, "\n# added by loadlens demo --traces\ntracing: {sample: 1}\n"...)
}

// demoSession runs the session's tests one after the other and prints what
// changed between them.
func demoSession(ctx context.Context, rc app.RunConfig, url string, traces bool) (app.RunResult, error) {
	sess := demo.ScriptedSession()
	out := rc.Out
	fmt.Fprintf(out, "demo shop at %s\nthe same load twice: first against the naive shop, then against the improved one (about a minute)\n", url)
	var runs []*report.Input
	last := app.RunResult{ExitCode: app.ExitOK}
	for i, r := range sess.Runs {
		p, err := plan.Parse(r.File, withTracing(r.Test(url), traces), nil)
		if err != nil {
			return app.RunResult{ExitCode: app.ExitRunFailed}, fmt.Errorf("the built-in demo test %s: %w", r.File, err)
		}
		fmt.Fprintf(out, "\n%d/%d %s: %s=%s\n", i+1, len(sess.Runs), r.Name, sess.Header, r.Variant)
		rc.Plan = p
		in, res, err := app.Execute(ctx, rc)
		if in == nil {
			return res, err
		}
		if err != nil {
			return res, err
		}
		if err := report.WriteBrief(out, in); err != nil {
			return res, err
		}
		runs = append(runs, in)
		last = res
		if ctx.Err() != nil {
			return app.RunResult{Dir: res.Dir, Status: app.StatusInterrupted, ExitCode: app.ExitRunFailed}, nil
		}
	}
	if len(runs) == 2 {
		writeBeforeAfter(out, sess, runs[0], runs[1])
	}
	// the session is a demonstration: the naive run is meant to fail its thresholds
	return app.RunResult{Dir: last.Dir, Status: last.Status, Passed: last.Passed, ExitCode: app.ExitOK}, nil
}

// succeeded is an endpoint's rate of requests that did not fail: the rate
// of all of them read the same before and after while half failed before.
func succeeded(f *report.Figures) float64 { return f.Throughput * (1 - f.ErrorRate) }

// writeBeforeAfter prints, per fixed endpoint, its figures in both runs.
func writeBeforeAfter(w io.Writer, sess demo.Session, before, after *report.Input) {
	fmt.Fprintln(w, "\nbefore → after")
	for _, f := range sess.Fixes {
		b, a := report.EndpointFigures(before, f.Scenario, f.Endpoint), report.EndpointFigures(after, f.Scenario, f.Endpoint)
		if b == nil || a == nil {
			continue
		}
		pairs := []string{"p95 " + units.Duration(b.P95) + " → " + units.Duration(a.P95),
			"errors " + units.Percent(b.ErrorRate) + " → " + units.Percent(a.ErrorRate),
			units.Rate(succeeded(b), "req") + " → " + units.Rate(succeeded(a), "req") + " succeeded"} // the demo shop speaks HTTP
		if b.Checks > 0 || a.Checks > 0 {
			pairs = append(pairs, "checks "+units.Percent(b.CheckRate)+" → "+units.Percent(a.CheckRate))
		}
		for i, p := range pairs { // a line breaks between the pairs, after their "·", never inside one
			pairs[i] = strings.ReplaceAll(p, " ", units.Keep)
		}
		head := fmt.Sprintf("%s (case study %d): ", f.Title, f.CaseStudy)
		fmt.Fprint(w, units.Wrap(head+strings.Join(pairs, units.Keep+"· "), units.Columns, "  ", "    "))
		fmt.Fprint(w, units.Wrap(f.Naive, units.Columns, "      was: ", "           "))
		fmt.Fprint(w, units.Wrap(f.Improved, units.Columns, "      now: ", "           "))
	}
	bb, bn, bg := findingCounts(before)
	ab, an, ag := findingCounts(after)
	fmt.Fprintf(w, "\n  findings: bottlenecks %d → %d · notes %d → %d\n", bb, ab, bn, an)
	if bg+ag > 0 { // the host, not the shop: no fix of the code made or removed them
		fmt.Fprint(w, units.Wrap(fmt.Sprintf("about the generator's host, not counted above: %d → %d (this machine was busy; "+
			"the code's fixes neither caused nor cured them)", bg, ag), units.Columns, "  ", "    "))
	}
	fmt.Fprintf(w, "  reports: %s\n           %s\n", reportPath(before), reportPath(after))
}

// findingCounts counts a run's findings as the summary shows them:
// bottlenecks (warning and critical, what made the run unhealthy) and
// notes (info), so that an info finding printed above is not uncounted;
// and apart, those about the generator's host, which the shop's fixes
// cannot change (a busy host's finding must not read as a bottleneck fixed).
func findingCounts(in *report.Input) (bottlenecks, notes, generator int) {
	for _, f := range in.Findings {
		switch {
		case f.Kind == diagnose.KindGeneratorBound || f.Kind == diagnose.KindHostBusy:
			generator++
		case f.Severity == diagnose.Info:
			notes++
		default:
			bottlenecks++
		}
	}
	return bottlenecks, notes, generator
}

func reportPath(in *report.Input) string {
	return strings.TrimSuffix(in.Dir, "/") + "/" + app.ReportFile
}
