package diagnose

import (
	"time"

	"testing"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
)

// The synthetic runs of the defects issue 10 and issue 9 reported, each
// built to show the defect if it came back.

// lockStep is 95 closed-model VUs that all wait on the same 2 s timeout:
// two good seconds, then every other second all 95 requests fail together
// and the seconds between complete nothing.
func lockStep(t *testing.T) Input {
	var secs []sec
	for s := range 12 {
		switch {
		case s < 2:
			secs = append(secs, sec{vus: 95, reqs: []reqs{{n: 95, dur: even(10*time.Millisecond, 0.3)}}})
		case s%2 == 0:
			secs = append(secs, sec{vus: 95, reqs: []reqs{{n: 95, dur: even(2*time.Second, 0.01), fail: 95, kind: sample.Timeout}}})
		default:
			secs = append(secs, sec{vus: 95})
		}
	}
	return Input{Run: build(t, layout(modelVUs, "POST /coupons/issue"), secs)}
}

// goSQLFullEarly is a database/sql pool of 10 full from 1 s while 300 VUs
// wait in lock-step: waits begin (the counter rises) only from 7 s, and
// the wait time, added as each wait ends, is 290 s a second (290 VUs
// waiting) and reaches 537 s in one.
func goSQLFullEarly(t *testing.T) Input {
	var inUse, waits, waited []float64
	count := 0.0
	for s := range 15 {
		inUse = append(inUse, map[bool]float64{true: 10, false: 3}[s >= 1])
		if s >= 7 {
			count += 40
		}
		waits = append(waits, count)
		switch {
		case s == 9:
			waited = append(waited, 537)
		case s >= 7:
			waited = append(waited, 290)
		default:
			waited = append(waited, 0)
		}
	}
	labels := []string{"db_name", "shop", "role", "app"}
	secs := steady(15, 150, 300, 2*time.Second)
	return Input{Run: build(t, layout(modelVUs, "POST /coupons/issue"), secs), Series: series.Set{
		mk("go_sql_in_use_connections", series.Gauge, pts(0, 1, inUse...), labels...),
		mk("go_sql_max_open_connections", series.Gauge, pts(0, 1, repeat(10, 15)...), labels...),
		mk("go_sql_wait_count_total", series.Gauge, pts(0, 1, waits...), labels...),
		mk("go_sql_wait_duration_seconds_total", series.Rate, pts(0, 1, waited...), labels...),
	}}
}

// hostSeries is the host's CPU beside loadlens's own, per second.
func hostSeries(n int, busy, steal, own float64) series.Set {
	labels := []string{"role", "generator", "target", "loadlens"}
	set := generatorSeries(repeat(own, n)...)
	return append(set, mk(HostCPU, series.Gauge, pts(0, 1, repeat(busy, n)...), labels...),
		mk(HostSteal, series.Gauge, pts(0, 1, repeat(steal, n)...), labels...),
		mk(HostCPUs, series.Gauge, pts(0, 1, repeat(2, n)...), labels...))
}

// busyHost lags 80 ms from 5 s to 15 s beside a 12 ms p95 while loadlens
// used 0.04 of 2 cores and the host's CPUs were busy or stolen as given.
func busyHost(busy, steal float64) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := steady(20, 100, 3, 10*time.Millisecond)
		for s := 5; s <= 15; s++ {
			secs[s].lag = 80 * time.Millisecond
		}
		return Input{Run: build(t, layout(modelArrivalRate, "GET /"), secs), Series: hostSeries(20, busy, steal, 0.04)}
	}
}

// partialEnd is a healthy open run of 10 whole seconds and a last second
// cut short at 0.3 s, in which few requests completed and the generator's
// CPU, measured over a sliver, read 1 core of 2.
func partialEnd(t *testing.T) Input {
	secs := steady(11, 100, 3, 10*time.Millisecond)
	secs[10].reqs[0].n = 30
	used := append(repeat(0.4, 10), 1)
	run := build(t, layout(modelArrivalRate, "GET /"), secs)
	run.SetElapsed(10300 * time.Millisecond)
	return Input{Run: run, Series: generatorSeries(used...)}
}

// closedEnd is 20 closed-model VUs at 200 req/s whose last, partial second
// completed 400 requests as the VUs stopped: the gauge reads 0 there.
func closedEnd(t *testing.T) Input {
	secs := steady(11, 200, 20, 100*time.Millisecond)
	secs[10] = sec{vus: 0, reqs: []reqs{{n: 400, dur: even(100*time.Millisecond, 0.3)}}}
	run := build(t, layout(modelVUs, "GET /products/{id}"), secs)
	run.SetElapsed(10400 * time.Millisecond)
	return Input{Run: run}
}

// twoHolds is case study 2 with a ramp between the holds: 1,000 VUs, then
// 2,000, at 8,000 req/s both times; inside the ramp one second reached
// 8,750 req/s, which matches neither hold.
func twoHolds(t *testing.T) Input {
	var secs []sec
	for s := range 35 {
		n := 1000 + 100*min(max(s-9, 0), 10)
		x := 8000
		if s == 14 {
			x = 8750
		}
		r := time.Duration(float64(n) / float64(x) * float64(time.Second))
		secs = append(secs, sec{vus: int64(n), reqs: []reqs{{n: x, dur: even(r, 0.3)}}})
	}
	return Input{Run: build(t, layout(modelVUs, "GET /products/{id}"), secs)}
}

// sameName has the endpoint GET /items/{id} in two scenarios; the admin
// scenario's has two latency modes.
func sameName(t *testing.T) Input {
	l := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "browse", Model: modelArrivalRate}, {Name: "admin", Model: modelArrivalRate}},
		Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "GET /items/{id}", Method: "GET"}, {Scenario: 1, Name: "GET /items/{id}", Method: "GET"}}}
	secs := make([]sec, 10)
	for i := range secs {
		secs[i] = sec{vus: 5, reqs: []reqs{{ep: 0, n: 200, dur: even(5*time.Millisecond, 0.4)},
			{ep: 1, n: 200, dur: twoPeaks(2*time.Millisecond, 48*time.Millisecond, 0.6)}}}
	}
	return Input{Run: build(t, l, secs)}
}

// soldOut is case study 5's coupon event: the users' 409 (sold out) answers
// count as failures from 3 s, and from 4 s the audit's check finds more
// coupons issued than the event has.
func soldOut(t *testing.T) Input {
	l := sample.Layout{Scenarios: []sample.ScenarioInfo{{Name: "users", Model: modelArrivalRate}, {Name: "audit", Model: modelArrivalRate}},
		Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "POST /coupons/issue", Method: "POST"}, {Scenario: 1, Name: "GET /coupons/stats", Method: "GET"}},
		Checks: []sample.CheckInfo{{Scenario: 0, Endpoint: 0, Name: "status in [201, 409]"},
			{Scenario: 1, Endpoint: 1, Name: "never more coupons than the event has"}}}
	var secs []sec
	for s := range 12 {
		sold := 0
		if s >= 3 {
			sold = 60
		}
		over := int64(0)
		if s >= 4 {
			over = 1
		}
		secs = append(secs, sec{vus: 3, reqs: []reqs{{ep: 0, n: 100, dur: even(5*time.Millisecond, 0.3), fail: sold, kind: sample.HTTP4xx},
			{ep: 1, n: 1, dur: even(3*time.Millisecond, 0)}}, checks: [][2]int64{{100, 0}, {1 - over, over}}})
	}
	return Input{Run: build(t, l, secs)}
}

// deadTarget sends 20 requests a second for 3 s, and one more in a last,
// partial second, that all fail with kind.
func deadTarget(kind sample.Kind) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := steady(4, 20, 1, time.Millisecond)
		secs[3].reqs[0].n = 1
		for i := range secs {
			secs[i].reqs[0].fail, secs[i].reqs[0].kind = secs[i].reqs[0].n, kind
		}
		run := build(t, layout(modelArrivalRate, "GET /x"), secs)
		run.SetElapsed(3050 * time.Millisecond)
		return Input{Run: run}
	}
}

// endlessBodies is deadTarget(Interrupted) whose answers had begun: their
// bodies, 64 KiB chunks without end, were still arriving when the run ended.
func endlessBodies(t *testing.T) Input {
	secs := steady(4, 20, 1, time.Millisecond)
	secs[3].reqs[0].n = 1
	for i := range secs {
		secs[i].reqs[0].fail, secs[i].reqs[0].kind, secs[i].reqs[0].received = secs[i].reqs[0].n, sample.Interrupted, 64<<10
	}
	run := build(t, layout(modelArrivalRate, "GET /x"), secs)
	run.SetElapsed(3050 * time.Millisecond)
	return Input{Run: run}
}

// oneRefused is a run of one request, refused: 1/s for 1 s.
func oneRefused(t *testing.T) Input {
	secs := steady(1, 1, 1, time.Millisecond)
	secs[0].reqs[0].fail, secs[0].reqs[0].kind = 1, sample.ConnRefused
	run := build(t, layout(modelArrivalRate, "GET /x"), secs)
	run.SetElapsed(time.Second)
	return Input{Run: run}
}

// pgbouncer is PgBouncer's exporter for a pool of 10 server connections,
// scraped every 5 s: clients wait from 10 s to 25 s.
func pgbouncer(t *testing.T) Input {
	waiting := []float64{0, 0, 5, 12, 30, 8, 0, 0}
	active := []float64{6, 10, 10, 10, 10, 10, 10, 4}
	pool := []string{"database", "shop", "user", "app", "role", "db", "target", "pgb"}
	return Input{Run: build(t, layout(modelArrivalRate, "GET /feed"), steady(40, 100, 3, 30*time.Millisecond)), Series: series.Set{
		mk("pgbouncer_pools_client_waiting_connections", series.Gauge, pts(0, 5, waiting...), pool...),
		mk("pgbouncer_pools_server_active_connections", series.Gauge, pts(0, 5, active...), pool...),
		mk("pgbouncer_databases_pool_size", series.Gauge, pts(0, 5, repeat(10, 8)...), "name", "shop", "role", "db", "target", "pgb"),
	}}
}

// postgresSessions is the postgres preset's sessions by state: many
// active sessions are not requests waiting for a pool.
func postgresSessions(t *testing.T) Input {
	var set series.Set
	for state, v := range map[string]float64{"active": 95, "idle": 5, "idle in transaction": 40} {
		set = append(set, mk("pg_stat_activity_count", series.Gauge, pts(0, 5, repeat(v, 8)...), "role", "db", "state", state))
	}
	set = append(set, mk("pg_settings_max_connections", series.Gauge, pts(0, 5, repeat(100, 8)...), "role", "db"))
	return Input{Run: build(t, layout(modelArrivalRate, "GET /feed"), steady(40, 100, 3, 30*time.Millisecond)), Series: set}
}

// lockCollapse is the demo shop's global lock under a 10 s ramp of VUs from
// 5 to 40 and a 3 s hold on a busy machine (recorded per second): the
// throughput of the hold fell below the ramp's.
func lockCollapse(t *testing.T) Input {
	type second struct {
		n, vus int
		mean   time.Duration
	}
	rec := []second{{41, 8, 129 * time.Millisecond}, {42, 12, 193 * time.Millisecond}, {48, 15, 282 * time.Millisecond}, {47, 19, 332 * time.Millisecond},
		{46, 22, 400 * time.Millisecond}, {46, 26, 480 * time.Millisecond}, {42, 29, 608 * time.Millisecond}, {42, 33, 639 * time.Millisecond},
		{37, 36, 862 * time.Millisecond}, {41, 40, 867 * time.Millisecond}, {38, 40, 968 * time.Millisecond}, {22, 40, 1095 * time.Millisecond},
		{8, 37, 1786 * time.Millisecond}, {37, 0, 2157 * time.Millisecond}, {3, 0, 1228 * time.Millisecond}}
	var secs []sec
	for _, r := range rec {
		secs = append(secs, sec{vus: int64(r.vus), reqs: []reqs{{n: r.n, dur: even(r.mean, 0.2)}}})
	}
	run := build(t, layout(modelVUs, "POST /coupons/issue"), secs)
	run.SetElapsed(14097 * time.Millisecond)
	return Input{Run: run}
}
