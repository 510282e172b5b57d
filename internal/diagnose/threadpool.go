package diagnose

import (
	"math"

	"github.com/loadlens/loadlens/internal/series"
)

// KindThreadPoolFull is a server's request thread pool (Tomcat's, Jetty's)
// with every thread busy while the target fell behind and its CPU idled:
// requests queued for a thread, not for the CPU.
const KindThreadPoolFull = "thread-pool-full"

// Thread-pool thresholds. Busy threads sit at the pool's maximum at most
// scrapes of the saturated span (trial A38's threads.max=4 read 4 at every
// scrape), and the process used under half of its CPU limit (9.4 % there):
// a pool full of threads that compute is the CPU's finding.
const (
	threadFullShare = 0.8
	threadCPULow    = 0.5
	threadMinScrape = 3
)

// threadPool is one server's request thread pool: its busy threads and,
// when scraped, its configured maximum.
type threadPool struct {
	server  string         // "Tomcat" or "Jetty"
	busy    *series.Series // threads busy with a request
	limit   *series.Series // the pool's configured maximum; nil when not scraped
	maxName string         // the name of the maximum's series, for a title when it was not scraped
	raise   string         // the setting that raises the maximum
}

// threadPools reads Micrometer's Tomcat and Jetty thread-pool gauges.
func (c *context) threadPools() []threadPool {
	var out []threadPool
	for _, s := range []struct{ server, busy, limit, raise string }{
		{"Tomcat", "tomcat_threads_busy_threads", "tomcat_threads_config_max_threads", "server.tomcat.threads.max"},
		{"Jetty", "jetty_threads_busy", "jetty_threads_config_max", "server.jetty.threads.max"},
	} {
		for _, busy := range c.set.Find(s.busy) {
			out = append(out, threadPool{server: s.server, busy: busy, limit: sibling(c.set, s.limit, busy), maxName: s.limit, raise: s.raise})
		}
	}
	return out
}

// threadPoolFull names a request thread pool as the bottleneck: over the
// seconds of a saturation finding, busy threads sat at the pool's maximum
// (or, without the maximum scraped, at the most they ever reached) while
// the process's CPU stayed low. A pool that filled because its threads
// waited for a DB connection is the pool finding's symptom: none then.
func threadPoolFull(c *context, fs []Finding) []Finding {
	sat := saturationUnlessPool(fs)
	if sat == nil {
		return nil
	}
	var out []Finding
	for _, p := range c.threadPools() {
		if f, ok := c.threadPoolFinding(p, sat.From, sat.To); ok {
			out = append(out, f)
		}
	}
	return out
}

// saturationUnlessPool is the first saturation finding of fs, or nil when
// there is none or a full connection pool was found: the pool's finding
// then names what the target waited on.
func saturationUnlessPool(fs []Finding) *Finding {
	var sat *Finding
	for i := range fs {
		if fs[i].Kind == KindPoolExhaustion {
			return nil
		}
		if fs[i].Kind == KindSaturation && sat == nil {
			sat = &fs[i]
		}
	}
	return sat
}

// ceiling is the pool's maximum as scraped at the span's start, else the
// most threads it had busy over the run, and whether it was scraped.
func (p threadPool) ceiling(from int) (float64, bool) {
	if p.limit != nil {
		if v, ok := valueAt(p.limit.Points, from); ok && v > 0 {
			return v, true
		}
	}
	most := math.Inf(-1)
	for _, pt := range p.busy.Points {
		most = max(most, pt.Value)
	}
	return most, false
}

func (c *context) threadPoolFinding(p threadPool, from, to int) (Finding, bool) {
	top, scraped := p.ceiling(from)
	var n, full int
	for _, pt := range p.busy.Points {
		if pt.Sec >= from && pt.Sec <= to {
			n++
			if pt.Value >= top {
				full++
			}
		}
	}
	if n < threadMinScrape || top < 1 || float64(full) < threadFullShare*float64(n) {
		return Finding{}, false
	}
	cpu, ok := c.processCPU(procOf(p.busy), from, to)
	if !ok || !(cpu.median < threadCPULow) {
		return Finding{}, false // a busy CPU is the CPU finding's
	}
	b := newBuilder(KindThreadPoolFull, Critical)
	who := roleName(p.busy)
	src := c.ofSeries(p.busy)
	med := b.add(c.fig(src, StatMedian, from, to, UnitCount, "threads busy over the saturated seconds (median)"))
	least := b.add(c.fig(src, StatMin, from, to, UnitCount, "the fewest threads busy over the saturated seconds"))
	scrapes := b.add(c.fig(src, StatCount, from, to, UnitCount, "scrapes of the busy threads over the saturated seconds"))
	onset := b.second(from, StatOnset, "the first second of the saturation finding")
	end := b.second(to, StatSecond, "the last second of the saturation finding")
	used := b.add(c.fig(cpu.source, StatMedian, from, to, UnitFraction, "the process's CPU use, "+cpu.what+" (median)"))
	var limit ref
	if scraped {
		sec, _ := pointAtOrBefore(p.limit.Points, from)
		limit = b.add(c.fig(c.ofSeries(p.limit), StatValue, sec, sec, UnitCount, "the pool's configured maximum threads"))
	} else {
		pts := p.busy.Points
		limit = b.add(c.fig(src, StatMax, pts[0].Sec, pts[len(pts)-1].Sec, UnitCount, "the most threads busy over the run"))
	}
	b.title(name(who), " request threads all busy: ", med, " of ", limit, " ", name(p.server), " threads from ", onset,
		" while ", name(who), " used ", used, " of its CPU: requests queued for a thread, not for the CPU")
	span := []any{scrapes, " scrapes from ", onset, " to ", end, " (the saturation finding's seconds): median ", med, ", fewest ", least, " busy"}
	if scraped {
		b.evidence(med, append(span, " of the pool's maximum of ", limit, " (", name(titled(p.limit)), ")")...)
	} else {
		b.evidence(med, append(span, "; ", limit, " is the most it ever had busy, its ceiling (the maximum itself, ", name(p.maxName), ", was not scraped)")...)
	}
	c.cpuLine(b, cpu, used, from, to)
	last := fullUntil(p.busy.Points, top, to)
	if last > to {
		held := b.second(last, StatSecond, "the last scrape of every thread busy after the saturation finding")
		b.evidence(held, "every thread stayed busy to ", held, ", after the saturation finding's seconds")
	}
	b.f.Remedies = threadPoolRemedies(p)
	return b.done(from, last), true // errors later in the held span follow the pool, not a busy host (trial 2: errors from 0:32)
}

// fullUntil is the last second of the scrapes after to that kept every
// thread busy (top), without a gap of one that did not; to when none.
func fullUntil(pts []series.Point, top float64, to int) int {
	last := to
	for _, pt := range pts {
		if pt.Sec <= to {
			continue
		}
		if pt.Value < top {
			break
		}
		last = pt.Sec
	}
	return last
}

// threadPoolRemedies are the remedies of a full request thread pool whose
// threads wait rather than compute.
func threadPoolRemedies(p threadPool) []string {
	return []string{
		"find what each request waits on while it holds a thread (a sleep, a remote call, a lock, a slow query) and shorten that wait: the threads are idle, not computing",
		"raise " + p.raise + " to at least the rate × the time a request holds its thread (Little's law), while the CPU and what the threads wait on have headroom",
		"make the handler non-blocking (Spring WebFlux, servlet async / DeferredResult, or virtual threads: spring.threads.virtual.enabled=true) so a waiting request holds no thread",
	}
}

// procCPU is a process's CPU use over some seconds, by its first CPU
// subject (a JVM's cores over its processors before its process_cpu_usage).
type procCPU struct {
	source, what, limit string
	label               string // the series for a title: "node_cpu_seconds_total, role=db"
	host                bool   // a host's CPU (node_exporter), every process on it counted
	median              float64
}

// processCPU returns the CPU use of the process proc over from–to.
func (c *context) processCPU(proc string, from, to int) (procCPU, bool) {
	if proc == "" {
		return procCPU{}, false
	}
	return c.subjectCPU(func(s cpuSubject) bool { return s.proc == proc }, from, to)
}

// subjectCPU is the CPU use over from–to of the first CPU subject that
// matches and was scraped then.
func (c *context) subjectCPU(match func(cpuSubject) bool, from, to int) (procCPU, bool) {
	for _, s := range c.cpuSubjects() {
		if !match(s) {
			continue
		}
		if m := aggregate(c.values(s.source), StatMedian, from, to); !math.IsNaN(m) {
			return procCPU{source: s.source, what: s.what, limit: s.limit, label: s.label, host: s.host != nil, median: m}, true
		}
	}
	return procCPU{}, false
}

// cpuLine states a process's CPU use meanwhile: low, so not what it waited on.
func (c *context) cpuLine(b *builder, cpu procCPU, used ref, from, to int) {
	if cpu.limit != "" {
		l := b.add(c.fig(cpu.limit, StatMedian, from, to, UnitCores, "the cores the process may use"))
		b.evidence(used, "its CPU: ", used, " of the ", l, " it may use (median): the threads waited, they did not compute")
		return
	}
	b.evidence(used, "its CPU: ", used, " ", cpu.what, " (median): the threads waited, they did not compute")
}
