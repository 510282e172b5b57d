package report

import (
	"bytes"
	"encoding/json"
	"math"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/threshold"
)

// SummaryJSON renders summary.json: the layout of k6's --summary-export
// file (metrics keyed by k6's names, times in milliseconds, threshold
// results as {"expr": failed}), so scripts written for k6 read it
// unchanged, with loadlens's own figures beside them under "loadlens".
func SummaryJSON(in *Input) ([]byte, error) {
	r := in.Run
	tot := r.Total()
	secs := max(r.Elapsed().Seconds(), 1e-9)
	m := map[string]map[string]any{}
	counter := func(name string, n int64) { m[name] = map[string]any{"count": n, "rate": float64(n) / secs} }

	counter("http_reqs", tot.Requests)
	reqDuration, reqWaiting := tot.Duration, tot.Waiting
	if r.LatencyOf() != "requests" { // a gRPC-only run's merged latency is its calls' (grpc_req_duration), never an HTTP request's
		reqDuration, reqWaiting = nil, nil
	}
	m["http_req_duration"] = trend(reqDuration)
	m["http_req_waiting"] = trend(reqWaiting)
	m["http_req_connecting"] = phaseStats(tot.ConnectSum, tot.Connects, tot.ConnectMax)
	m["http_req_tls_handshaking"] = phaseStats(tot.TLSSum, tot.TLSHandshakes, tot.TLSMax)
	nf := failed(&tot)
	m["http_req_failed"] = map[string]any{"value": nanZero(ratio(nf, tot.Requests)), "passes": nf, "fails": tot.Requests - nf}
	counter("data_sent", tot.Sent)
	counter("data_received", tot.Received)

	iterationMetrics(m, r, counter)
	if m["iterations_not_sent"] == nil && in.names("iterations_not_sent") {
		counter("iterations_not_sent", 0) // a threshold on it judged none: its count is 0, not absent
	}
	checks := checkMetrics(m, r)
	factMetrics(m, r, counter)
	customJSON(m, r, secs)
	thresholdMetrics(m, in)

	out := map[string]any{
		"metrics":    m,
		"root_group": map[string]any{"name": "", "path": "", "id": "d41d8cd98f00b204e9800998ecf8427e", "groups": map[string]any{}, "checks": checks},
		"state":      map[string]any{"testRunDurationMs": ms(r.Elapsed())},
		"loadlens":   own(in),
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the file is read by people and scripts, not embedded in HTML
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// iterationMetrics adds the iterations' and VUs' metrics to m.
func iterationMetrics(m map[string]map[string]any, r *metrics.Run, counter func(string, int64)) {
	var iters, dropped, notSent, allocated int64
	iterDur := metrics.NewHist()
	for i, s := range r.Scenarios {
		iters += s.Iterations
		dropped += s.Dropped
		notSent += s.NotSent
		allocated += s.VUsMaxAllocated
		if s.IterationDuration != nil {
			iterDur.Merge(r.Scenarios[i].IterationDuration)
		}
	}
	counter("iterations", iters)
	counter("dropped_iterations", dropped)
	if notSent > 0 { // loadlens's own: k6 logs such an iteration's exception and counts nothing
		counter("iterations_not_sent", notSent)
	}
	m["iteration_duration"] = trend(iterDur)
	if h := allGroups(r); h != nil {
		m["group_duration"] = trend(h)
	}
	vusLast, vusMin, vusMax := r.VUs() // over the seconds the VUs ran (docs/figures.md)
	m["vus"] = map[string]any{"value": vusLast, "min": vusMin, "max": vusMax}
	m["vus_max"] = map[string]any{"value": allocated, "min": allocated, "max": allocated}
}

// checkMetrics adds the checks' pass rate to m and returns each check's
// passes and fails by name, for the root group.
func checkMetrics(m map[string]map[string]any, r *metrics.Run) map[string]any {
	var passes, fails int64
	checks := map[string]any{}
	for i, c := range r.Checks {
		passes += c.Passes
		fails += c.Fails
		name := r.Layout.Checks[i].Name
		prev, _ := checks[name].(map[string]any)
		if prev == nil {
			prev = map[string]any{"name": name, "path": "::" + name, "id": name, "passes": int64(0), "fails": int64(0)}
			checks[name] = prev
		}
		prev["passes"] = prev["passes"].(int64) + c.Passes
		prev["fails"] = prev["fails"].(int64) + c.Fails
	}
	m["checks"] = map[string]any{"value": nanZero(ratio(passes, passes+fails)), "passes": passes, "fails": fails}
	return checks
}

// thresholdMetrics adds each threshold's result to its metric in m.
func thresholdMetrics(m map[string]map[string]any, in *Input) {
	r := in.Run
	// thresholds sit on their metric; a filtered one gets its own submetric entry, as in k6
	for i, res := range in.Results {
		t := &in.Thresholds[i]
		key := t.Metric
		if len(t.Filter) > 0 {
			key = res.Key
			if m[key] == nil {
				m[key] = submetric(r, t)
			}
		}
		if m[key] == nil {
			m[key] = map[string]any{}
		}
		th, _ := m[key]["thresholds"].(map[string]bool)
		if th == nil {
			th = map[string]bool{}
			m[key]["thresholds"] = th
		}
		th[res.Expr] = !res.Pass // k6's legacy export: true means the threshold failed
	}
}

// trend renders a duration histogram as k6 renders a Trend, in milliseconds.
func trend(h *metrics.Hist) map[string]any {
	if h == nil || h.Count() == 0 {
		return map[string]any{"avg": 0, "min": 0, "med": 0, "max": 0, "p(90)": 0, "p(95)": 0, "p(99)": 0, "count": 0}
	}
	return map[string]any{
		"avg": ms(h.Mean()), "min": ms(h.Min()), "med": ms(h.Quantile(50)), "max": ms(h.Max()),
		"p(90)": ms(h.Quantile(90)), "p(95)": ms(h.Quantile(95)), "p(99)": ms(h.Quantile(99)), "count": h.Count(),
	}
}

func phaseStats(sum time.Duration, n int64, mx time.Duration) map[string]any {
	if n == 0 {
		return map[string]any{"avg": 0, "max": 0, "count": 0}
	}
	return map[string]any{"avg": ms(sum) / float64(n), "max": ms(mx), "count": n}
}

// submetric computes the figures of a filtered threshold's selection.
func submetric(r *metrics.Run, t *threshold.Threshold) map[string]any {
	out := map[string]any{}
	probe := *t
	kind := t.MetricKind()
	var aggs []threshold.AggKind
	switch kind {
	case threshold.Trend:
		aggs = []threshold.AggKind{threshold.Avg, threshold.Min, threshold.Med, threshold.Max}
		for _, p := range []float64{90, 95, 99} {
			probe.Agg, probe.P = threshold.Percentile, p
			if v, ok := r.Observe(&probe); ok {
				out[probe.AggName()] = v
			}
		}
	case threshold.RateKind:
		aggs = []threshold.AggKind{threshold.Rate}
	case threshold.Counter:
		aggs = []threshold.AggKind{threshold.Count, threshold.Rate}
	default:
		aggs = []threshold.AggKind{threshold.Value, threshold.Min, threshold.Max}
	}
	for _, a := range aggs {
		probe.Agg = a
		if v, ok := r.Observe(&probe); ok {
			name := probe.AggName()
			if kind == threshold.RateKind {
				name = "value"
			}
			out[name] = v
		}
	}
	return out
}

func nanZero(f float64) float64 {
	if math.IsNaN(f) {
		return 0
	}
	return f
}
