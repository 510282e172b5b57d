package diagnose

import (
	"slices"
	"strings"

	"github.com/loadlens/loadlens/internal/units"
)

// remediesFor returns the usual remedies of a finding kind, in the order
// case study 1 applied them: fix the logic or query, then cache, then add
// resources, then change the architecture. Cheaper fixes come first
// because they often move the bottleneck by themselves.
func remediesFor(kind string) []string { return slices.Clone(remedies[kind]) }

// inUnit words fs's remedies and its figures' labels (Figure.What, in the
// findings JSON and the report) in the run's unit (c.counts): "{requests}"
// reads "calls" in a gRPC test and "sessions" in a WebSocket or SSE one,
// "requests" in an HTTP one. It copies each list, as rules may share one.
func (c *context) inUnit(fs []Finding) []Finding {
	r := c.unitWords()
	for i := range fs {
		fs[i].Figures = unitLabels(r, fs[i].Figures)
		if fs[i].Remedies == nil {
			continue
		}
		out := make([]string, len(fs[i].Remedies))
		for k, s := range fs[i].Remedies {
			out[k] = r.Replace(s)
		}
		fs[i].Remedies = out
	}
	return fs
}

// unitLabels words figs' labels with r, in place: each finding owns its figures.
func unitLabels(r *strings.Replacer, figs []Figure) []Figure {
	for k := range figs {
		figs[k].What = r.Replace(figs[k].What)
	}
	return figs
}

// spreadRemedy is the generator's last remedy, worded otherwise for a run
// already spread over agents (agentRemedies).
const spreadRemedy = "spread the load over several generator machines"

// errorsWithTimeRemedies replace KindErrorsAtLoad's remedies when the load
// that failed was served before without errors: time brought the failures,
// so the load-level remedies (a limit reached, fewer requests) miss them.
var errorsWithTimeRemedies = []string{
	"read the error samples of the first failing second and the target's logs at that time: errors at a load it served before come with time, not load",
	"look for something used up over time: a leak (memory, goroutines or threads), a pool of connections, threads or file descriptors not given back or held longer as something behind it slowed, a queue or disk that filled",
	"check what expires or changes on a clock: a token, session or certificate, a cache or DNS entry, a scheduled job (a backup, a batch, a cron) at that time",
	"check the dependencies at that time (their errors, latency, restarts) and whether a deploy, restart, failover or config reload happened then",
	"re-run longer at the same constant load: failures that return at the same elapsed time, or after the same number of {requests}, point to a leak or a limit that counts",
}

// outcomeRemedies replace KindBimodalLatency's remedies when failures could
// make up one of the modes: a cache or a slow path is no guess to rest on
// them. u is what the modes time: gRPC calls read grpc_req_duration, which
// has no expected_response filter (threshold.filterKeys), so no successes'
// histogram to point to; requests read http_req_duration's.
func outcomeRemedies(u units.Unit) []string {
	if u == units.Calls {
		return []string{
			"read the errors finding first: failed calls (UNAVAILABLE from a full server, a refused connection) answer fast, DEADLINE_EXCEEDED slow",
			"read the successful calls' latency beside the share that failed: grpc_req_duration times the failed calls too and takes no expected_response filter, and a percentile on it fails once more calls failed than it leaves out",
			outcomeRerun,
		}
	}
	return []string{
		"read the errors finding first: failed requests (a 503 from a full server, a refused connection) answer fast, timeouts slow",
		"judge the latency of the successful requests alone: a threshold on http_req_duration{expected_response:true} keeps their own histogram",
		outcomeRerun,
	}
}

// outcomeRerun is outcomeRemedies' last, whatever the modes time.
const outcomeRerun = "once the failures are gone, re-run: modes that remain among successes are the ones to explain (a cache, a fast and a slow path)"

// remedies are the usual remedies of each finding kind, cheaper first.
var remedies = map[string][]string{
	KindSaturation: {
		"find what the {requests} wait on at the knee (CPU, DB pool, locks, GC: see the other findings) and make that code path or query cheaper",
		"cache or precompute what most {requests} read",
		"give the limiting resource more capacity (CPU, pool size, a larger DB instance)",
		"scale out the component at its limit, then re-run to find the next knee",
	},
	KindTraceDBTail: {
		"read these statements' plans (EXPLAIN ANALYZE) with the slow requests' parameters: a missing index, a scan that grows with the data, or one query per row (N+1)",
		"cache what they read, or precompute it, so the slow path stops querying",
		"compare the slowest traces (linked in the report) with the median ones: a lock wait or a pool wait shows as a statement that is slow only sometimes",
		"give the database more capacity only once the queries are as cheap as they can be",
	},
	KindNPlusOne: {
		"fetch the rows in one query: a join or an IN list (JPA: a fetch join, @EntityGraph, or @BatchSize / hibernate.default_batch_fetch_size on the association)",
		"cache what each row looks up (the authors, the categories) when it changes rarely",
		"check the fix in the spans: one statement per request instead of one per row",
	},
	KindTraceHTTPTail: {
		"read the slow calls' own traces at that host (the dependency's spans, or its latency at the same seconds): the time is spent there",
		"set a timeout on the calls no longer than the endpoint's budget, and a fallback or circuit breaker for when it is exceeded",
		"cache the dependency's answers, or call it off the request path (ahead of time, asynchronously)",
		"make independent calls in parallel rather than one after another",
	},
	KindCacheMiss: {
		"check that the cache is used as meant: the key (a new object or a timestamp in it never matches), the TTL (too short to be read twice), conditions such as unless/condition that skip it",
		"give it room for the working set: a cache that evicts what it was given before it is read again is too small (Redis maxmemory, Caffeine maximumSize)",
		"warm it before the load, or accept the misses of a key space too large to cache and make the read behind it cheaper",
	},
	KindCacheCold: {
		"find what emptied it at that second: a flush or restart of the cache (FLUSHALL, a deploy, an eviction storm), or keys written together that expired together (spread their TTLs)",
		"warm it again before the load returns (preload the hot keys), and keep a restart of the cache out of peak hours",
		"make a miss cheaper (the read behind the cache) or protect the store from a cold cache: one loader per key (request coalescing), a rate limit on misses",
	},
	KindPoolExhaustion: {
		"hold connections for less time: open the transaction after cache lookups and outside remote calls (case study 5: @Transactional took a connection before the cache was read)",
		"make the queries that hold connections faster (indexes, fewer round trips, no N+1)",
		"serve reads from a cache so fewer {requests} need a connection",
		"size the pool to what the DB can serve; a bigger pool only helps while the DB has CPU to spare",
		"move writes off the request path (a queue) or reads to replicas",
	},
	KindCPUSaturation: {
		"profile the busiest code or query and make it cheaper (case study 1: a heavy join with GROUP BY)",
		"cache or precompute results (an in-memory map, a materialized view refreshed periodically)",
		"give it more CPU: raise the container limit or use a larger instance (watch burstable instances' credits)",
		"scale out (more replicas, read replicas) and check that the autoscaler reacts before saturation",
	},
	KindTargetHostBusy: {
		"find what else ran on the target's CPUs (top or pidstat on its host, by process): another service, a batch job, a backup, a second test, loadlens itself on 127.0.0.1",
		"give the target CPUs of its own (a cpuset or taskset -c for it and other ones for the rest, a dedicated node or instance) and re-run",
		"read this run's latency as the service's on a shared host, not as its capacity",
	},
	KindGeneratorBound: {
		"do not use these figures for capacity: they measure loadlens's machine, not the target",
		"make the scenario cheaper per {request} (fewer extractions and checks, smaller bodies)",
		"give the generator more CPU, or run it on a machine of its own (more VUs would only wait for the same CPU)",
		spreadRemedy,
	},
	KindTargetHeldVUs: {
		"the target answered slowly or not at all: read its latency and errors (the other findings), not loadlens's, for the cause",
		"to offer the planned load anyway, raise max_vus to at least the rate × the slowest response time (the default max_vus does, with a second's margin)",
		"set a {request} timeout no longer than the slowest answer you accept: a hanging target then fails fast and frees its VU",
	},
	KindErrorsAtLoad: {
		"read the error samples of the first failing second: timeouts and 5xx that start at a load level usually mean a pool, thread or connection limit was reached",
		"fix the slow query or lock that holds that resource",
		"cache so that fewer {requests} need it",
		"raise the limit that is hit where the resource behind it has headroom, or shed load on purpose (rate limits, a queue)",
	},
	KindMoreVUsSameTPS: {
		"the system was already saturated: more VUs only queue (Little's law N = X·R); find what it waits on and make that cheaper",
		"cache what the {requests} read",
		"scale the component that did not scale (often the DB or cache, not the app)",
		"plan capacity from the measured throughput, not from the VU count",
	},
	KindLatencyDrift: {
		"look for what grows during the run: queries that scan growing tables (add indexes, paginate), unbounded queues, leaks",
		"bound caches by size and TTL",
		"check memory and GC over the run; give headroom where it is tight",
		"run longer, with a data set seeded at production size, to see where it levels off",
	},
	KindGCPressure: {
		"allocate less on the hot path (profile allocations; reuse buffers)",
		"cache results instead of rebuilding large objects per {request}",
		"give the heap room: raise the memory limit, -Xmx or GOMEMLIMIT/GOGC, or add CPU for the collector",
		"split the service so that memory-heavy work runs elsewhere",
	},
	KindCPUThrottled: {
		"make the hot path cheaper so bursts fit in the limit (profile the container under load)",
		"raise the container's CPU limit, or drop it and keep the request (throttling comes from the limit, not the node)",
		"for the JVM or Go, match the threads to the limit (-XX:ActiveProcessorCount, GOMAXPROCS) so a burst does not spend the quota early in each 100 ms period",
		"scale out on CPU before the limit is reached (see the HPA's target)",
	},
	KindLateScaleOut: {
		"lower the HPA's CPU target (for example 50–60 %) so scaling starts before saturation, not at it",
		"pre-scale for a known peak (minReplicas, a schedule) or scale on a leading signal ({requests} per second, queue depth) instead of CPU",
		"make new pods useful sooner: shorter start-up and readiness, JVM warm-up before readiness, a faster scale-up policy",
		"make each {request} cheaper so the same pods carry the peak (see the CPU findings)",
	},
	KindPodRestarts: {
		"read why the container stopped (kubectl describe pod: Last State, exit code 137 is a kill) and its logs before the restart",
		"for OOMKilled: lower the memory the hot path holds (caches, buffers, the JVM's heap and direct memory within the container limit)",
		"raise the memory limit to what the load needs, and set the JVM's -XX:MaxRAMPercentage or Go's GOMEMLIMIT below it",
		"do not read this run's figures as capacity: {requests} to the restarting pods failed or waited",
	},
	KindBackendBound: {
		"take load off the shared dependency: cache reads, fewer queries per {request}, batch writes",
		"give the DB or cache the capacity the app's replicas need (a larger or memory-optimised instance, not a burstable one that runs out of credits; read replicas; cluster mode)",
		"add an autoscaling policy to the DB or cache, or cap the app's replicas at what they can serve",
		"plan capacity for the whole path: more app pods only add waiting once the dependency is saturated",
	},
	KindBimodalLatency: {
		"look at the slow mode on its own: which endpoint, which keys, cache misses or a slow path",
		"raise the cache hit rate (warm it, longer TTLs) or make misses cheaper",
		"report the modes separately (a threshold per endpoint) so an average does not hide them",
	},
}
