package diagnose

import (
	"cmp"
	"slices"
	"strings"

	"github.com/loadlens/loadlens/internal/series"
)

// pgxInUse is the suffix of a pgxpool collector's connections in use:
// pgxpool_acquired_conns (github.com/IBM/pgxpoolprometheus), or a
// hand-written collector's under a prefix of its own; its siblings carry
// the same prefix.
const pgxInUse = "acquired_conns"

// pgxWaits are the suffixes collectors give pgxpool's EmptyAcquireCount,
// the acquires that waited because every connection was in use, counted
// as each ends.
var pgxWaits = []string{"empty_acquire", "empty_acquire_count", "empty_acquire_total", "empty_acquire_count_total"}

// pgxPools reads every pgxpool pool in the series. Its acquire time
// (AcquireDuration, in nanoseconds) counts every acquire, those that found
// an idle connection too, so it shows waits only when it is a material
// share of the response time.
func (c *context) pgxPools() []pool {
	var out []pool
	for _, inUse := range c.set {
		prefix, ok := strings.CutSuffix(inUse.Name, pgxInUse)
		if !ok {
			continue
		}
		p := pool{lib: "pgxpool", anchor: inUse, inUse: inUse, limit: sibling(c.set, prefix+"max_conns", inUse),
			waited: sibling(c.set, prefix+"acquire_duration_ns", inUse), waitedPer: 1e-9, acquires: true,
			timeouts: sibling(c.set, prefix+"canceled_acquire_count", inUse)}
		for _, w := range pgxWaits {
			if p.waits == nil {
				p.waits = sibling(c.set, prefix+w, inUse)
			}
		}
		if p.limit == nil || (p.waits == nil && p.waited == nil) {
			continue
		}
		p.full = atLimit(p.limit)
		out = append(out, p)
	}
	return out
}

// otelFamily is one generation of OpenTelemetry's db.client connection
// metrics as a Prometheus exporter names them: the connections by state,
// the pool's maximum, a gauge of requests waiting, and the time to obtain
// a connection (a histogram's _sum, in its unit) recorded for every
// connection obtained, whether it waited or not.
type otelFamily struct {
	usage, max, pending string
	timeouts            []string
	waitTime            []otelWait
}

// otelWait is a wait-time histogram's _sum and the seconds of its unit.
type otelWait struct {
	sum string
	per float64
}

// otelStates are the labels naming a connection's state: the older
// semantic conventions' state, the newer db.client.connection.state.
var otelStates = []string{"state", "db_client_connection_state"}

// otelConnCount is the newer conventions' connections by state: a gauge.
const otelConnCount = "db_client_connection_count"

// otelFamilies are the older conventions (OTel Java agent, otelsql), whose
// wait time is in milliseconds, and the newer, in seconds.
var otelFamilies = []otelFamily{
	{usage: "db_client_connections_usage", max: "db_client_connections_max", pending: "db_client_connections_pending_requests",
		timeouts: []string{"db_client_connections_timeouts_total", "db_client_connections_timeouts"},
		waitTime: []otelWait{{"db_client_connections_wait_time_milliseconds_sum", 1e-3}, {"db_client_connections_wait_time_sum", 1e-3},
			{"db_client_connections_wait_time_seconds_sum", 1}}},
	{usage: otelConnCount, max: "db_client_connection_max", pending: "db_client_connection_pending_requests",
		timeouts: []string{"db_client_connection_timeouts_total", "db_client_connection_timeouts"},
		waitTime: []otelWait{{"db_client_connection_wait_time_seconds_sum", 1}, {"db_client_connection_wait_time_sum", 1},
			{"db_client_connection_wait_time_milliseconds_sum", 1e-3}}},
}

// otelPools reads every pool of OpenTelemetry's db.client metrics: its
// used connections against its maximum.
func (c *context) otelPools() []pool {
	var out []pool
	for _, fam := range otelFamilies {
		for _, used := range c.set {
			if used.Name != fam.usage || !slices.ContainsFunc(otelStates, func(l string) bool { return used.Label(l) == "used" }) {
				continue
			}
			p := pool{lib: "OpenTelemetry db.client", anchor: used, inUse: used, limit: stateSibling(c.set, fam.max, used),
				pending: stateSibling(c.set, fam.pending, used), acquires: true, hidden: otelStates}
			for _, t := range fam.timeouts {
				p.timeouts = cmp.Or(p.timeouts, stateSibling(c.set, t, used))
			}
			for _, w := range fam.waitTime {
				if s := stateSibling(c.set, w.sum, used); s != nil && p.waited == nil {
					p.waited, p.waitedPer = s, w.per
				}
			}
			if p.limit == nil || (p.pending == nil && p.waited == nil) {
				continue
			}
			p.full = atLimit(p.limit)
			out = append(out, p)
		}
	}
	return out
}

// stateSibling is sibling with the state label left out: the pool's other
// series have none.
func stateSibling(set series.Set, name string, s *series.Series) *series.Series {
	return siblingBut(set, name, s, otelStates)
}

// atLimit is a pool's fullness against its maximum: every connection in
// use, a maximum of 0 being none known.
func atLimit(limit *series.Series) func(c *context, sec int, v float64) bool {
	return func(_ *context, sec int, v float64) bool {
		lim, ok := valueAt(limit.Points, sec)
		return ok && lim > 0 && v >= lim
	}
}

// waitedSource is the source of a pool's wait time in seconds per second:
// its series as stored, or seconds(KEY) for one counted in another unit.
func (c *context) waitedSource(p pool) string {
	src := c.ofSeries(p.waited)
	if p.waitedPer == 0 || p.waitedPer == 1 {
		return src
	}
	out := "seconds(" + p.waited.Key() + ")"
	if _, ok := c.vals[out]; !ok {
		var pts []series.Point
		for _, pt := range c.values(src) {
			pts = append(pts, series.Point{Sec: pt.Sec, Value: pt.Value * p.waitedPer})
		}
		c.define(out, pts)
	}
	return out
}
