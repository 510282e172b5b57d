package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"sync"
)

// namespace is the Kubernetes namespace the exporter puts every container in.
const namespace = "truth"

// Container is one process of the catalogue seen as a Kubernetes container:
// its CPU comes from its cgroup, or (without cgroups) from /proc.
type Container struct {
	Deployment, Name, Pod, Role string
	Quota                       float64 // cores; 0: no limit
	Read                        func() (CPUStat, error)
}

// Exporter serves the harness's containers in the formats loadlens's
// Kubernetes presets read: the kubelet's /metrics/cadvisor and
// kube-state-metrics' limits, so the `cadvisor` preset reads them as it
// would a node's.
type Exporter struct {
	mu   sync.Mutex
	cons map[string]*Container // by deployment: one replica each
	srv  *http.Server
	Addr string
}

// StartExporter serves on a free port of 127.0.0.1.
func StartExporter() (*Exporter, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	e := &Exporter{cons: map[string]*Container{}, Addr: ln.Addr().String()}
	mux := http.NewServeMux()
	mux.HandleFunc("/metrics/cadvisor", func(w http.ResponseWriter, _ *http.Request) { e.writeCAdvisor(w) })
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, _ *http.Request) { e.writeKSM(w) })
	e.srv = &http.Server{Handler: mux}
	go e.srv.Serve(ln)
	return e, nil
}

// Close stops serving.
func (e *Exporter) Close() { e.srv.Close() }

// Set puts c in place of its deployment's previous container.
func (e *Exporter) Set(c *Container) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.cons[c.Deployment] = c
}

// Drop removes a deployment's container.
func (e *Exporter) Drop(deployment string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.cons, deployment)
}

func (e *Exporter) sorted() []*Container {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []*Container
	for _, c := range e.cons {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Deployment < out[j].Deployment })
	return out
}

// writeCAdvisor writes what the kubelet's cAdvisor endpoint would: CPU
// time, and the CFS periods and quota of containers that have a limit.
func (e *Exporter) writeCAdvisor(w io.Writer) {
	type row struct {
		labels string
		s      CPUStat
		c      *Container
	}
	var rows []row
	for _, c := range e.sorted() {
		s, err := c.Read()
		if err != nil {
			continue // its process has gone: cAdvisor forgets a container too
		}
		l := fmt.Sprintf(`container=%q,id="/kubepods/burstable/pod-%s/%s",image="truth/%s",name="k8s_%s_%s",namespace=%q,pod=%q`,
			c.Name, c.Pod, c.Name, c.Deployment, c.Name, c.Pod, namespace, c.Pod)
		rows = append(rows, row{l, s, c})
	}
	metric := func(name, typ, help string, v func(r row) (float64, bool)) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
		for _, r := range rows {
			if x, ok := v(r); ok {
				fmt.Fprintf(w, "%s{%s} %g\n", name, r.labels, x)
			}
		}
	}
	limited := func(r row) bool { return r.c.Quota > 0 }
	metric("container_cpu_usage_seconds_total", "counter", "Cumulative cpu time consumed in seconds.",
		func(r row) (float64, bool) { return r.s.UsageSeconds, true })
	metric("container_cpu_cfs_periods_total", "counter", "Number of elapsed enforcement period intervals.",
		func(r row) (float64, bool) { return float64(r.s.Periods), limited(r) })
	metric("container_cpu_cfs_throttled_periods_total", "counter", "Number of throttled period intervals.",
		func(r row) (float64, bool) { return float64(r.s.Throttled), limited(r) })
	metric("container_cpu_cfs_throttled_seconds_total", "counter", "Total time duration the container has been throttled.",
		func(r row) (float64, bool) { return r.s.ThrottledSec, limited(r) })
	// cAdvisor's sched group (-enable_metrics=sched): whether the container's threads waited for a CPU
	metric("container_cpu_schedstat_run_seconds_total", "counter", "Time duration the processes of the container have run on the CPU.",
		func(r row) (float64, bool) { return r.s.RunSec, r.s.Sched })
	metric("container_cpu_schedstat_runqueue_seconds_total", "counter", "Time duration processes of the container have been waiting on a runqueue.",
		func(r row) (float64, bool) { return r.s.RunqueueSec, r.s.Sched })
	metric("container_spec_cpu_quota", "gauge", "CPU quota of the container.",
		func(r row) (float64, bool) { return r.c.Quota * cfsPeriod, limited(r) })
	metric("container_spec_cpu_period", "gauge", "CPU period of the container.",
		func(r row) (float64, bool) { return cfsPeriod, limited(r) })
}

// writeKSM writes what kube-state-metrics would of these deployments: one
// replica each, and the CPU limit of each container that has one.
func (e *Exporter) writeKSM(w io.Writer) {
	cons := e.sorted()
	fmt.Fprintln(w, "# HELP kube_deployment_spec_replicas Number of desired pods for a deployment.\n# TYPE kube_deployment_spec_replicas gauge")
	for _, c := range cons {
		fmt.Fprintf(w, "kube_deployment_spec_replicas{namespace=%q,deployment=%q} 1\n", namespace, c.Deployment)
	}
	fmt.Fprintln(w, "# HELP kube_deployment_status_replicas_available The number of available replicas per deployment.\n# TYPE kube_deployment_status_replicas_available gauge")
	for _, c := range cons {
		fmt.Fprintf(w, "kube_deployment_status_replicas_available{namespace=%q,deployment=%q} 1\n", namespace, c.Deployment)
	}
	fmt.Fprintln(w, "# HELP kube_pod_container_resource_limits The number of requested limit resource by a container.\n# TYPE kube_pod_container_resource_limits gauge")
	for _, c := range cons {
		if c.Quota > 0 {
			fmt.Fprintf(w, "kube_pod_container_resource_limits{namespace=%q,pod=%q,uid=%q,container=%q,node=\"truth\",resource=\"cpu\",unit=\"core\"} %g\n",
				namespace, c.Pod, "uid-"+c.Pod, c.Name, c.Quota)
		}
	}
}
