package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeKSM serves kube-state-metrics' exposition of the shop's product-api
// deployment: one pod's container restarts once, OOM-killed, from the
// fourth scrape on; another pod restarted twice before the test; a pod of
// another deployment restarts too and must not count.
func fakeKSM(t *testing.T) *httptest.Server {
	var scrapes atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		killed := scrapes.Add(1) >= 4
		restarts := map[bool]int{false: 0, true: 1}[killed]
		var b strings.Builder
		b.WriteString("# HELP kube_deployment_status_replicas_available [STABLE] The number of available replicas per deployment.\n")
		b.WriteString("# TYPE kube_deployment_status_replicas_available gauge\n")
		b.WriteString(`kube_deployment_status_replicas_available{namespace="shop",deployment="product-api"} 2` + "\n")
		b.WriteString("# HELP kube_pod_container_status_restarts_total [STABLE] The number of container restarts per container.\n")
		b.WriteString("# TYPE kube_pod_container_status_restarts_total counter\n")
		fmt.Fprintf(&b, `kube_pod_container_status_restarts_total{namespace="shop",pod="product-api-7d9f8c6b5-4xk2p",uid="u1",container="app"} %d`+"\n", restarts)
		b.WriteString(`kube_pod_container_status_restarts_total{namespace="shop",pod="product-api-7d9f8c6b5-8jq7w",uid="u2",container="app"} 2` + "\n")
		fmt.Fprintf(&b, `kube_pod_container_status_restarts_total{namespace="shop",pod="cart-api-5b8c7d9f4-q8r2s",uid="u3",container="app"} %d`+"\n", 3*restarts)
		b.WriteString("# HELP kube_pod_container_status_last_terminated_reason Describes the last reason the container was in terminated state.\n")
		b.WriteString("# TYPE kube_pod_container_status_last_terminated_reason gauge\n")
		if killed {
			b.WriteString(`kube_pod_container_status_last_terminated_reason{namespace="shop",pod="product-api-7d9f8c6b5-4xk2p",uid="u1",container="app",reason="OOMKilled"} 1` + "\n")
		}
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		_, _ = w.Write([]byte(b.String()))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestKubeRestartsFinding runs the binary against a 127.0.0.1 target with
// a kube-state-metrics target whose pod is OOM-killed during the run, and
// checks that the pod-restarts finding names that pod, and only it, in
// summary.json.
func TestKubeRestartsFinding(t *testing.T) {
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) }))
	defer target.Close()
	ksm := fakeKSM(t)
	dir := t.TempDir()
	path := writeTest(t, dir, "t.yaml", `
base_url: `+target.URL+`
scenarios:
  products: {rate: 20, duration: 7s, flow: [get: /products/1]}
observe:
  interval: 1s
  targets:
    - name: ksm
      url: `+ksm.URL+`/metrics
      preset: kube-state-metrics
      kube: {namespace: shop, deployment: product-api}
`)
	r := loadlens(t, dir, "run", path, "--quiet", "--no-dashboard", "--results", "results", "--summary-json", "s.json")
	if r.code != 0 && r.code != 99 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "s.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Loadlens struct {
			Findings []struct {
				Kind     string `json:"kind"`
				Severity string `json:"severity"`
				Title    string `json:"title"`
			} `json:"findings"`
		} `json:"loadlens"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, f := range s.Loadlens.Findings {
		if f.Kind != "pod-restarts" {
			continue
		}
		found = true
		if want := "Pods restarted during the run: product-api-7d9f8c6b5-4xk2p ×1 (OOMKilled)"; f.Title != want || f.Severity != "critical" {
			t.Errorf("finding %s %q, want critical %q", f.Severity, f.Title, want)
		}
	}
	if !found {
		t.Errorf("no pod-restarts finding in %+v\n%s", s.Loadlens.Findings, r.stdout)
	}
}
