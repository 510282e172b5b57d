package estimate

import (
	"strings"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/threshold"
	"github.com/loadlens/loadlens/internal/units"
)

// A run's seconds are judged on its SLO's latency metric: a request's
// duration (http_req_duration, the run's own seconds), or a session
// protocol's own latency (grpc_req_duration, ws_reply_time,
// sse_time_to_first_msg), whose per-second figures MetricSecond reads from
// each stored second as the run's thresholds read the whole run, so that
// estimate knows no protocol.

// RequestDuration is the latency metric of HTTP requests, which the run's
// seconds (metrics.Second) hold.
const RequestDuration = "http_req_duration"

// Protocol is the session protocol a latency metric is of ("grpc" for
// grpc_req_duration), "" for http_req_duration.
func Protocol(metric string) string {
	if metric == RequestDuration || !threshold.IsLatency(metric) {
		return ""
	}
	p, _, _ := strings.Cut(metric, "_")
	return p
}

// MetricSecond is one stored second of run as an SLO on metric judges
// it: its samples and failures are those of the metric's protocol's
// endpoints (calls, sessions), and its latencies the metric's, read by
// metrics.Run.Observe over that second alone. run gives the layout.
func MetricSecond(run *metrics.Run, snap *metrics.Snapshot, metric string) metrics.Second {
	one := metrics.NewRun(run.Layout)
	one.Add(snap)
	sec := metrics.Second{Sec: snap.Second}
	proto := Protocol(metric)
	for i := range one.Endpoints {
		if i >= len(run.Layout.Endpoints) || run.Layout.Endpoints[i].Protocol != proto {
			continue
		}
		e := &one.Endpoints[i]
		sec.Requests += e.Requests
		for _, n := range e.Failures {
			sec.Failed += n
		}
	}
	read := func(agg threshold.AggKind, p float64) time.Duration {
		v, ok := one.Observe(&threshold.Threshold{Metric: metric, Agg: agg, P: p})
		if !ok {
			return 0
		}
		return time.Duration(v * float64(time.Millisecond))
	}
	sec.P50, sec.P90, sec.P95, sec.P99 = read(threshold.Percentile, 50), read(threshold.Percentile, 90), read(threshold.Percentile, 95), read(threshold.Percentile, 99)
	sec.Max, sec.Mean = read(threshold.Max, 0), read(threshold.Avg, 0)
	return sec
}

// LatencyOf is the metric a run's seconds are judged on: the latency its
// thresholds judge (threshold.LatencyMetric), else that of what the run
// measured: a request's duration when it sent HTTP requests, else its
// session protocol's own (grpc_req_duration; a WebSocket's reply time when
// its sessions awaited replies, else the time to the first message), never
// how long sessions stayed open, which the test decides.
func LatencyOf(run *metrics.Run, defs []threshold.Threshold) string {
	if m := threshold.LatencyMetric(defs); m != "" {
		return m
	}
	proto, replies := "", false
	for i, e := range run.Layout.Endpoints {
		if e.Protocol == "" {
			return RequestDuration
		}
		if proto == "" {
			proto = e.Protocol
		}
		if i < len(run.Endpoints) && e.Protocol == proto {
			if f := run.Endpoints[i].Facts; f != nil && f.Reply != nil && f.Reply.Count() > 0 {
				replies = true
			}
		}
	}
	switch {
	case proto == "":
		return RequestDuration
	case units.ForProtocol(proto) == units.Calls:
		return proto + "_req_duration"
	case replies:
		return proto + "_reply_time"
	}
	return proto + "_time_to_first_msg"
}
