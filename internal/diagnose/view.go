package diagnose

import (
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/series"
)

// context is the input prepared once for every rule.
type context struct {
	run    *metrics.Run
	set    series.Set
	secs   []clientSecond // the client view, from the first to the last second with requests
	open   bool           // some scenario is arrival-rate: load is the offered rate
	closed bool           // every scenario is vus or iterations, at least one vus
}

// clientSecond is one second of the client view in the units rules reason
// in: counts per second and durations in seconds.
type clientSecond struct {
	sec      int
	x        float64 // requests completed: throughput in req/s
	failed   float64
	n        float64 // active VUs: concurrency (busy VUs in the open model)
	r        float64 // mean request duration
	p50, p95 float64
	load     float64 // offered req/s when open, else active VUs
	dropped  float64
	started  float64 // iterations offered: completed + dropped + growth of the busy VUs
	lag      float64 // scheduler lag p99
	m        *metrics.Second
}

// newContext prepares the client view of in.
func newContext(in Input) *context {
	c := &context{run: in.Run, set: in.Series}
	if in.Run == nil {
		return c
	}
	models := in.Models
	if len(models) != len(in.Run.Layout.Scenarios) {
		models = models[:0:0]
		for _, s := range in.Run.Layout.Scenarios {
			models = append(models, s.Model)
		}
	}
	vus := false
	c.closed = len(models) > 0
	for _, m := range models {
		c.open = c.open || m == modelArrivalRate
		c.closed = c.closed && (m == modelVUs || m == modelIterations)
		vus = vus || m == modelVUs
	}
	c.closed = c.closed && vus

	var requests, iterations int64
	for _, s := range in.Run.Series {
		requests += s.Requests
		iterations += s.Iterations
	}
	perIteration := 1.0
	if iterations > 0 && requests > 0 {
		perIteration = float64(requests) / float64(iterations)
	}
	all := make([]clientSecond, len(in.Run.Series))
	var prevVUs int64
	for i := range in.Run.Series {
		s := &in.Run.Series[i]
		started := max(float64(s.Iterations+s.Dropped+s.VUs-prevVUs), 0)
		prevVUs = s.VUs
		cs := clientSecond{sec: s.Sec, x: float64(s.Requests), failed: float64(s.Failed), n: float64(s.VUs),
			r: secs(s.Mean), p50: secs(s.P50), p95: secs(s.P95), dropped: float64(s.Dropped),
			started: started, lag: secs(s.LagP99), m: s}
		cs.load = cs.n
		if c.open {
			cs.load = started * perIteration
		}
		all[i] = cs
	}
	first, last := 0, len(all)-1
	for first <= last && all[first].x == 0 {
		first++
	}
	for last >= first && all[last].x == 0 {
		last--
	}
	c.secs = all[first : last+1]
	return c
}

// secs converts a duration to float seconds.
func secs(d time.Duration) float64 { return d.Seconds() }

// column returns one figure of every second of the client view.
func (c *context) column(f func(*clientSecond) float64) []float64 {
	out := make([]float64, len(c.secs))
	for i := range c.secs {
		out[i] = f(&c.secs[i])
	}
	return out
}

// loadUnit names what the load axis counts.
func (c *context) loadUnit() string {
	if c.open {
		return "req/s offered"
	}
	return "VUs"
}
