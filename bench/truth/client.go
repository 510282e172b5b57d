package main

import (
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"sort"
	"sync"
	"time"
)

// maxInFlight bounds the harness's own client: an arrival that finds this
// many requests in flight is dropped and counted as failed.
const maxInFlight = 4000

// ClientResult is what the harness's own open-model client measured of
// one constant-rate step.
type ClientResult struct {
	Rate              float64 // iterations (requests) per second asked for
	Sent, OK, Failed  int64   // failed: a status ≥ 400, a transport error or a timeout
	Dropped           int64   // arrivals that found maxInFlight requests in flight
	P50, P95, P99     time.Duration
	Statuses          map[int]int64 // what the client saw, by status; 0 for a transport error
	LateP99           time.Duration // how late the client started requests, 99th percentile
	Elapsed           time.Duration // from the first intended start to the last answer
	TransportFailures int64
	ByRoute           map[string]RouteResult // per endpoint, to see which one a failing step failed on
}

// RouteResult is one endpoint's share of a step.
type RouteResult struct {
	Sent, Failed int64
	P50, P95     time.Duration
}

// Client is the harness's own load generator: net/http, a constant
// arrival rate, each request timed from its intended start (so its own
// lateness is never hidden), every duration kept for an exact p95.
type Client struct {
	hc   *http.Client
	base string
}

// NewClient makes a client of base with a request timeout.
func NewClient(base string, timeout time.Duration) *Client {
	tr := &http.Transport{MaxIdleConns: maxInFlight, MaxIdleConnsPerHost: maxInFlight, IdleConnTimeout: 30 * time.Second,
		DisableCompression: true}
	return &Client{hc: &http.Client{Timeout: timeout, Transport: tr}, base: base}
}

// Close closes its idle connections.
func (c *Client) Close() { c.hc.CloseIdleConnections() }

// outcome is one request's end.
type outcome struct {
	d      time.Duration
	status int // 0: transport error
	route  string
}

// Step sends rate requests per second for hold, picking each request's
// scenario by share, and waits for every answer.
func (c *Client) Step(ctx context.Context, scs []Scenario, rate float64, hold time.Duration, seed uint64) ClientResult {
	n := int(rate*hold.Seconds() + 0.5)
	res := ClientResult{Rate: rate, Statuses: map[int]int64{}}
	outs := make([]outcome, 0, n)
	lates := make([]time.Duration, 0, n)
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, maxInFlight)
	rng := rand.New(rand.NewPCG(seed, 0x7275746800))
	pick := newPicker(scs)
	t0 := time.Now().Add(20 * time.Millisecond)
	for i := 0; i < n && ctx.Err() == nil; i++ {
		at := t0.Add(time.Duration(float64(i) / rate * float64(time.Second)))
		if d := time.Until(at); d > 0 {
			time.Sleep(d)
		}
		lates = append(lates, time.Since(at))
		select {
		case sem <- struct{}{}:
		default:
			res.Dropped++
			continue
		}
		e := scs[pick.next()].Endpoint
		path := e.Gen(rng)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			st := c.do(ctx, e, path)
			o := outcome{d: time.Since(at), status: st, route: e.Route}
			mu.Lock()
			outs = append(outs, o)
			mu.Unlock()
		}()
	}
	wg.Wait()
	res.Elapsed = time.Since(t0)
	res.summarize(outs, lates)
	return res
}

// do sends one request and reads its whole answer; 0 is a transport error.
func (c *Client) do(ctx context.Context, e Endpoint, path string) int {
	req, err := http.NewRequestWithContext(ctx, e.Method, c.base+path, nil)
	if err != nil {
		return 0
	}
	for k, v := range e.Headers {
		req.Header.Set(k, v)
	}
	r, err := c.hc.Do(req)
	if err != nil {
		return 0
	}
	_, err = io.Copy(io.Discard, r.Body)
	r.Body.Close()
	if err != nil {
		return 0
	}
	return r.StatusCode
}

func (res *ClientResult) summarize(outs []outcome, lates []time.Duration) {
	ds := make([]time.Duration, len(outs))
	for i, o := range outs {
		ds[i] = o.d
		res.Statuses[o.status]++
		switch {
		case o.status == 0:
			res.Failed++
			res.TransportFailures++
		case o.status >= 400:
			res.Failed++
		default:
			res.OK++
		}
	}
	res.Sent = int64(len(outs))
	res.Failed += res.Dropped
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	res.P50, res.P95, res.P99 = quantile(ds, 0.50), quantile(ds, 0.95), quantile(ds, 0.99)
	sort.Slice(lates, func(i, j int) bool { return lates[i] < lates[j] })
	res.LateP99 = quantile(lates, 0.99)
	res.byRoute(outs)
}

// byRoute splits the outcomes by endpoint.
func (res *ClientResult) byRoute(outs []outcome) {
	ds := map[string][]time.Duration{}
	res.ByRoute = map[string]RouteResult{}
	for _, o := range outs {
		ds[o.route] = append(ds[o.route], o.d)
		r := res.ByRoute[o.route]
		r.Sent++
		if o.status == 0 || o.status >= 400 {
			r.Failed++
		}
		res.ByRoute[o.route] = r
	}
	for route, d := range ds {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		r := res.ByRoute[route]
		r.P50, r.P95 = quantile(d, 0.5), quantile(d, 0.95)
		res.ByRoute[route] = r
	}
}

// quantile is the nearest-rank quantile of sorted ds (0 when empty).
func quantile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	k := int(p*float64(len(ds))+0.999999) - 1 // ceil(p·n) − 1
	return ds[max(0, min(k, len(ds)-1))]
}

// picker chooses scenarios by share, smoothly (weighted round robin): the
// mix holds in every second, not only on average.
type picker struct {
	shares, credit []float64
}

func newPicker(scs []Scenario) *picker {
	p := &picker{credit: make([]float64, len(scs))}
	for _, s := range scs {
		p.shares = append(p.shares, s.Share)
	}
	return p
}

func (p *picker) next() int {
	best := 0
	for i, s := range p.shares {
		p.credit[i] += s
		if p.credit[i] > p.credit[best] {
			best = i
		}
	}
	p.credit[best]--
	return best
}
