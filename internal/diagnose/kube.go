package diagnose

import (
	"sort"
	"strings"

	"github.com/loadlens/loadlens/internal/series"
)

// The series of the kube-state-metrics and cadvisor presets the
// Kubernetes rules read.
const (
	kubeAvailable  = "kube_deployment_status_replicas_available"
	kubeReplicas   = "kube_deployment_status_replicas"
	kubeSpec       = "kube_deployment_spec_replicas"
	kubeHPADesired = "kube_horizontalpodautoscaler_status_desired_replicas"
	kubeHPACurrent = "kube_horizontalpodautoscaler_status_current_replicas"
	kubeHPATarget  = "kube_horizontalpodautoscaler_spec_target_metric"
	kubeLimits     = "kube_pod_container_resource_limits"
	kubeRestarts   = "kube_pod_container_status_restarts_total"
	kubeLastReason = "kube_pod_container_status_last_terminated_reason"
	containerCPU   = "container_cpu_usage_seconds_total"
	containerOOM   = "container_oom_events_total"
)

// kubeLimit returns kube-state-metrics' limit of a resource ("cpu",
// "memory") for the container a cadvisor series describes, or nil.
func (c *context) kubeLimit(s *series.Series, resource string) *series.Series {
	ns, pod, ctr := s.Label("namespace"), s.Label("pod"), s.Label("container")
	if pod == "" || ctr == "" {
		return nil
	}
	for _, l := range c.set.Find(kubeLimits) {
		if l.Label("resource") == resource && l.Label("namespace") == ns && l.Label("pod") == pod && l.Label("container") == ctr {
			return l
		}
	}
	return nil
}

// latestSec returns the second of the latest point at or before sec, or
// sec when there is none.
func latestSec(pts []series.Point, sec int) int {
	for i := len(pts) - 1; i >= 0; i-- {
		if pts[i].Sec <= sec {
			return pts[i].Sec
		}
	}
	return sec
}

// ratioLatest defines the source "a / latest(b)": a's value over b's
// latest value at or before the same second, if not older than
// maxPointAge; for a quantity scraped by another target, at its own
// seconds, such as a container's limit.
func (c *context) ratioLatest(a, b string) (string, []series.Point) {
	src := a + " / latest(" + b + ")"
	if pts, ok := c.vals[src]; ok {
		return src, pts
	}
	bp := c.values(b)
	var pts []series.Point
	j := -1 // the latest point of b at or before the current second; both go forward only
	for _, p := range c.values(a) {
		for j+1 < len(bp) && bp[j+1].Sec <= p.Sec {
			j++
		}
		if j >= 0 && p.Sec-bp[j].Sec <= maxPointAge && bp[j].Value > 0 {
			pts = append(pts, series.Point{Sec: p.Sec, Value: p.Value / bp[j].Value})
		}
	}
	c.define(src, pts)
	return src, pts
}

// total defines the source total(NAME{k="v",…}): at every second one of
// the series named NAME with those labels (pod_prefix="p" matching pods
// whose name starts with p) has a point, the sum of each such series'
// latest value not older than maxPointAge. It adds up the pods of a
// deployment, which several targets (one kubelet per node) scrape at
// seconds of their own.
func (c *context) total(name string, kv ...string) (string, []series.Point) {
	src := "total(" + labelled(name, kv...) + ")"
	if pts, ok := c.vals[src]; ok {
		return src, pts
	}
	var members [][]series.Point
	secs := map[int]bool{}
	for _, s := range c.set.Find(name) {
		if !kubeFilter(s.Label, kv) {
			continue
		}
		pts := c.values(c.ofSeries(s))
		members = append(members, pts)
		for _, p := range pts {
			secs[p.Sec] = true
		}
	}
	pts := make([]series.Point, 0, len(secs))
	for sec := range secs {
		pts = append(pts, series.Point{Sec: sec})
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].Sec < pts[j].Sec })
	// Each member is walked once, alongside the seconds: linear in the
	// points, as the live diagnosis of a long run needs.
	for _, m := range members {
		j := -1
		for i := range pts {
			for j+1 < len(m) && m[j+1].Sec <= pts[i].Sec {
				j++
			}
			if j >= 0 && pts[i].Sec-m[j].Sec <= maxPointAge {
				pts[i].Value += m[j].Value
			}
		}
	}
	c.define(src, pts)
	return src, pts
}

// kubeFilter reports whether labels (read by value) pass the filters kv:
// equal values, and pod_prefix as a prefix of the pod label.
func kubeFilter(value func(string) string, kv []string) bool {
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i] == "pod_prefix" {
			if !strings.HasPrefix(value("pod"), kv[i+1]) {
				return false
			}
			continue
		}
		if value(kv[i]) != kv[i+1] {
			return false
		}
	}
	return true
}

// increase defines the source increase(KEY) of a counter kept as its
// value (restarts, OOM kills): at each point after the first, how much it
// rose since the previous one; a drop means it restarted from zero, so
// its new value is the increase.
func (c *context) increase(s *series.Series) (string, []series.Point) {
	src := "increase(" + s.Key() + ")"
	if pts, ok := c.vals[src]; ok {
		return src, pts
	}
	var pts []series.Point
	for i := 1; i < len(s.Points); i++ {
		d := s.Points[i].Value - s.Points[i-1].Value
		if d < 0 {
			d = s.Points[i].Value
		}
		pts = append(pts, series.Point{Sec: s.Points[i].Sec, Value: d})
	}
	c.define(src, pts)
	return src, pts
}

// deployment is one scaled workload: its replica series and, when
// kube-state-metrics exposes them, the HPA's decisions.
type deployment struct {
	name, namespace string
	replicas        *series.Series // available replicas, else the deployment's status replicas
	desired         *series.Series // the HPA's desired replicas, else the deployment's spec; may be nil
	cpuTarget       *series.Series // the HPA's CPU utilization target (% of the pods' CPU requests); may be nil
}

// deployments returns the deployments whose replicas the series show.
func (c *context) deployments() []deployment {
	var out []deployment
	for _, n := range []string{kubeAvailable, kubeReplicas} {
		for _, s := range c.set.Find(n) {
			name, ns := s.Label("deployment"), s.Label("namespace")
			if name == "" || containsDeployment(out, name, ns) {
				continue
			}
			d := deployment{name: name, namespace: ns, replicas: s}
			for _, h := range c.set.Find(kubeHPADesired) {
				if h.Label("horizontalpodautoscaler") == name && h.Label("namespace") == ns {
					d.desired = h
				}
			}
			for _, h := range c.set.Find(kubeHPATarget) {
				if h.Label("horizontalpodautoscaler") == name && h.Label("namespace") == ns && h.Label("metric_name") == "cpu" &&
					h.Label("metric_target_type") == "utilization" {
					d.cpuTarget = h
				}
			}
			if d.desired == nil {
				for _, sp := range c.set.Find(kubeSpec) {
					if sp.Label("deployment") == name && sp.Label("namespace") == ns {
						d.desired = sp
					}
				}
			}
			out = append(out, d)
		}
	}
	return out
}

func containsDeployment(ds []deployment, name, ns string) bool {
	for _, d := range ds {
		if d.name == name && d.namespace == ns {
			return true
		}
	}
	return false
}

// scaleOut is a rise of a deployment's replicas during the run, in
// seconds of the run.
type scaleOut struct {
	from  int // the first point of the replicas in the run: the count before
	to    int // the first point at the most replicas of the run
	onset int // scaling started: the first point of desired (else replicas) above the count before
	done  int // = to: the new replicas were there
}

// scaledOut finds the first scale-out of d within the seconds lo..hi.
func (d *deployment) scaledOut(lo, hi int) (scaleOut, bool) {
	pts := within(d.replicas.Points, lo, hi)
	if len(pts) < minPoints {
		return scaleOut{}, false
	}
	base := pts[0].Value
	peak := 0
	for i, p := range pts {
		if p.Value > pts[peak].Value {
			peak = i
		}
	}
	if pts[peak].Value <= base {
		return scaleOut{}, false
	}
	onset := -1
	trigger := pts
	if d.desired != nil {
		trigger = within(d.desired.Points, lo, hi)
	}
	for _, p := range trigger {
		if p.Value > base {
			onset = p.Sec
			break
		}
	}
	if onset < 0 || onset > pts[peak].Sec {
		onset = pts[peak].Sec
	}
	return scaleOut{from: pts[0].Sec, to: pts[peak].Sec, onset: onset, done: pts[peak].Sec}, true
}

// within returns the points at seconds lo..hi.
func within(pts []series.Point, lo, hi int) []series.Point {
	var out []series.Point
	for _, p := range pts {
		if p.Sec >= lo && p.Sec <= hi {
			out = append(out, p)
		}
	}
	return out
}

// workload is the deployment a pod belongs to, by Kubernetes' naming:
// <deployment>-<replica set hash>-<suffix>; a pod named otherwise (a
// StatefulSet's db-0, a bare pod) is its own workload.
func workload(pod string) string {
	parts := strings.Split(pod, "-")
	if len(parts) < 3 {
		return pod
	}
	return strings.Join(parts[:len(parts)-2], "-")
}

// podGroup is the containers of one name in the pods of one workload,
// whose per-pod series a rule adds up: a deployment's seventeen pods are
// one finding, not seventeen.
type podGroup struct {
	namespace, workload, container string
	first                          *series.Series // a member, for its role and target
}

// filters returns the total() filters of the group.
func (g podGroup) filters(extra ...string) []string {
	kv := []string{"namespace", g.namespace, "pod_prefix", g.workload + "-", "container", g.container}
	return append(kv, extra...)
}

// describe names the group for a title.
func (g podGroup) describe() string {
	return "pods " + g.workload + "-…, container=" + g.container + ", namespace=" + g.namespace
}

// podGroups returns the groups of the series named name that carry pod
// and container labels, in the order first seen.
func (c *context) podGroups(name string) []podGroup {
	var out []podGroup
	for _, s := range c.set.Find(name) {
		pod, ctr := s.Label("pod"), s.Label("container")
		if pod == "" || ctr == "" {
			continue
		}
		g := podGroup{namespace: s.Label("namespace"), workload: workload(pod), container: ctr, first: s}
		dup := false
		for _, o := range out {
			dup = dup || (o.namespace == g.namespace && o.workload == g.workload && o.container == g.container)
		}
		if !dup {
			out = append(out, g)
		}
	}
	return out
}
