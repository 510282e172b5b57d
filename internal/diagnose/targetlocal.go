package diagnose

import (
	"math"
	"slices"
)

// localViews pairs loadlens's own reading of its host's CPU (HostCPU over
// HostCPUs, /proc/stat each second) with each process of a target that
// answers on the same host (Input.LocalTargets): no node_exporter is
// needed to see the host full while the target used little of what it may
// use. The s36 trial's service, pinned to one core of two, used 0.14–0.54
// of it while loadlens read the host at 2.0 of 2 cores every second.
// A full host is every CPU full, the target's among them. Read so
// coarsely, it is a finding only where the load felt it (latency or a
// queue): a healthy target beside a busy build is not limited by it.
func (c *context) localViews() []targetCPUs {
	host, cpus, ok := c.hostSources()
	if !ok || len(c.local) == 0 {
		return nil
	}
	busy, _ := c.ratio(host, cpus)
	var out []targetCPUs
	for _, p := range c.processCores() {
		if _, v := scrapeOf(p.s); v == "" || p.s.Label("target") != v || !slices.Contains(c.local, v) {
			continue
		}
		cores := c.freshestCores(p)
		own, _ := c.ratioLatest(cores, cpus)
		out = append(out, targetCPUs{name: roleName(p.s), proc: procOf(p.s), label: "loadlens_host_cpu_cores: loadlens's own host, the target's on loopback",
			busy: busy, own: own, ownCores: cores, cpus: cpus, cpusWhat: "the host's CPUs", wholeHost: true})
	}
	return out
}

// localDemand is the CPU, in cores, a loopback target must have wanted at
// the load it was offered for a full host to be what held it, and
// localStall the generator's scheduling latency (p99, median over the
// stretch) that shows the host made runnable threads wait whatever they
// wanted. A service that needs 3 % of a core (one waiting on its two
// workers' sleep) gets that much from any scheduler: the s36 second trial's
// used 0.03 cores beside a 1.9-core build while loadlens waited 1–3 ms, and
// its saturation was its workers'. The first trial's CPU-bound service
// wanted 0.5–1 core and loadlens waited 40–90 ms.
const (
	localDemand = 0.15
	localStall  = 0.010
)

// wantedCPU reports whether a loopback target wanted CPU the full host did
// not give it, from from to to: its cores per completed request times the
// requests offered (the open model; the closed model offers what it
// completes) of localDemand or more, or the generator's own threads waiting
// localStall or more to run.
func (c *context) wantedCPU(v targetCPUs, from, to int) bool {
	used := aggregate(c.values(v.ownCores), StatMean, from, to)
	if math.IsNaN(used) {
		return false
	}
	demand := used
	if c.open {
		done := aggregate(c.values(c.client(SrcRequests)), StatMean, from, to)
		offered := aggregate(c.values(c.client(SrcOffered)), StatMean, from, to)
		if done > 0 && offered > done {
			demand = used / done * offered
		}
	}
	if demand >= localDemand {
		return true
	}
	src := c.stallSource()
	return src != "" && aggregate(c.values(src), StatMedian, from, to) >= localStall
}
