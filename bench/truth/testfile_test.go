package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEveryCaseWritesAValidTest writes each case's test file as a run
// would and has the real loadlens validate it.
func TestEveryCaseWritesAValidTest(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ll, err := BuildLoadlens(context.Background(), root, dir)
	if err != nil {
		t.Fatal(err)
	}
	targets := []ObserveTarget{
		{Name: "host", URL: "http://127.0.0.1:9100/metrics", Preset: "node", Labels: map[string]string{"role": "host"}},
		{Name: "app", URL: "http://127.0.0.1:8080/actuator/prometheus", Preset: "spring", Labels: map[string]string{"role": "app", "cpu_limit": "1"}},
		{Name: "postgres", URL: "http://127.0.0.1:9187/metrics", Preset: "postgres", Interval: 2 * time.Second},
		{Name: "cadvisor-truthapp", URL: "http://127.0.0.1:1/metrics/cadvisor", Preset: "cadvisor", KubeDeployment: "truthapp"},
		{Name: "ksm", URL: "http://127.0.0.1:1/metrics", Preset: "kube-state-metrics", Interval: 5 * time.Second},
	}
	var files []TestFile
	for _, c := range catalogue() {
		files = append(files, TestFile{Name: "truth-" + c.ID, BaseURL: "http://127.0.0.1:8080", Load: c.Load(100), SLO: defaultSLO,
			Targets: targets, TracesListen: "127.0.0.1:4318"})
	}
	for _, c := range capacities() {
		files = append(files, TestFile{Name: "truth-" + c.ID, BaseURL: "http://127.0.0.1:8080", Load: flat(c.Scenarios, c.Start*4, 10*time.Second), SLO: c.SLO})
	}
	for _, f := range files {
		p := filepath.Join(dir, f.Name+".yaml")
		if err := os.WriteFile(p, []byte(f.YAML()), 0o644); err != nil {
			t.Fatal(err)
		}
		inv, err := ll.Exec(context.Background(), dir, f.Name, "validate", p)
		if err != nil || inv.Exit != 0 {
			t.Errorf("%s: exit %d %v\n%s%s\n%s", f.Name, inv.Exit, err, inv.Stdout, inv.Stderr, f.YAML())
		}
	}
}

// TestYAMLOfARampAndAMix checks the rates each scenario gets.
func TestYAMLOfARampAndAMix(t *testing.T) {
	tf := TestFile{Name: "x", BaseURL: "http://h:1", Load: ramp(mix(), 10, 100, 15*time.Second, 5*time.Second), SLO: defaultSLO}
	y := tf.YAML()
	for _, want := range []string{
		"  app:\n    model: arrival-rate\n    start_rate: 5\n",
		"      - {duration: 15000ms, target: 50}\n      - {duration: 5000ms, target: 50}\n",
		"  reviews:\n    model: arrival-rate\n    start_rate: 3\n",
		"  render:\n    model: arrival-rate\n    start_rate: 2\n",
		`http_req_duration: ["p(95) <= 200ms"]`,
		`- get: "/apps/{{ randInt(1, 2000) }}/reviews"`,
	} {
		if !strings.Contains(y, want) {
			t.Errorf("no %q in\n%s", want, y)
		}
	}
}

// TestExporterWritesCAdvisorsFormat checks the exposition the cadvisor
// and kube-state-metrics presets read.
func TestExporterWritesCAdvisorsFormat(t *testing.T) {
	e, err := StartExporter()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	e.Set(&Container{Deployment: "truthapp", Name: "app", Pod: podName("truthapp", 3), Role: "app", Quota: 0.5,
		Read: func() (CPUStat, error) {
			return CPUStat{UsageSeconds: 12.5, Periods: 400, Throttled: 120, ThrottledSec: 3}, nil
		}})
	e.Set(&Container{Deployment: "postgres", Name: "postgres", Pod: podName("postgres", 4),
		Read: func() (CPUStat, error) { return CPUStat{UsageSeconds: 2}, nil }})
	get := func(path string) string {
		r, err := http.Get("http://" + e.Addr + path)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		return string(b)
	}
	cad := get("/metrics/cadvisor")
	for _, want := range []string{
		`container_cpu_usage_seconds_total{container="app",id="/kubepods/burstable/pod-truthapp-5d8f7c9b6-00003/app",image="truth/truthapp",name="k8s_app_truthapp-5d8f7c9b6-00003",namespace="truth",pod="truthapp-5d8f7c9b6-00003"} 12.5`,
		`container_cpu_cfs_periods_total{container="app",`, `} 400`, `} 120`, `container_spec_cpu_quota{container="app",`, `} 50000`,
		`container_cpu_usage_seconds_total{container="postgres",`,
	} {
		if !strings.Contains(cad, want) {
			t.Errorf("no %q in\n%s", want, cad)
		}
	}
	if strings.Contains(cad, `container_cpu_cfs_periods_total{container="postgres"`) {
		t.Errorf("a container without a limit has CFS periods:\n%s", cad)
	}
	ksm := get("/metrics")
	if !strings.Contains(ksm, `kube_pod_container_resource_limits{namespace="truth",pod="truthapp-5d8f7c9b6-00003",uid="uid-truthapp-5d8f7c9b6-00003",container="app",node="truth",resource="cpu",unit="core"} 0.5`) ||
		strings.Contains(ksm, `container="postgres"`) {
		t.Errorf("limits:\n%s", ksm)
	}
}
