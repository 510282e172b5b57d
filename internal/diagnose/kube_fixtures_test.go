package diagnose

import (
	"fmt"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/series"
)

// The Kubernetes runs of case study 2, as the kube-state-metrics preset
// (target ksm, scraped every 5 s from second 2) and the cadvisor preset
// (target node, every 5 s from second 0) record them: the two targets
// scrape at seconds of their own, as they do in a cluster.

// podName is the i-th pod of the product-api deployment.
func podName(i int) string { return fmt.Sprintf("product-api-7d9f8c6b5-p%02d", i) }

// ksm and node label a series of each target as its preset keeps it.
func ksm(name string, points []series.Point, labels ...string) *series.Series {
	return mk(name, series.Gauge, points, append(labels, "namespace", "shop", "role", "app", "target", "ksm")...)
}

func node(name string, points []series.Point, labels ...string) *series.Series {
	return mk(name, series.Rate, points, append(labels, "namespace", "shop", "role", "app", "target", "node")...)
}

// scrapes gives the points of a target scraped every 5 s from first up
// to second last, each valued by v at its second.
func scrapes(first, last int, v func(sec int) float64) []series.Point {
	var out []series.Point
	for s := first; s <= last; s += 5 {
		out = append(out, series.Point{Sec: s, Value: v(s)})
	}
	return out
}

// closedRun is a closed-model run of n seconds at vus(t) VUs completing
// x(t) requests a second, each taking vus/x seconds (Little's law).
func closedRun(n int, vus, x func(t int) int) []sec {
	out := make([]sec, n)
	for i := range out {
		r := time.Duration(float64(vus(i)) / float64(x(i)) * float64(time.Second))
		out[i] = sec{vus: int64(vus(i)), reqs: []reqs{{n: x(i), dur: even(r, 0.3)}}}
	}
	return out
}

// replicaSeries are a deployment's replicas and its HPA's desired count:
// n0 until desiredAt, desired n1 from then, available n1 from readyAt.
func replicaSeries(n0, n1, desiredAt, readyAt int) series.Set {
	step := func(at int) func(int) float64 {
		return func(s int) float64 {
			if s >= at {
				return float64(n1)
			}
			return float64(n0)
		}
	}
	return series.Set{
		ksm(kubeAvailable, scrapes(2, 62, step(readyAt)), "deployment", "product-api"),
		ksm(kubeSpec, scrapes(2, 62, step(desiredAt)), "deployment", "product-api"),
		ksm(kubeHPADesired, scrapes(2, 62, step(desiredAt)), "horizontalpodautoscaler", "product-api"),
		ksm(kubeHPACurrent, scrapes(2, 62, step(readyAt)), "horizontalpodautoscaler", "product-api"),
		ksm(kubeHPATarget, scrapes(2, 62, func(int) float64 { return 90 }), "horizontalpodautoscaler", "product-api",
			"metric_name", "cpu", "metric_target_type", "utilization"),
	}
}

// podCPU is every pod's CPU use (cadvisor) and 1-core limit
// (kube-state-metrics): the first n0 pods use cores each from the start;
// the pods up to n1 exist from desiredAt (limits) and use 0.3 cores from
// readyAt. A cart-api pod in the same namespace must not count.
func podCPU(n0, n1, desiredAt, readyAt int, cores float64) series.Set {
	var out series.Set
	for i := range n1 {
		first, use := 0, cores
		if i >= n0 {
			first, use = readyAt, 0.3
		}
		limitFrom := 2
		if i >= n0 {
			limitFrom = desiredAt
		}
		out = append(out,
			node(containerCPU, scrapes(first, 60, func(int) float64 { return use }), "pod", podName(i), "container", "app"),
			ksm(kubeLimits, scrapes(limitFrom, 62, func(int) float64 { return 1 }), "pod", podName(i), "container", "app",
				"resource", "cpu", "unit", "core", "node", "ip-10-0-1-17.ec2.internal"))
	}
	return append(out, node(containerCPU, scrapes(0, 60, func(int) float64 { return 3 }), "pod", "cart-api-5b8c7d9f4-q8r2s", "container", "app"))
}

// lateScale is case study 2's late HPA: 1,500 VUs at 2,400 req/s on 10
// pods at cpu of their 1-core limits; the HPA asks for 17 at 0:32, they are
// available at 0:47, and meanwhile the throughput dips to 1,900 req/s
// (when dip) as the new pods start cold.
func lateScale(cpu float64, dip bool) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		x := func(i int) int {
			if dip && i >= 33 && i <= 43 {
				return 1900
			}
			return 2400 + 10*(i%3)
		}
		run := build(t, layout(modelVUs, "GET /products/{id}"), closedRun(60, func(int) int { return 1500 }, x))
		set := append(replicaSeries(10, 17, 32, 47), podCPU(10, 17, 32, 47, cpu)...)
		return Input{Run: run, Series: set}
	}
}

// plannedScale raises the replicas from 10 to 17 at 0:12, before the load
// saturates the pods (40 % of their limits), with no dip.
func plannedScale(t *testing.T) Input {
	run := build(t, layout(modelVUs, "GET /products/{id}"), closedRun(60, func(int) int { return 1500 }, func(i int) int { return 2400 + 10*(i%3) }))
	return Input{Run: run, Series: append(replicaSeries(10, 17, 12, 22), podCPU(10, 17, 12, 22, 0.4)...)}
}

// throttledPods is four product-api containers throttled in share of
// their CFS periods from 0:10 to 0:40, at 0.7 cores of a 1-core limit
// that kube-state-metrics gives at seconds of its own.
func throttledPods(share float64) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		run := build(t, layout(modelVUs, "GET /products/{id}"), closedRun(60, func(int) int { return 1500 }, func(int) int { return 2400 }))
		var set series.Set
		for i := range 4 {
			p := podName(i)
			set = append(set,
				node("container_cpu_cfs_periods_total", scrapes(0, 60, func(int) float64 { return 10 }), "pod", p, "container", "app"),
				node("container_cpu_cfs_throttled_periods_total", scrapes(0, 60, func(s int) float64 {
					if s >= 10 && s <= 40 {
						return 10 * share
					}
					return 0
				}), "pod", p, "container", "app"),
				node(containerCPU, scrapes(0, 60, func(int) float64 { return 0.7 }), "pod", p, "container", "app"),
				ksm(kubeLimits, scrapes(2, 62, func(int) float64 { return 1 }), "pod", p, "container", "app", "resource", "cpu", "unit", "core"))
		}
		return Input{Run: run, Series: set}
	}
}

// restarts are three pods' restart counts (kube-state-metrics keeps them
// as counts): with during, p00 is OOM-killed at 0:22 and 0:42 and p02
// restarts at 0:37; p01 restarted 3 times before the run, and p03 was
// OOM-killed before it (its last terminated reason still says so).
func restarts(during bool) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		run := build(t, layout(modelVUs, "GET /products/{id}"), closedRun(60, func(int) int { return 1500 }, func(int) int { return 2400 }))
		count := func(at ...int) func(int) float64 {
			return func(s int) float64 {
				n := 0.0
				for _, a := range at {
					if during && s >= a {
						n++
					}
				}
				return n
			}
		}
		set := series.Set{
			ksm(kubeRestarts, scrapes(2, 62, count(22, 42)), "pod", podName(0), "container", "app", "uid", "u0"),
			ksm(kubeRestarts, scrapes(2, 62, func(int) float64 { return 3 }), "pod", podName(1), "container", "app", "uid", "u1"),
			ksm(kubeRestarts, scrapes(2, 62, count(37)), "pod", podName(2), "container", "app", "uid", "u2"),
			ksm(kubeRestarts, scrapes(2, 62, func(int) float64 { return 1 }), "pod", podName(3), "container", "app", "uid", "u3"),
			ksm(kubeLastReason, scrapes(2, 62, func(int) float64 { return 1 }), "pod", podName(3), "container", "app", "uid", "u3", "reason", "OOMKilled"),
		}
		if during {
			set = append(set, ksm(kubeLastReason, scrapes(22, 62, func(int) float64 { return 1 }), "pod", podName(0), "container", "app", "uid", "u0", "reason", "OOMKilled"))
		}
		return Input{Run: run, Series: set}
	}
}

// backendBound is case study 2's Little's law lesson: the VUs double from
// 1,500 to 3,000 and the HPA takes the app from 10 to 17 pods, but Redis
// (ElastiCache) and the DB (Aurora) have no autoscaling, so the throughput
// stays at ~3,700 req/s and their latency rises with the replicas. With
// scaledDB, they keep up: throughput follows the pods, latency stays.
func backendBound(scaledDB bool) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		vus := func(i int) int { return 1500 + 75*min(max(i-20, 0), 20) }
		x := func(i int) int { return 3700 + 10*(i%3) }
		if scaledDB {
			vus = func(int) int { return 1500 }
			x = func(i int) int { return 2400 + 1300*min(max(i-20, 0), 12)/12 + 10*(i%3) }
		}
		run := build(t, layout(modelVUs, "GET /products/{id}"), closedRun(60, vus, x))
		lat := func(before, after float64) func(int) float64 {
			return func(s int) float64 {
				if scaledDB || s < 22 {
					return before
				}
				if s < 32 {
					return (before + after) / 2
				}
				return after
			}
		}
		redisCalls := func(int) float64 { return 9000 }
		redisTime := func(s int) float64 { return 9000 * lat(0.0004, 0.0011)(s) }
		hikariUses := func(int) float64 { return 3700 }
		hikariTime := func(s int) float64 { return 3700 * lat(0.004, 0.009)(s) }
		set := append(replicaSeries(10, 17, 20, 32),
			mk("redis_commands_duration_seconds_total", series.Rate, scrapes(1, 61, redisTime), "role", "cache", "target", "redis"),
			mk("redis_commands_total", series.Rate, scrapes(1, 61, redisCalls), "role", "cache", "target", "redis"),
			mk("hikaricp_connections_usage_seconds_sum", series.Rate, scrapes(3, 58, hikariTime), "pool", "HikariPool-1", "role", "app", "target", "app"),
			mk("hikaricp_connections_usage_seconds_count", series.Rate, scrapes(3, 58, hikariUses), "pool", "HikariPool-1", "role", "app", "target", "app"))
		return Input{Run: run, Series: set}
	}
}

// oomFromCAdvisor adds cAdvisor's OOM count of p00 (killed at 0:20) to
// restarts: with kube-state-metrics the kill is the restart it already
// counts; alone (ksm false) cAdvisor's count raises the finding.
func oomFromCAdvisor(ksm bool) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		in := restarts(true)(t)
		if !ksm {
			in.Series = nil
		}
		in.Series = append(in.Series, mk(containerOOM, series.Gauge, scrapes(0, 60, func(s int) float64 {
			if s >= 20 {
				return 1
			}
			return 0
		}), "namespace", "shop", "pod", podName(0), "container", "app", "role", "app", "target", "node"))
		return in
	}
}
