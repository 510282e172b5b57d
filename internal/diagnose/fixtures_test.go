package diagnose

import (
	"math"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
)

// The synthetic runs the rule tests read. Each bottleneck has a healthy
// counterpart that must not raise it; numbers come from the case studies
// where they fit.

// rampOffered raises the offered rate by 20 req/s every second from 100.
func rampOffered(t int) int { return 100 + 20*t }

// healthyRamp is an open-model ramp 100 → 680 req/s against a server with
// room to spare: throughput follows, latency stays at 20 ms.
func healthyRamp(t *testing.T) Input {
	return Input{Run: build(t, layout(modelArrivalRate, "GET /apps/first-page"), openQueue(30, rampOffered, 1000, 20*time.Millisecond))}
}

// kneeRamp is the same ramp against a server that serves 400 req/s at most.
func kneeRamp(t *testing.T) Input {
	return Input{Run: build(t, layout(modelArrivalRate, "GET /apps/first-page"), openQueue(30, rampOffered, 400, 20*time.Millisecond))}
}

// overloaded offers 200 req/s from the start to a server of 100 req/s.
func overloaded(t *testing.T) Input {
	return Input{Run: build(t, layout(modelArrivalRate, "GET /coupons"), openQueue(20, func(int) int { return 200 }, 100, 20*time.Millisecond))}
}

// vusDoubling is case study 2: the VUs go from 1,500 to 3,000 and the
// throughput stays at ~3,700 req/s, so the response time doubles.
func vusDoubling(model string) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		var secs []sec
		for i := range 30 {
			n := 1500 + 100*min(max(i-5, 0), 15)
			x := 3700 + int(20*math.Sin(float64(i)))
			r := time.Duration(float64(n) / float64(x) * float64(time.Second))
			secs = append(secs, sec{vus: int64(n), reqs: []reqs{{n: x, dur: even(r, 0.3)}}})
		}
		return Input{Run: build(t, layout(model, "GET /products/{id}"), secs)}
	}
}

// vusKnee ramps VUs from 100 to 3,000: throughput follows at 450 ms per
// request up to ~3,700 req/s, then the response time grows instead.
func vusKnee(t *testing.T) Input {
	var secs []sec
	for i := range 30 {
		n := 100 + 100*i
		r := max(450*time.Millisecond, time.Duration(float64(n)/3700*float64(time.Second)))
		x := int(float64(n) / r.Seconds())
		secs = append(secs, sec{vus: int64(n), reqs: []reqs{{n: x, dur: even(r, 0.3)}}})
	}
	return Input{Run: build(t, layout(modelVUs, "GET /products/{id}"), secs)}
}

// vusHealthy ramps VUs from 100 to 300 at a constant 50 ms.
func vusHealthy(t *testing.T) Input {
	var secs []sec
	for i := range 21 {
		n := 100 + 10*i
		secs = append(secs, sec{vus: int64(n), reqs: []reqs{{n: n * 20, dur: even(50*time.Millisecond, 0.3)}}})
	}
	return Input{Run: build(t, layout(modelVUs, "GET /products/{id}"), secs)}
}

// hikari is case study 5's pool, scraped every 5 s from second 2: 10 of 10
// connections in use and up to 71 requests waiting from 12 s to 27 s. With
// exhausted false, the pool is busy but never runs out except for one
// scrape, which must not count.
func hikari(exhausted bool) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		pending := []float64{0, 0, 20, 71, 55, 30, 0, 0}
		active := []float64{6, 8, 10, 10, 10, 10, 7, 5}
		timeouts := []float64{0, 0, 0, 1.2, 3, 0.4, 0, 0}
		if !exhausted {
			pending = []float64{0, 0, 0, 3, 0, 0, 0, 0}
			active = []float64{6, 8, 9, 10, 9, 8, 7, 5}
			timeouts = repeat(0, 8)
		}
		labels := []string{"pool", "HikariPool-1", "role", "app"}
		set := series.Set{
			mk("hikaricp_connections_pending", series.Gauge, pts(2, 5, pending...), labels...),
			mk("hikaricp_connections_active", series.Gauge, pts(2, 5, active...), labels...),
			mk("hikaricp_connections_max", series.Gauge, pts(2, 5, repeat(10, 8)...), labels...),
			mk("hikaricp_connections_timeout_total", series.Rate, pts(2, 5, timeouts...), labels...),
		}
		secs := steady(40, 100, 20, 30*time.Millisecond)
		if exhausted {
			for i := 17; i <= 27; i++ {
				secs[i].reqs[0].fail, secs[i].reqs[0].kind = 5, sample.Timeout
			}
		}
		return Input{Run: build(t, layout(modelVUs, "POST /coupons/issue"), secs), Series: set}
	}
}

// goSQL is a database/sql pool scraped every second: 10 of 10 in use with
// goroutines waiting from 8 s to 15 s. Its wait counter is stored raw.
func goSQL(t *testing.T) Input {
	var inUse, waits, waited []float64
	count := 0.0
	for s := range 20 {
		busy := s >= 8 && s <= 15
		inUse = append(inUse, map[bool]float64{true: 10, false: 4}[busy])
		if busy {
			count += 30
		}
		waits = append(waits, count)
		waited = append(waited, map[bool]float64{true: 12, false: 0}[busy])
	}
	labels := []string{"db_name", "shop", "role", "app"}
	return Input{Series: series.Set{
		mk("go_sql_in_use_connections", series.Gauge, pts(0, 1, inUse...), labels...),
		mk("go_sql_max_open_connections", series.Gauge, pts(0, 1, repeat(10, 20)...), labels...),
		mk("go_sql_wait_count_total", series.Gauge, pts(0, 1, waits...), labels...),
		mk("go_sql_wait_duration_seconds_total", series.Rate, pts(0, 1, waited...), labels...),
	}}
}

// nodeCPU is node_exporter's CPU time of a 2-CPU host with role db, scraped
// every 5 s for 40 s: busy as given before second from, and busyAfter from it.
func nodeCPU(busy, busyAfter float64, from int) series.Set {
	var set series.Set
	modes := map[string]func(b float64) float64{
		"idle":   func(b float64) float64 { return (1 - b) * 0.8 },
		"iowait": func(b float64) float64 { return (1 - b) * 0.2 },
		"user":   func(b float64) float64 { return b * 0.8 },
		"system": func(b float64) float64 { return b * 0.2 },
	}
	for _, cpu := range []string{"0", "1"} {
		for _, mode := range []string{"idle", "iowait", "system", "user"} {
			var vals []float64
			for s := 0; s <= 40; s += 5 {
				b := busy
				if s >= from {
					b = busyAfter
				}
				vals = append(vals, modes[mode](b))
			}
			set = append(set, mk("node_cpu_seconds_total", series.Rate, pts(0, 5, vals...), "cpu", cpu, "mode", mode, "role", "db"))
		}
	}
	return set
}

// withSeries is a steady 40-second run with the given server series.
func withSeries(set series.Set) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		return Input{Run: build(t, layout(modelArrivalRate, "GET /apps/first-page"), steady(40, 100, 3, 30*time.Millisecond)), Series: set}
	}
}

// withLoad is run's client side with the given server series.
func withLoad(run func(t *testing.T) Input, set series.Set) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		in := run(t)
		in.Series = set
		return in
	}
}

// slowFrom is withSeries whose requests take three times as long (30 →
// 90 ms) from second from: the load's effect a full resource has.
func slowFrom(set series.Set, from int) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := steady(40, 100, 3, 30*time.Millisecond)
		for i := from; i < len(secs); i++ {
			secs[i].reqs[0].dur = even(90*time.Millisecond, 0.5)
		}
		return Input{Run: build(t, layout(modelArrivalRate, "GET /apps/first-page"), secs), Series: set}
	}
}

// stepUp is 0.5 before second from (by 5-s scrapes over 40 s) and v after.
func stepUp(v float64, from int) []series.Point {
	var vals []float64
	for s := 0; s <= 40; s += 5 {
		vals = append(vals, map[bool]float64{true: v, false: 0.5}[s >= from])
	}
	return pts(0, 5, vals...)
}

// generatorCPU is loadlens's own CPU on a 2-core machine, per second: 0.5
// cores with one spike to 1.95 at second 5, which must not count, and with
// busy 1.9 cores from second 8 on.
func generatorCPU(busy bool) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		var used []float64
		for s := range 20 {
			v := 0.5
			switch {
			case busy && s >= 8:
				v = 1.9
			case s == 5:
				v = 1.95
			}
			used = append(used, v)
		}
		return Input{Run: build(t, layout(modelArrivalRate, "GET /"), steady(20, 100, 3, 10*time.Millisecond)),
			Series: generatorSeries(used...)}
	}
}

// generatorSeries is loadlens's own CPU on a 2-core machine, one value a
// second from second 0, as a run records it with its capacity.
func generatorSeries(used ...float64) series.Set {
	labels := []string{"role", "generator", "target", "loadlens"}
	return series.Set{mk(GeneratorCPU, series.Gauge, pts(0, 1, used...), labels...),
		mk(GeneratorCapacity, series.Gauge, pts(0, 1, repeat(2, len(used))...), labels...)}
}

// lagged is a 20-second run whose scheduler lag is lag in the given seconds.
func lagged(lag, mean time.Duration, seconds ...int) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := steady(20, 100, 3, mean)
		for _, s := range seconds {
			secs[s].lag = lag
		}
		return Input{Run: build(t, layout(modelArrivalRate, "GET /"), secs)}
	}
}

// dropping is an open run that drops 20 iterations a second from second 10
// while the target answers in 10 ms throughout: too few VUs.
func dropping(t *testing.T) Input {
	secs := steady(20, 100, 2, 10*time.Millisecond)
	for s := 10; s < 20; s++ {
		secs[s].dropped = 20
	}
	return Input{Run: build(t, layout(modelArrivalRate, "GET /"), secs)}
}

// droppingSlow drops iterations because the target slowed down.
func droppingSlow(t *testing.T) Input {
	secs := steady(20, 100, 2, 10*time.Millisecond)
	for s := 10; s < 20; s++ {
		secs[s].dropped = 20
		secs[s].reqs[0].dur = even(200*time.Millisecond, 0.3)
	}
	return Input{Run: build(t, layout(modelArrivalRate, "GET /"), secs)}
}

// erroring is an open ramp 50 → 485 req/s whose target starts timing out
// (10 %) and failing (2 %) from 305 req/s on, at second 17.
func erroring(t *testing.T) Input {
	secs := openQueue(30, func(t int) int { return 50 + 15*t }, 10000, 10*time.Millisecond)
	for i := range secs {
		if x := secs[i].reqs[0].n; x >= 300 {
			secs[i].reqs[0].fail, secs[i].reqs[0].kind = x/10, sample.Timeout
			secs[i].reqs = append(secs[i].reqs, reqs{n: x / 50, dur: even(5*time.Millisecond, 0.2), fail: x / 50, kind: sample.HTTP5xx})
		}
	}
	return Input{Run: build(t, layout(modelArrivalRate, "GET /feed"), secs)}
}

// sporadic has a failure now and then, and a burst of resets in the last
// second, as when a run stops with requests in flight.
func sporadic(t *testing.T) Input {
	secs := steady(20, 100, 3, 10*time.Millisecond)
	for _, s := range []int{3, 4, 11} {
		secs[s].reqs[0].fail, secs[s].reqs[0].kind = 1, sample.HTTP5xx
	}
	secs[19].reqs[0].fail, secs[19].reqs[0].kind = 30, sample.ConnReset
	return Input{Run: build(t, layout(modelArrivalRate, "GET /"), secs)}
}

// notFound fails every request with a 404 from the first second.
func notFound(t *testing.T) Input {
	secs := steady(10, 50, 3, 5*time.Millisecond)
	for i := range secs {
		secs[i].reqs[0].fail, secs[i].reqs[0].kind = 50, sample.HTTP4xx
	}
	return Input{Run: build(t, layout(modelArrivalRate, "GET /nope"), secs)}
}

// drifting holds 100 req/s for n seconds while the mean latency goes from
// 20 ms to 20+rise ms, with ±15 % of deterministic noise.
func drifting(n int, rise time.Duration) func(t *testing.T) Input {
	return driftingFrom(n, 20*time.Millisecond, rise)
}

// driftingFrom is drifting from a mean latency of base.
func driftingFrom(n int, base, rise time.Duration) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := steady(n, 100, 3, 0)
		for i := range secs {
			noise := 1 + 0.15*math.Sin(float64(i)*2.3)
			mean := time.Duration((float64(base) + float64(rise)*float64(i)/float64(n-1)) * noise)
			secs[i].reqs[0].dur = even(mean, 0.5)
		}
		return Input{Run: build(t, layout(modelArrivalRate, "GET /feed"), secs)}
	}
}

// jvmGC is Micrometer's pause time of two collectors of one app, 7 % of
// the time together from second 10.
func jvmGC(t *testing.T) Input {
	young := stepUp(0.04, 10)
	old := stepUp(0.03, 10)
	for i := range young {
		if young[i].Value == 0.5 {
			young[i].Value, old[i].Value = 0.004, 0.001
		}
	}
	return withSeries(series.Set{
		mk("jvm_gc_pause_seconds_sum", series.Rate, young, "action", "end of minor GC", "cause", "G1 Evacuation Pause", "gc", "G1 Young Generation", "role", "app"),
		mk("jvm_gc_pause_seconds_sum", series.Rate, old, "action", "end of major GC", "cause", "G1 Humongous Allocation", "gc", "G1 Old Generation", "role", "app"),
	})(t)
}

// goGC is Go's pause time growing with the load of the knee-free ramp, or
// flat at 0.5 % with rising false.
func goGC(rising bool) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		in := healthyRamp(t)
		var vals []float64
		for s := 0; s < 30; s += 5 {
			v := 0.005 + 0.0005*math.Sin(float64(s))
			if rising {
				v = 0.002 + 0.001*float64(s)
			}
			vals = append(vals, v)
		}
		in.Series = series.Set{mk("go_gc_duration_seconds_sum", series.Rate, pts(0, 5, vals...), "role", "app")}
		return in
	}
}

// endpoints is a 10-second run of the given endpoints and request shapes.
func endpoints(names []string, shapes []reqs) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		secs := make([]sec, 10)
		for i := range secs {
			secs[i] = sec{vus: 5, reqs: shapes}
		}
		return Input{Run: build(t, layout(modelArrivalRate, names...), secs)}
	}
}
