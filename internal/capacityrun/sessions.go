package capacityrun

import (
	"fmt"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/units"
)

// latencyNote names the metric the steps' p95 are of, for the search's
// first line, when it is not every request's duration.
func latencyNote(metric string) string {
	if metric == "" || metric == "http_req_duration" {
		return ""
	}
	return "; latency: " + metric
}

// planUnit is what the test's steps count (units.ForProtocols): gRPC
// calls, sessions, requests, or operations when the test mixes them.
func planUnit(p *plan.Plan) units.Unit {
	var protocols []string
	for _, sc := range p.Scenarios {
		plan.Walk(sc.Flow, func(st *plan.Step) {
			switch st.Kind {
			case plan.RequestStep:
				protocols = append(protocols, "")
			case plan.SessionStep:
				protocols = append(protocols, st.Session.Protocol)
			}
		})
	}
	return units.ForProtocols(protocols)
}

// observeLatency reads a step's p95, p99 and mean of a latency metric
// (grpc_req_duration, ws_reply_time …) as its thresholds read it; zero
// for a figure it has no data for.
func observeLatency(run *metrics.Run, metric string) (p95, p99, mean time.Duration) {
	read := func(agg threshold.AggKind, p float64) time.Duration {
		t := threshold.Threshold{Metric: metric, Agg: agg, P: p}
		v, ok := run.Observe(&t)
		if !ok {
			return 0
		}
		return time.Duration(v * float64(time.Millisecond))
	}
	return read(threshold.Percentile, 95), read(threshold.Percentile, 99), read(threshold.Avg, 0)
}

// checkSessions refuses what a search cannot judge in a test of session
// steps: a session the test holds open longer than a step's hold ends
// after it, so its messages, replies and length would count in no step;
// and an SLO whose latency is http_req_duration where no HTTP request is
// made and a WebSocket or SSE session's length stands in for it, which
// the test's duration:, not the load, decides.
func checkSessions(p *plan.Plan, hold time.Duration) error {
	requests, held := false, ""
	var open *plan.Session
	for _, sc := range p.Scenarios {
		plan.Walk(sc.Flow, func(st *plan.Step) {
			switch {
			case st.Kind == plan.RequestStep:
				requests = true
			case st.Kind != plan.SessionStep:
			case st.Session.GRPC == nil && open == nil:
				open = st.Session
				fallthrough
			default:
				s := st.Session
				if held == "" && hold > 0 && s.Duration >= hold && s.Until == nil && s.MaxMessages == 0 && s.GRPC == nil {
					held = fmt.Sprintf("scenario %s's %s: step (%s) stays open %s (duration:), as long as a step's hold of %s or longer: its sessions would end after the step, so their messages and replies would count in none; hold each step longer (--hold %s) or end the sessions sooner (until:, max_messages)",
						sc.Name, s.Protocol, p.Layout.Endpoints[s.Endpoint].Name, units.DurationLiteral(s.Duration), units.DurationLiteral(hold), units.DurationLiteral(2*s.Duration))
				}
			}
		})
	}
	if held != "" {
		return fmt.Errorf("capacity: %s", held)
	}
	if requests || open == nil || threshold.LatencyMetric(p.Thresholds) != "http_req_duration" {
		return nil
	}
	own := open.Protocol + "_time_to_first_msg"
	if open.Until != nil {
		own = open.Protocol + "_reply_time"
	}
	return fmt.Errorf("capacity: %w", p.ThresholdsError(fmt.Sprintf(
		"http_req_duration is the SLO's latency, but the test makes no HTTP request: it would judge how long its %s: sessions stay open, which the test decides, not the load; judge the protocol's own latency, e.g. %s: [\"p(95) < 200ms\"] (docs/capacity.md, \"Session protocols\")",
		open.Protocol, own)))
}
