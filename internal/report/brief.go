package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// Figures are one endpoint's headline figures in a run.
type Figures struct {
	Requests   int64
	Throughput float64 // requests per second of the seconds it was active (see metrics.Run.Active)
	P95        time.Duration
	ErrorRate  float64
	Checks     int64   // check evaluations on the endpoint's responses
	CheckRate  float64 // their pass rate
}

// EndpointFigures returns the figures of the endpoint named endpoint in the
// scenario named scenario, or nil when the run has no such endpoint.
func EndpointFigures(in *Input, scenario, endpoint string) *Figures {
	l := in.Run.Layout
	for i, ep := range l.Endpoints {
		if ep.Name != endpoint || l.Scenarios[ep.Scenario].Name != scenario {
			continue
		}
		e := &in.Run.Endpoints[i]
		st := newEndpointStats(in.Run, ep.Name, e)
		f := &Figures{Requests: e.Requests, Throughput: st.Rate, ErrorRate: nanZero(ratio(failed(e), e.Requests))}
		if e.Duration != nil && e.Duration.Count() > 0 {
			f.P95 = e.Duration.Quantile(95)
		}
		var pass int64
		for c, info := range l.Checks {
			if int(info.Endpoint) == i {
				pass += in.Run.Checks[c].Passes
				f.Checks += in.Run.Checks[c].Passes + in.Run.Checks[c].Fails
			}
		}
		f.CheckRate = nanZero(ratio(pass, f.Checks))
		return f
	}
	return nil
}

// WriteBrief writes a run in a few lines: the verdict and headline
// figures, the findings' titles (or the healthy statement), and where the
// report is. It is for commands that run several tests in a row.
func WriteBrief(w io.Writer, in *Input) error {
	var sb strings.Builder
	tot := in.Run.Total()
	p95 := time.Duration(0)
	if tot.Duration != nil && tot.Duration.Count() > 0 {
		p95 = tot.Duration.Quantile(95)
	}
	fmt.Fprintf(&sb, "  %s · %s · %sp95 %s · %s failed · %s\n", Verdict(in), withRate(runUnit(in.Run).Count(tot.Requests), runRate(in.Run))+unitSplit(in.Run, ": ", ""),
		callPrefix(in.Run), latencyText(in.Run, p95), units.Percent(nanZero(ratio(failed(&tot), tot.Requests))), in.Status)
	for i, res := range in.Results {
		if !res.Pass {
			sb.WriteString(wrap(res.Key+" "+res.Expr+": "+Observed(&in.Thresholds[i], res), units.Columns, "    ✗ ", "      "))
		}
	}
	for _, a := range Accounting(in) {
		sb.WriteString(wrap(a, units.Columns, "    ! ", "      "))
	}
	for i := range in.Findings {
		f := &in.Findings[i]
		sb.WriteString(wrap(strings.ToUpper(f.Severity.String())+": "+FindingTitle(f), units.Columns, "    ", "      "))
	}
	if len(in.Findings) == 0 && in.Healthy != nil {
		sb.WriteString(wrap(HealthyText(in.Healthy), units.Columns, "    ", "      "))
	}
	if in.Traces != nil {
		for i := range in.Traces.Breakdowns {
			b := &in.Traces.Breakdowns[i]
			sb.WriteString(wrap("≥ p95 of "+endpointLabel(in.Run, int(b.Endpoint))+": "+groupLine(&b.Tail, 3), units.Columns, "    ", "      "))
		}
	}
	if in.Dir != "" {
		fmt.Fprintf(&sb, "    report: %s/report.html\n", strings.TrimSuffix(in.Dir, "/"))
	}
	_, err := io.WriteString(w, sb.String())
	return err
}
