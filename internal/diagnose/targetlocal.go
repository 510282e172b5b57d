package diagnose

import "slices"

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
		own, _ := c.ratioLatest(p.cores, cpus)
		out = append(out, targetCPUs{name: roleName(p.s), proc: procOf(p.s), label: "loadlens_host_cpu_cores: loadlens's own host, the target's on loopback",
			busy: busy, own: own, ownCores: p.cores, cpus: cpus, cpusWhat: "the host's CPUs", wholeHost: true})
	}
	return out
}
