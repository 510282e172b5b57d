package output

import (
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// builder turns a run's snapshots into frames, keeping the cumulative
// counters between them. It is used by one goroutine, the collector's.
type builder struct {
	layout    sample.Layout
	start     time.Time
	now       func() time.Time
	endpoints []Totals
	natives   []nativeAcc
	iters     []int64
	dropped   []int64
	notSent   []int64
}

func newBuilder(layout sample.Layout, start time.Time) *builder {
	return &builder{layout: layout, start: start, now: time.Now, endpoints: make([]Totals, len(layout.Endpoints)),
		natives: make([]nativeAcc, len(layout.Endpoints)), iters: make([]int64, len(layout.Scenarios)), dropped: make([]int64, len(layout.Scenarios)),
		notSent: make([]int64, len(layout.Scenarios))}
}

// frame returns the frame of one snapshot and adds it to the totals.
func (b *builder) frame(s *metrics.Snapshot) *Frame {
	// the last second of a run is collected when the run ends, before the
	// second does: its points are stamped then, never in the future, where
	// a query for "now" would not find them
	end := b.start.Add(time.Duration(s.Second+1) * time.Second)
	if now := b.now(); now.Before(end) {
		end = now
	}
	f := &Frame{Second: s.Second, Start: b.start, Time: end,
		Endpoints: make([]EndpointFrame, 0, len(s.Endpoints)), Scenarios: make([]ScenarioFrame, len(s.Scenarios))}
	for i := range s.Endpoints {
		e, info := &s.Endpoints[i], b.layout.Endpoints[i]
		ef := EndpointFrame{Scenario: b.layout.Scenarios[info.Scenario].Name, Endpoint: info.Name, Method: info.Method,
			Requests: e.Requests, Failures: e.Failures, Sent: e.Sent, Received: e.Received, Duration: trendOf(e.Duration), Waiting: trendOf(e.Waiting),
			Connect: phaseOf(e.ConnectSum, e.Connects, e.ConnectMax), TLS: phaseOf(e.TLSSum, e.TLSHandshakes, e.TLSMax)}
		var failed int64
		for k, n := range e.Failures {
			ef.ByStatus[statusOf(sample.Kind(k))] += n
			failed += n
		}
		ef.ByStatus[StatusOK] = e.Requests - failed
		t := &b.endpoints[i]
		t.Requests += e.Requests
		t.Sent += e.Sent
		t.Received += e.Received
		for c, n := range ef.ByStatus {
			t.ByStatus[c] += n
		}
		for k, n := range e.Failures {
			t.Failures[k] += n
		}
		acc := &b.natives[i]
		e.Duration.Buckets(acc.add)
		if c := e.Duration.Count(); c > 0 {
			acc.sum += e.Duration.Mean().Seconds() * float64(c)
		}
		ef.Total = *t
		ef.Total.Duration = acc.snapshot()
		f.Endpoints = append(f.Endpoints, ef)
	}
	for i := range s.Scenarios {
		sc := &s.Scenarios[i]
		b.iters[i] += sc.Iterations
		b.dropped[i] += sc.Dropped
		b.notSent[i] += sc.NotSent
		f.Scenarios[i] = ScenarioFrame{Scenario: b.layout.Scenarios[i].Name, Iterations: sc.Iterations, Dropped: sc.Dropped, NotSent: sc.NotSent,
			VUs: sc.VUs, VUsMax: sc.VUsMax, TotalIterations: b.iters[i], TotalDropped: b.dropped[i], TotalNotSent: b.notSent[i],
			IterationDuration: trendOf(sc.IterationDuration)}
	}
	f.Checks = b.checks(s)
	return f
}

// checks returns the second's checks, those of one name in one scenario
// added together, so that no two share a series.
func (b *builder) checks(s *metrics.Snapshot) []CheckFrame {
	var out []CheckFrame
	at := map[[2]string]int{}
	for i, c := range s.Checks {
		info := b.layout.Checks[i]
		key := [2]string{b.layout.Scenarios[info.Scenario].Name, info.Name}
		j, ok := at[key]
		if !ok {
			j = len(out)
			at[key] = j
			out = append(out, CheckFrame{Scenario: key[0], Check: key[1]})
		}
		out[j].Passes += c.Passes
		out[j].Fails += c.Fails
	}
	return out
}

// phaseOf is a phase's mean and maximum from its sum and count.
func phaseOf(sum time.Duration, n int64, mx time.Duration) Phase {
	if n == 0 {
		return Phase{}
	}
	return Phase{Count: n, Avg: sum / time.Duration(n), Max: mx}
}

// trendOf summarizes a second's histogram; nil or empty gives a zero Trend.
func trendOf(h *metrics.Hist) Trend {
	if h == nil || h.Count() == 0 {
		return Trend{}
	}
	return Trend{Count: h.Count(), Min: h.Min(), Max: h.Max(), Avg: h.Mean(), Med: h.Quantile(50),
		P90: h.Quantile(90), P95: h.Quantile(95), P99: h.Quantile(99)}
}
