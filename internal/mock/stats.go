package mock

import (
	"net/http"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/loadlens/loadlens/internal/proc"
	"github.com/loadlens/loadlens/internal/promtext"
)

// bucketBounds are the histograms' upper bounds in seconds: client_golang's
// defaults with finer steps below 5 ms, where a fast mock answers.
var bucketBounds = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// histogram counts durations into bucketBounds, lock-free.
type histogram struct {
	counts [17]atomic.Uint64 // per bucket, not cumulative; the last is above every bound
	nanos  atomic.Uint64
}

func (h *histogram) observe(d time.Duration) {
	s := d.Seconds()
	i := 0
	for i < len(bucketBounds) && s > bucketBounds[i] {
		i++
	}
	h.counts[i].Add(1)
	h.nanos.Add(uint64(max(d, 0)))
}

// write writes the histogram's series.
func (h *histogram) write(e *promtext.Writer, name string, labels ...string) {
	cum := make([]uint64, len(bucketBounds))
	var n uint64
	for i := range bucketBounds {
		n += h.counts[i].Load()
		cum[i] = n
	}
	n += h.counts[len(bucketBounds)].Load()
	e.Histogram(name, bucketBounds, cum, time.Duration(h.nanos.Load()).Seconds(), n, labels...)
}

// routeStats is one route's counters.
type routeStats struct {
	byStatus [600]atomic.Uint64 // requests by status answered
	resets   atomic.Uint64      // injected connection resets
	faults   atomic.Uint64      // injected error statuses
	duration histogram          // from the request's arrival to the end of the answer
	delay    histogram          // injected latency
}

// record counts one answered request.
func (s *routeStats) record(status int, d time.Duration) {
	if status < 100 || status > 599 {
		status = 599
	}
	s.byStatus[status].Add(1)
	s.duration.observe(d)
}

// serverStats is what the mock counts beyond routes.
type serverStats struct {
	unmatched atomic.Uint64
	inFlight  atomic.Int64
	start     time.Time
}

// metrics writes the mock's Prometheus exposition.
func (h *handler) metrics(w http.ResponseWriter) {
	e := promtext.NewWriter(8 << 10)
	e.Family("mock_requests_total", "counter", "Requests answered, by route and status (injected errors included; connection resets are status 0 in mock_injected_errors_total only).")
	for _, r := range h.cfg.Routes {
		for st := range r.stats.byStatus {
			if n := r.stats.byStatus[st].Load(); n > 0 {
				e.Sample("mock_requests_total", float64(n), "route", r.Name, "status", strconv.Itoa(st))
			}
		}
	}
	e.Family("mock_request_duration_seconds", "histogram", "Time from a request's arrival to the end of its answer, injected latency and bandwidth limits included.")
	for _, r := range h.cfg.Routes {
		r.stats.duration.write(e, "mock_request_duration_seconds", "route", r.Name)
	}
	e.Family("mock_injected_latency_seconds", "histogram", "Latency the mock added before answering, as drawn from the route's distribution.")
	for _, r := range h.cfg.Routes {
		r.stats.delay.write(e, "mock_injected_latency_seconds", "route", r.Name)
	}
	e.Family("mock_injected_errors_total", "counter", "Errors the mock injected, by route and kind (status or reset).")
	for _, r := range h.cfg.Routes {
		e.Sample("mock_injected_errors_total", float64(r.stats.faults.Load()), "route", r.Name, "kind", "status")
		e.Sample("mock_injected_errors_total", float64(r.stats.resets.Load()), "route", r.Name, "kind", "reset")
	}
	e.Single("mock_unmatched_requests_total", "counter", "Requests no route matched, answered 404.", float64(h.stats.unmatched.Load()))
	e.Single("mock_in_flight_requests", "gauge", "Requests being answered now.", float64(h.stats.inFlight.Load()))
	if cpu, ok := proc.CPU(); ok {
		e.Single("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.", cpu.Seconds())
	}
	e.Single("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.", float64(h.stats.start.UnixNano())/1e9)
	e.Single("go_goroutines", "gauge", "Number of goroutines that currently exist.", float64(runtime.NumGoroutine()))
	w.Header().Set("Content-Type", promtext.ContentType)
	w.Write(e.Bytes())
}
