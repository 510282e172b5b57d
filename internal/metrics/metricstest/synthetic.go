// Package metricstest builds synthetic runs for tests of what reads runs:
// reports, stores, browsers. The traffic is deterministic.
package metricstest

import (
	"fmt"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// Layout returns one arrival-rate scenario with n endpoints, each with a
// status check.
func Layout(n int) sample.Layout {
	layout := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "browse", Model: "arrival-rate"}}}
	for i := range n {
		layout.Endpoints = append(layout.Endpoints, sample.EndpointInfo{Scenario: 0, Name: fmt.Sprintf("GET /api/v1/resource-%02d/{id}", i), Method: "GET"})
		layout.Checks = append(layout.Checks, sample.CheckInfo{Scenario: 0, Endpoint: int32(i), Name: "status is 200"})
	}
	return layout
}

// Seconds records secs seconds of traffic over the layout's endpoints —
// 50 requests a second each, with a spread of durations and a few failures
// with distinct messages — and hands each second's snapshot to fn.
func Seconds(layout sample.Layout, secs int, fn func(*metrics.Snapshot)) {
	rec := metrics.NewRecorder(layout, 1)
	for sec := range secs {
		sink := rec.Sink(sec)
		for ep := range layout.Endpoints {
			for k := range 50 {
				at := time.Duration(sec)*time.Second + time.Duration(k)*20*time.Millisecond
				d := time.Duration(1+(k*k*(ep+1)+sec)%400) * time.Millisecond / 4
				req := sample.Request{Endpoint: int32(ep), End: at, Duration: d, Waiting: d / 2, Sent: 200, Received: 2000, Status: 200}
				if (sec+k+ep)%97 == 0 {
					req.Status, req.Kind, req.Err = 503, sample.HTTP5xx, fmt.Sprintf("503 Service Unavailable (upstream %d)", k%7)
				}
				sink.Request(&req)
				sink.Check(int32(ep), at, req.Status == 200)
				sink.Offered(0, at, 1) // each request is an arrival the schedule offered
				sink.Iteration(0, at, d)
				sink.Lag(0, at, time.Duration(k)*time.Microsecond)
			}
		}
		snap := rec.Collect(sec)
		snap.SetGauges([]sample.Gauge{{Active: 40, Allocated: 60}})
		fn(snap)
	}
}
