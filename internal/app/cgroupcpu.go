package app

import (
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/proc"
	"github.com/loadlens/loadlens/internal/series"
)

// quotaPresets are the presets whose endpoint is the service's own process:
// the others are exporters (node, postgres, redis) or a cluster's
// (Kubernetes), whose process's cgroup is not the service's.
var quotaPresets = []string{"", "spring", "go"}

// cgroupWatch is one loopback target's process and the cgroup whose CPU
// quota holds it, with the counters read a second before.
type cgroupWatch struct {
	labels []series.Label // the target's labels and target=<name>, as its scraped series carry
	names  *cgroupNames   // targetNames, or ownNames for loadlens's own cgroup
	limit  proc.CPULimit
	last   proc.CPUStat
	at     time.Time // when last was read
	ok     bool      // last holds a reading
}

// cgroupNames are the names a watch's series are recorded under; usage ""
// records none (loadlens's own CPU has a series of its own).
type cgroupNames struct{ quota, periods, throttled, held, usage string }

// targetNames name a loopback target's cgroup series.
var targetNames = &cgroupNames{diagnose.CgroupQuota, diagnose.CgroupPeriods, diagnose.CgroupThrottled, diagnose.CgroupThrottledSec, diagnose.CgroupUsage}

// cgroupMeter reads, each second, the CPU bandwidth counters of the
// cgroups that hold the loopback targets' processes: a process under a
// quota whose threads do not follow it (GOMAXPROCS 2 under half a core)
// reads as idle in its own metrics while the kernel throttles it.
type cgroupMeter struct{ watches []*cgroupWatch }

// newCgroupMeter finds, for each scraped target answering on loopback and
// each loopback origin the requests go to that no such scrape covers (k6
// users rarely scrape), the process listening on its port and the cgroup
// with its tightest quota. Targets without one (no quota, another host, a
// process loadlens may not read) are not watched, nor an origin whose
// cgroup a scraped target's watch holds. One scan of the processes'
// descriptors finds every port's process (proc.ListenerPIDs).
func newCgroupMeter(targets []plan.ObserveTarget, origins []string, procRoot, cgroupRoot string) *cgroupMeter {
	m := &cgroupMeter{}
	var wanted []portWatch
	scraped := map[int]bool{} // ports a loopback scrape reads: its preset says whether the process is the service's
	for _, t := range targets {
		port, ok := loopbackPort(t.URL)
		if !ok {
			continue
		}
		scraped[port] = true
		if slices.Contains(quotaPresets, t.Preset) {
			wanted = append(wanted, portWatch{port, append(slices.Clone(t.Labels), series.Label{Name: "target", Value: t.Name}), false})
		}
	}
	for _, o := range origins {
		port, ok := loopbackPort(o)
		if !ok || scraped[port] {
			continue
		}
		scraped[port] = true // localhost:8080 and 127.0.0.1:8080 are one listener
		u, _ := url.Parse(o)
		wanted = append(wanted, portWatch{port, []series.Label{{Name: "target", Value: u.Host}}, true})
	}
	if len(wanted) == 0 {
		return m
	}
	ports := make([]int, len(wanted))
	for i, w := range wanted {
		ports[i] = w.port
	}
	pids := proc.ListenerPIDs(procRoot, ports)
	for _, w := range wanted {
		if pid, ok := pids[w.port]; ok {
			m.watch(procRoot, cgroupRoot, pid, w.labels, w.once)
		}
	}
	return m
}

// portWatch is a loopback port whose process's cgroup is to be watched,
// its series' labels, and whether a scraped target's watch of the same
// cgroup makes it needless (an origin's).
type portWatch struct {
	port   int
	labels []series.Label
	once   bool
}

// watch adds the cgroup with the tightest quota of process pid, its
// series labelled labels; none when there is none, nor, when once, when a
// scraped target's watch holds it already (the service's metrics on a
// port of their own).
func (m *cgroupMeter) watch(procRoot, cgroupRoot string, pid int, labels []series.Label, once bool) {
	l, ok, err := proc.FindCPULimit(procRoot, cgroupRoot, pid)
	if err != nil || !ok || once && slices.ContainsFunc(m.watches, func(w *cgroupWatch) bool { return w.limit.Dir == l.Dir }) {
		return
	}
	series.SortLabels(labels)
	w := &cgroupWatch{labels: labels, names: targetNames, limit: l}
	w.last, err = proc.ReadCPUStat(l)
	w.at, w.ok = time.Now(), err == nil
	m.watches = append(m.watches, w)
}

// loopbackPort returns the port of a loopback URL (its scheme's default
// when it names none); false for another host.
func loopbackPort(raw string) (int, bool) {
	if !loopbackURL(raw) {
		return 0, false
	}
	u, _ := url.Parse(raw)
	p := u.Port()
	if p == "" {
		if u.Scheme == "https" || u.Scheme == "wss" {
			return 443, true
		}
		return 80, true
	}
	n, err := strconv.Atoi(p)
	return n, err == nil && n > 0 && n < 65536
}

// sample returns second sec's series: each watched cgroup's quota, and its
// counters' increase per second since the previous call (none for a first
// reading or a counter that went back, the cgroup made anew).
func (m *cgroupMeter) sample(sec int) series.Set {
	var set series.Set
	for _, w := range m.watches {
		st, err := proc.ReadCPUStat(w.limit)
		now := time.Now()
		if err != nil {
			w.ok = false
			continue
		}
		prev, was, dt := w.last, w.ok, now.Sub(w.at).Seconds()
		w.last, w.at, w.ok = st, now, true
		point := func(name string, kind series.Kind, v float64) {
			set = append(set, &series.Series{Name: name, Labels: w.labels, Kind: kind, Points: []series.Point{{Sec: sec, Value: v}}})
		}
		n := w.names
		if st.Cores > 0 {
			point(n.quota, series.Gauge, st.Cores)
		}
		if !was || dt <= 0 || st.Periods < prev.Periods || st.Throttled < prev.Throttled || st.ThrottledSec < prev.ThrottledSec {
			continue
		}
		point(n.periods, series.Rate, float64(st.Periods-prev.Periods)/dt)
		point(n.throttled, series.Rate, float64(st.Throttled-prev.Throttled)/dt)
		point(n.held, series.Rate, (st.ThrottledSec-prev.ThrottledSec)/dt)
		if n.usage != "" && st.UsageSec >= 0 && prev.UsageSec >= 0 && st.UsageSec >= prev.UsageSec {
			point(n.usage, series.Rate, (st.UsageSec-prev.UsageSec)/dt)
		}
	}
	return set
}
