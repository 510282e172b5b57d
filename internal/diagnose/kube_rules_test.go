package diagnose

import (
	"testing"

	"github.com/loadlens/loadlens/internal/series"
)

// TestKubeRules runs the Kubernetes rules over case study 2's runs as the
// kube-state-metrics and cadvisor presets record them, and over the runs
// that look alike but must not raise them.
func TestKubeRules(t *testing.T) {
	cases := []struct {
		name string
		in   func(t *testing.T) Input
		kind string
		want *expect // nil: the run must not raise kind
	}{
		{"late scale-out: HPA adds pods at 96% CPU, throughput dips (case study 2)", lateScale(0.96, true), KindLateScaleOut, &expect{Warning, [2]int{32, 32}, [2]int{57, 57},
			[]string{"product-api: throughput dipped to 1,900 req/s (-21.2%) while replicas went from 10 to 17: the HPA scaled after the service was already saturated, its CPU at 96% of its limits when scaling started at 0:32"},
			[]string{"CPU when scaling started: 9.6 cores of 10 cores (96%) at 0:30", "throughput before scaling started: 2,410 req/s",
				"kube_deployment_status_replicas_available: 10 → 17, all there at 0:47; 17 asked for at 0:32", "lowest while scaling: 1,900 req/s around 0:33",
				"the HPA's CPU target: 90 % utilization of the pods' CPU requests"}}},
		{"late scale-out: a planned scale-out before saturation", plannedScale, KindLateScaleOut, nil},
		{"late scale-out: a dip while scaling at 40% CPU is not the HPA's lateness", lateScale(0.4, true), KindLateScaleOut, nil},
		{"late scale-out: saturated but no dip", lateScale(0.96, false), KindLateScaleOut, nil},

		{"throttled: 40% of CFS periods across the deployment's pods", throttledPods(0.4), KindCPUThrottled, &expect{Critical, [2]int{10, 10}, [2]int{40, 40},
			[]string{"product-api CPU throttled 40% of periods at its limit (pods product-api-…, container=app, namespace=shop) from 0:10"},
			[]string{"highest: 16 of 40 periods a second throttled (40%) at 0:10", "it used 2.8 cores against limits of 4 cores"}}},
		{"throttled: 1% of periods", throttledPods(0.01), KindCPUThrottled, nil},
		{"throttled: 1% of periods is not CPU saturation either", throttledPods(0.01), KindCPUSaturation, nil},

		{"restarts: one pod OOM-killed twice, another restarted, during the run", restarts(true), KindPodRestarts, &expect{Critical, [2]int{22, 22}, [2]int{42, 42},
			[]string{"Pods restarted during the run: product-api-7d9f8c6b5-p00 ×2 (OOMKilled), product-api-7d9f8c6b5-p02 ×1"},
			[]string{"product-api-7d9f8c6b5-p00 (container app): 2 at 0:22, 0:42; last terminated: OOMKilled", "product-api-7d9f8c6b5-p02 (container app): 1 at 0:37"}}},
		{"restarts: counts and an OOM kill from before the run", restarts(false), KindPodRestarts, nil},
		{"restarts: cAdvisor's OOM count of a restart kube-state-metrics counts is not a second one", oomFromCAdvisor(true), KindPodRestarts,
			&expect{Critical, [2]int{22, 22}, [2]int{42, 42},
				[]string{"Pods restarted during the run: product-api-7d9f8c6b5-p00 ×2 (OOMKilled), product-api-7d9f8c6b5-p02 ×1"}, nil}},
		{"restarts: cAdvisor alone", oomFromCAdvisor(false), KindPodRestarts, &expect{Critical, [2]int{20, 20}, [2]int{20, 20},
			[]string{"Pods restarted during the run: product-api-7d9f8c6b5-p00 ×1 (OOM-killed)"},
			[]string{"product-api-7d9f8c6b5-p00 (container app): 1 at 0:20 (container_oom_events_total: killed for using more memory than its limit)"}}},

		{"backend: 10 → 17 pods, same throughput, Redis and DB slower (case study 2)", backendBound(false), KindBackendBound, &expect{Warning, [2]int{22, 22}, [2]int{59, 59},
			[]string{"The app scaled out but the cache did not: product-api went from 10 to 17 replicas from 0:22, Redis time per command (role=cache, target=redis) 400µs → 1.10ms (2.75×), throughput 3,710 req/s → 3,710 req/s"},
			[]string{"the DB too, DB time per connection use (pool=HikariPool-1, role=app, target=app): 4.00ms before scaling, 9.00ms once scaled (2.25×)",
				"throughput 3,710 req/s → 3,710 req/s (+0.0%) for +70.0% replicas"}}},
		{"backend: the DB and cache kept up, throughput followed the pods", backendBound(true), KindBackendBound, nil},
		{"backend: no latency series, no claim", func(t *testing.T) Input {
			in := backendBound(false)(t)
			in.Series = in.Series[:4] // the replicas only
			return in
		}, KindBackendBound, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := Diagnose(tc.in(t))
			if _, found := expectKind(t, fs, tc.kind, tc.want); !found {
				return
			}
			if n := countKind(fs, tc.kind); n != 1 {
				t.Errorf("%d %s findings, want one for the deployment: %s", n, tc.kind, titles(fs))
			}
		})
	}
}

func countKind(fs []Finding, kind string) int {
	n := 0
	for _, f := range fs {
		if f.Kind == kind {
			n++
		}
	}
	return n
}

// BenchmarkKubeRules diagnoses an hour of a 17-pod deployment scraped
// every second (cadvisor and kube-state-metrics), as the live dashboard
// does every 5 s: the pods' sums must stay linear in the points.
func BenchmarkKubeRules(b *testing.B) {
	run := build(b, layout(modelVUs, "GET /products/{id}"), closedRun(3600, func(int) int { return 10 }, func(int) int { return 20 }))
	var set series.Set
	every := func(v float64) []series.Point {
		out := make([]series.Point, 3600)
		for i := range out {
			out[i] = series.Point{Sec: i, Value: v}
		}
		return out
	}
	for i := range 17 {
		set = append(set,
			node(containerCPU, every(0.5), "pod", podName(i), "container", "app"),
			node("container_cpu_cfs_periods_total", every(10), "pod", podName(i), "container", "app"),
			node("container_cpu_cfs_throttled_periods_total", every(1), "pod", podName(i), "container", "app"),
			ksm(kubeLimits, every(1), "pod", podName(i), "container", "app", "resource", "cpu"),
			ksm(kubeRestarts, every(0), "pod", podName(i), "container", "app"))
	}
	set = append(set, replicaSeries(10, 17, 1200, 1300)...)
	in := Input{Run: run, Series: set}
	b.ResetTimer()
	for range b.N {
		Diagnose(in)
	}
}

// TestOOMKillIsCountedOnce: a container kube-state-metrics saw restart and
// cAdvisor saw OOM-killed is one line of the finding, not two.
func TestOOMKillIsCountedOnce(t *testing.T) {
	f, ok := findKind(Diagnose(oomFromCAdvisor(true)(t)), KindPodRestarts)
	if !ok {
		t.Fatal("no pod-restarts finding")
	}
	want := "Pods restarted during the run: product-api-7d9f8c6b5-p00 ×2 (OOMKilled), product-api-7d9f8c6b5-p02 ×1"
	if title(f) != want || len(f.Evidence) != 2 {
		t.Errorf("title %q with %d lines of evidence, want %q with 2", title(f), len(f.Evidence), want)
	}
}
