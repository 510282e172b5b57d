package scrape

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/series"
)

// shopAPI is the workload the Kubernetes fixtures are about.
var shopAPI = &plan.KubeSelect{Namespace: "shop", Deployment: "product-api", HPA: "product-api", Pods: "product-api-"}

// kubeWant is what a Kubernetes preset must keep from its two fixtures
// (testdata/<preset>.1.prom, then .2.prom 5 s later): every name, and some
// series (labels of the target and uid left out) with their values.
type kubeWant struct {
	preset string
	names  []string
	values map[string]float64
	kinds  map[string]series.Kind // by name
	count  int                    // series kept from the second exposition, up and scrape_duration_seconds aside
}

func kubeWants() []kubeWant {
	const p3 = "product-api-7d9f8c6b5-c2n6t"
	return []kubeWant{
		{plan.PresetKubeStateMetrics, []string{"kube_deployment_spec_replicas", "kube_deployment_status_replicas",
			"kube_deployment_status_replicas_available", "kube_horizontalpodautoscaler_spec_max_replicas",
			"kube_horizontalpodautoscaler_spec_min_replicas", "kube_horizontalpodautoscaler_spec_target_metric", "kube_horizontalpodautoscaler_status_current_replicas",
			"kube_horizontalpodautoscaler_status_desired_replicas", "kube_pod_container_resource_limits",
			"kube_pod_container_status_last_terminated_reason", "kube_pod_container_status_restarts_total", "kube_pod_status_phase"},
			map[string]float64{
				`kube_deployment_spec_replicas{deployment="product-api",namespace="shop"}`:                                                                          12,
				`kube_deployment_status_replicas{deployment="product-api",namespace="shop"}`:                                                                        12,
				`kube_deployment_status_replicas_available{deployment="product-api",namespace="shop"}`:                                                              10,
				`kube_horizontalpodautoscaler_status_current_replicas{horizontalpodautoscaler="product-api",namespace="shop"}`:                                      10,
				`kube_horizontalpodautoscaler_status_desired_replicas{horizontalpodautoscaler="product-api",namespace="shop"}`:                                      12,
				`kube_horizontalpodautoscaler_spec_max_replicas{horizontalpodautoscaler="product-api",namespace="shop"}`:                                            30,
				`kube_pod_status_phase{phase="Running"}`:                                                                                                            10,
				`kube_pod_status_phase{phase="Pending"}`:                                                                                                            2,
				`kube_pod_status_phase{phase="Failed"}`:                                                                                                             0,
				`kube_pod_container_status_restarts_total{container="app",namespace="shop",pod="` + p3 + `"}`:                                                       1,
				`kube_pod_container_status_last_terminated_reason{container="app",namespace="shop",pod="` + p3 + `",reason="OOMKilled"}`:                            1,
				`kube_pod_container_resource_limits{container="app",namespace="shop",node="ip-10-0-1-17.ec2.internal",pod="` + p3 + `",resource="cpu",unit="core"}`: 1,
			},
			map[string]series.Kind{"kube_pod_container_status_restarts_total": series.Gauge, "kube_pod_status_phase": series.Gauge},
			3 + 5 + 5 + 12 + 1 + 24},
		{plan.PresetCAdvisor, []string{"container_cpu_cfs_periods_total", "container_cpu_cfs_throttled_periods_total",
			"container_cpu_usage_seconds_total", "container_memory_working_set_bytes", "container_oom_events_total"},
			map[string]float64{
				`container_cpu_usage_seconds_total{container="app",namespace="shop",pod="` + p3 + `"}`:           0.9,
				`container_cpu_cfs_periods_total{container="app",namespace="shop",pod="` + p3 + `"}`:             10,
				`container_cpu_cfs_throttled_periods_total{container="app",namespace="shop",pod="` + p3 + `"}`:   5,
				`container_memory_working_set_bytes{container="app",namespace="shop",pod="` + p3 + `"}`:          7.55e8,
				`container_oom_events_total{container="app",namespace="shop",pod="` + p3 + `"}`:                  1,
				`container_oom_events_total{container="app",namespace="shop",pod="product-api-7d9f8c6b5-4xk2p"}`: 0,
			},
			map[string]series.Kind{"container_cpu_usage_seconds_total": series.Rate, "container_oom_events_total": series.Gauge,
				"container_memory_working_set_bytes": series.Gauge},
			4 * 5},
	}
}

// TestKubePresetsKeepTheWorkload converts each Kubernetes preset's two
// fixtures 5 s apart and checks that only the workload kube names is kept:
// its deployment, HPA and pods, summed per container (not per cgroup or
// sandbox), counters of restarts and OOM kills as counts, the rest as rates.
func TestKubePresetsKeepTheWorkload(t *testing.T) {
	for _, w := range kubeWants() {
		t.Run(w.preset, func(t *testing.T) {
			tg, err := newTarget(&Target{Name: "k", URL: "http://127.0.0.1:1/metrics", Preset: w.preset, Interval: time.Second, Kube: shopAPI}, newBounds())
			if err != nil {
				t.Fatal(err)
			}
			first, second := readFixture(t, w.preset+".1.prom"), readFixture(t, w.preset+".2.prom")
			if _, err := tg.convert(context.Background(), first, t0, 0); err != nil {
				t.Fatal(err)
			}
			got, err := tg.convert(context.Background(), second, t0.Add(5*time.Second), 5)
			if err != nil {
				t.Fatal(err)
			}
			checkKube(t, w, got)
		})
	}
}

// TestKubePresetsEndToEnd serves the fixtures from 127.0.0.1 (the first
// request gets .1.prom, every later one .2.prom), runs the scraper over
// them until three scrapes landed, and checks what landed: the second
// scrape holds the rates between the two expositions, 5 s apart on a clock
// that steps 5 s per scrape.
func TestKubePresetsEndToEnd(t *testing.T) {
	for _, w := range kubeWants() {
		t.Run(w.preset, func(t *testing.T) {
			first, second := readFixture(t, w.preset+".1.prom"), readFixture(t, w.preset+".2.prom")
			var served atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
				body := second
				if served.Add(1) == 1 {
					body = first
				}
				rw.Header().Set("Content-Type", "text/plain; version=0.0.4")
				_, _ = rw.Write(body)
			}))
			defer srv.Close()
			rec := newRecorder(func(r *recorder) bool { return len(r.scraped["k8s"]) >= 3 })
			s, err := New([]Target{{Name: "k8s", URL: srv.URL + "/metrics", Preset: w.preset, Interval: 50 * time.Millisecond,
				Kube: shopAPI, Labels: []series.Label{{Name: "role", Value: "app"}}}}, t0, rec)
			if err != nil {
				t.Fatal(err)
			}
			var calls atomic.Int64
			s.now = func() time.Time { return t0.Add(time.Duration(calls.Add(1)) * 5 * time.Second) }
			runScraper(t, s, rec)

			rec.mu.Lock()
			defer rec.mu.Unlock()
			sets := rec.scraped["k8s"]
			if len(sets) < 3 {
				t.Fatalf("%d scrapes landed, want 3", len(sets))
			}
			if up := rec.up("k8s"); !slices.Equal(up[:3], []float64{1, 1, 1}) {
				t.Errorf("up %v, want 1 at every scrape", up)
			}
			var own series.Set
			for _, s := range sets[1] {
				if s.Name != "up" && s.Name != "scrape_duration_seconds" {
					own = append(own, s)
				}
				if s.Label("role") != "app" || s.Label("target") != "k8s" || s.Points[0].Sec != 10 {
					t.Errorf("%s at %d: want the target's labels and the second scrape's second, 10", s.Key(), s.Points[0].Sec)
				}
			}
			checkKube(t, w, own)
			// The third scrape read the same exposition again: rates fall to
			// 0, counts and gauges stay.
			for _, s := range sets[2] {
				if s.Kind == series.Rate && s.Points[0].Value != 0 {
					t.Errorf("third scrape: %s = %v, want 0/s (the exposition did not change)", s.Key(), s.Points[0].Value)
				}
			}
		})
	}
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkKube compares what a Kubernetes preset kept with w.
func checkKube(t *testing.T, w kubeWant, got series.Set) {
	t.Helper()
	var names []string
	values := map[string]float64{}
	for _, s := range got {
		if !slices.Contains(names, s.Name) {
			names = append(names, s.Name)
		}
		var own []series.Label
		for _, l := range s.Labels {
			if l.Name != "role" && l.Name != "target" && l.Name != "uid" {
				own = append(own, l)
			}
		}
		values[(&series.Series{Name: s.Name, Labels: own}).Key()] = s.Points[0].Value
		if k, ok := w.kinds[s.Name]; ok && s.Kind != k {
			t.Errorf("%s is a %s, want a %s", s.Key(), s.Kind, k)
		}
		if ns := s.Label("namespace"); (ns != "" && ns != "shop") || strings.Contains(s.Label("pod"), "cart-api") || s.Label("deployment") == "cart-api" ||
			s.Label("horizontalpodautoscaler") == "cart-api" || s.Label("id") != "" || s.Label("resource") == "ephemeral_storage" {
			t.Errorf("kept %s, which is not the workload's or is not summed per container", s.Key())
		}
		if c := s.Label("container"); strings.HasPrefix(s.Name, "container_") && c != "app" {
			t.Errorf("kept %s: a pod cgroup or sandbox, not the app's container", s.Key())
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, w.names) {
		t.Errorf("kept names %q,\nwant %q", names, w.names)
	}
	if len(got) != w.count {
		t.Errorf("kept %d series, want %d:\n%s", len(got), w.count, strings.Join(lines(got), "\n"))
	}
	for k, want := range w.values {
		if v, ok := values[k]; !ok || v != want {
			t.Errorf("%s = %v (kept %v), want %v", k, v, ok, want)
		}
	}
}
