// Package diagnose turns a run's client view (metrics.Run) and server view
// (series.Set) into findings: the bottleneck named, the seconds and series
// that prove it, and the usual remedies. It is pure: data in, findings out,
// no I/O and no clock, so the same run always gives the same findings.
//
// Every rule needs evidence before it speaks, and its thresholds are set so
// that the noise of a short run on a small, shared CI machine does not
// trigger it: a rule looks at sustained behaviour (several seconds or
// scrapes in a row, or a robust trend), never at one sample.
package diagnose

import (
	"sort"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/spans"
)

// The names of the series the load generator records about itself, on the
// run's clock, beside the scraped ones.
const (
	GeneratorCPU      = "loadlens_cpu_cores"        // CPU cores the generator used during each second
	GeneratorCapacity = "loadlens_cpu_capacity"     // cores the generator can use (GOMAXPROCS or the container limit)
	HostCPU           = "loadlens_host_cpu_cores"   // cores busy on the generator's host, every process counted (/proc/stat)
	HostSteal         = "loadlens_host_steal_cores" // cores' worth of time the hypervisor gave to other machines (/proc/stat steal)
	HostCPUs          = "loadlens_host_cpus"        // the host's CPUs
	// GeneratorStall is the 99th percentile, in seconds, of how long the
	// generator's goroutines waited, runnable, for a CPU during each second
	// (the Go runtime's scheduling latency): a VU whose response has
	// arrived but that cannot run to read it adds this to the latency.
	GeneratorStall = "loadlens_sched_latency_p99_s"
	// GeneratorCPUWait is the time the generator's threads waited, runnable,
	// for a CPU during each second, in cores' worth (Linux schedstat).
	GeneratorCPUWait = "loadlens_cpu_wait_cores"
	// GeneratorPoolHeld is the size an open-model scenario's VU pool was
	// last held at while it dropped arrivals; labels scenario and reason
	// (max_vus, open_files, generator_cpu, generator_behind, latency, growth).
	GeneratorPoolHeld = "loadlens_vu_pool_held"
)

// The series loadlens records of its own cgroup's CPU quota when one holds
// it (a container with a CPU limit), labelled as its other series: the
// quota in cores, and per second the enforcement periods, those throttled
// and the time its threads were held back. Names of their own: under the
// Cgroup* names cgroupThrottling would call loadlens a throttled target.
const (
	GeneratorQuota        = "loadlens_own_cgroup_cpu_quota_cores"
	GeneratorPeriods      = "loadlens_own_cgroup_cpu_periods_total"
	GeneratorThrottled    = "loadlens_own_cgroup_cpu_throttled_periods_total"
	GeneratorThrottledSec = "loadlens_own_cgroup_cpu_throttled_seconds_total"
)

// The series loadlens records of a loopback target's cgroup CPU quota
// (labels those of the target's scrape): the quota in cores, and per second
// the enforcement periods, those throttled, the time held back and the CPU
// used (cgroup v2 cpu.max and cpu.stat, or v1's cpu.cfs_* and cpu.stat).
const (
	CgroupQuota        = "loadlens_cgroup_cpu_quota_cores"
	CgroupPeriods      = "loadlens_cgroup_cpu_periods_total"
	CgroupThrottled    = "loadlens_cgroup_cpu_throttled_periods_total"
	CgroupThrottledSec = "loadlens_cgroup_cpu_throttled_seconds_total"
	CgroupUsage        = "loadlens_cgroup_cpu_usage_seconds_total"
)

// CPULimit is the name of a label or of a gauge series (same role or target
// labels as the process it limits) giving the cores a process may use, for
// process_cpu_seconds_total, whose rate is in cores.
const CPULimit = "cpu_limit"

// The finding kinds: stable ids for scripts, reports and tests.
const (
	KindSaturation     = "saturation"
	KindPoolExhaustion = "pool-exhaustion"
	KindCPUSaturation  = "cpu-saturation"
	KindGeneratorBound = "generator-bound"
	KindErrorsAtLoad   = "errors-at-load"
	KindMoreVUsSameTPS = "more-vus-same-tps"
	KindLatencyDrift   = "latency-drift"
	KindGCPressure     = "gc-pressure"
	KindBimodalLatency = "bimodal-latency"
	KindAllFailed      = "all-failed"          // every request failed: the verdict names how
	KindCheckFailed    = "check-failed"        // a check (an invariant of the test) failed
	KindHostBusy       = "generator-host-busy" // the generator's host was busy with other processes
	KindCPUThrottled   = "cpu-throttled"       // a container's CPU limit throttled it (CFS)
	KindLateScaleOut   = "late-scale-out"      // throughput dipped while the autoscaler added replicas to a saturated service
	KindPodRestarts    = "pod-restarts"        // pods restarted or were OOM-killed during the run
	KindBackendBound   = "backend-not-scaled"  // the app scaled out, its DB or cache did not: their latency rose with the replicas
	KindTargetHeldVUs  = "target-held-vus"     // open model: drops while every VU waited for a slow or hanging target
)

// The load models of sample.ScenarioInfo.Model.
const (
	modelArrivalRate = "arrival-rate"
	modelVUs         = "vus"
	modelIterations  = "iterations"
)

// Input is everything a diagnosis reads. Run and Series share one clock:
// second n of Run.Series is second n of every series point.
type Input struct {
	Run    *metrics.Run      // client view: per-second and whole-run figures; nil when there is none
	Series series.Set        // server view and the generator's own series (GeneratorCPU, GeneratorCapacity)
	Models []string          // load model per scenario; when its length differs from the layout's, Run.Layout's models are used
	Traces []spans.Breakdown // where the sampled requests' time went, from the spans the target exported; nil without a receiver
	// LocalTargets are the scraped targets (their target label) that
	// answer on loadlens's own host (a loopback scrape URL): loadlens's
	// readings of its host's CPU (HostCPU) are theirs too.
	LocalTargets []string
}

// Severity ranks findings: a Critical one invalidates or limits the result,
// a Warning one explains it, an Info one is worth a look.
type Severity uint8

// The severities, from least to most severe.
const (
	Info Severity = iota
	Warning
	Critical
)

// String returns the severity's name as the summary prints it.
func (s Severity) String() string {
	switch s {
	case Critical:
		return "critical"
	case Warning:
		return "warning"
	}
	return "info"
}

// Finding is one diagnosed cause, with what proves it. Its title and
// evidence are words, names and figures (Segments): every number in them
// is one of its Figures, which a renderer writes in its unit (see Join).
type Finding struct {
	Kind     string     // stable id, one of the Kind constants
	Severity Severity   // how much it matters
	From, To int        // the seconds of the run that prove it (inclusive)
	Evidence []Evidence // the series or client metrics and values that prove it
	Remedies []string   // the usual remedies: logic/query, then cache, then resources, then architecture
	Figures  []Figure   // every number the title and evidence state
	Parts    []Segment  // the title, e.g. "DB pool exhausted: ", figure, " of ", figure, " connections in use …"
	// FollowsTarget marks a finding about the generator or its host lowered
	// to follow the target's own errors or slowdown (generatoralso.go): it
	// does not say the figures are not the target's, so a capacity step
	// is judged on them.
	FollowsTarget bool `json:",omitempty"`
}

// Evidence is one observed value that supports a finding.
type Evidence struct {
	Source string    // its main figure's source: a series key, e.g. `hikaricp_connections_pending{role="app"}`, or a client metric, e.g. "http_reqs"
	Sec    int       // the last second its main figure covers
	Value  float64   // its main figure's value (seconds for durations, a fraction for shares)
	Figure int       // its main figure, by index into the finding's Figures
	Parts  []Segment // what it shows, as words, names and figures
}

// Diagnose runs every rule over in and returns the findings, most severe
// first; among equals, the faults that explain others (every request
// failed, a failed check) come before their symptoms, the target's before
// a generator finding that follows them (FollowsTarget), then time order.
// A healthy run returns none.
func Diagnose(in Input) []Finding {
	c := newContext(in)
	var fs []Finding
	for _, rule := range []func(*context) []Finding{
		allFailedRule, checkFailed, saturation, poolExhaustion, cpuSaturation, generatorBound, targetHeldVUs, errorsAtLoad,
		moreVUsSameTPS, latencyDrift, gcPressure, goGCPressure, bimodalLatency, cpuThrottling, lateScaleOut, podRestarts, backendNotScaled, traceDBTail,
		nPlusOne,       // n-plus-one (nplusone.go)
		traceHTTPTail,  // trace-http-tail (httptail.go)
		cacheMiss,      // cache-miss (cachemiss.go)
		targetHostBusy, // target-host-busy (targethost.go)
	} {
		fs = append(fs, c.inUnit(rule(c))...)
	}
	fs = append(fs, c.inUnit(threadPoolFull(c, fs))...) // reads the saturation and pool findings
	fs = append(fs, c.inUnit(dbBusy(c, fs))...)         // as does this
	fs = append(fs, c.inUnit(cacheCPU(c, fs))...)       // and this
	fs = c.queueFromPool(fs)                            // a full pool's queue is not the host CPU's
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Severity != b.Severity {
			return a.Severity > b.Severity
		}
		if ra, rb := causeRank(a.Kind), causeRank(b.Kind); ra != rb {
			return ra < rb
		}
		if a.FollowsTarget != b.FollowsTarget {
			return b.FollowsTarget // the target's findings it follows lead, whenever they began
		}
		if a.From != b.From {
			return a.From < b.From
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return Join(a.Parts, a.Figures, rawValue) < Join(b.Parts, b.Figures, rawValue)
	})
	errorsFollowCause(fs)
	return fs
}

// causeRank orders findings of one severity: a run without answers, then a
// broken invariant, then the rest, which they explain.
func causeRank(kind string) int {
	switch kind {
	case KindAllFailed:
		return 0
	case KindCheckFailed:
		return 1
	}
	return 2
}
