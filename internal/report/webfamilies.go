package report

import (
	"slices"
	"strings"

	"github.com/loadlens/loadlens/internal/units"
)

// The units the pages format a series' values in.
const (
	unitCount   = "count"   // a plain number: connections, requests per second
	unitBytes   = "bytes"   // bytes, or bytes per second for a rate
	unitSeconds = "seconds" // a duration in seconds, shown as ms or s
	unitRatio   = "ratio"   // 0..1, shown as a percentage
	unitCores   = "cores"   // CPU cores busy
)

// member is one metric of a chart family and its legend label; an empty
// label means the series' own distinguishing labels name it.
type member struct{ name, label string }

// family is one chart of related metrics that read in the same unit, so
// that e.g. a pool's active, idle, pending and max connections share one
// chart. Families are looked up by metric name.
type family struct {
	chart, title, unit string
	rank               int      // order of the chart within its group
	members            []member // in legend order, the most telling first
	limits             []string // metric names drawn as a limit (dashed, grey)
	perSec             bool     // values are counts in each second of the run (see SeriesMeta.PerSec)
}

// chartFamilies lists the charts of the usual series: those of the
// presets (docs/test-format.md) and the generator's own. A metric not
// listed gets a chart of its own. u is what the run's samples count, which
// the agents' charts are titled in.
func chartFamilies(u units.Unit) []family {
	return slices.Concat(serviceFamilies(), kubeFamilies(), generatorFamilies(u.Or()))
}

// serviceFamilies are the charts of the services' presets: pools, CPU,
// memory, GC, HTTP, the node, Postgres and Redis.
func serviceFamilies() []family {
	return []family{
		{chart: "pool", title: "DB connection pool", unit: unitCount, rank: 10, members: []member{
			{"hikaricp_connections_active", "active"}, {"hikaricp_connections_pending", "pending"},
			{"hikaricp_connections_idle", "idle"}, {"hikaricp_connections_max", "max"},
			{"go_sql_in_use_connections", "in use"}, {"go_sql_idle_connections", "idle"},
			{"go_sql_open_connections", "open"}, {"go_sql_max_open_connections", "max open"},
			// pgx's pool (github.com/IBM/pgxpoolprometheus) and OpenTelemetry's db.client pool, which the pool finding reads too
			{"pgxpool_acquired_conns", "in use"}, {"pgxpool_idle_conns", "idle"},
			{"pgxpool_total_conns", "open"}, {"pgxpool_max_conns", "max"},
			{"db_client_connections_usage", ""}, {"db_client_connections_pending_requests", "pending"},
			{"db_client_connections_max", "max"},
		}, limits: []string{"hikaricp_connections_max", "go_sql_max_open_connections", "pgxpool_max_conns", "db_client_connections_max"}},
		{chart: "pool-waits", title: "DB pool waits", unit: unitCount, rank: 11, members: []member{
			{"hikaricp_connections_timeout_total", "timeouts/s"}, {"go_sql_wait_count_total", "waits/s"},
			{"pgxpool_empty_acquire", "waits/s"}, {"pgxpool_canceled_acquire_count", "cancelled/s"},
		}},
		// Wait time is added as each wait ends: its rate is seconds waited per
		// second, not a number of waiters (docs/findings.md), so it has a chart
		// of its own rather than a count's axis.
		{chart: "pool-wait-time", title: "DB pool wait time, seconds waited per second", unit: unitCount, rank: 12, members: []member{
			{"go_sql_wait_duration_seconds_total", "s waited/s (added as waits end)"},
		}},
		{chart: "cpu-share", title: "CPU use", unit: unitRatio, rank: 20, members: []member{
			{"process_cpu_usage", "process"}, {"system_cpu_usage", "system"},
		}},
		{chart: "cpu-cores", title: "CPU, cores busy", unit: unitCores, rank: 21, members: []member{
			{"process_cpu_seconds_total", "process"}, {"node_cpu_seconds_total", ""}, {"node_cpu_count", "CPUs"},
			{"cpu_limit", "limit"},
		}, limits: []string{"node_cpu_count", "cpu_limit"}},
		{chart: "memory", title: "Memory", unit: unitBytes, rank: 30, members: []member{
			{"jvm_memory_used_bytes", "used"}, {"node_memory_MemAvailable_bytes", "available"},
			{"node_memory_MemTotal_bytes", "total"}, {"redis_memory_used_bytes", "used"},
		}, limits: []string{"node_memory_MemTotal_bytes"}},
		{chart: "gc-time", title: "GC pauses, share of time", unit: unitRatio, rank: 31, members: []member{
			{"jvm_gc_pause_seconds_sum", "paused"}, {"go_gc_duration_seconds_sum", "paused"},
		}},
		{chart: "gc-count", title: "GC pauses per second", unit: unitCount, rank: 32, members: []member{
			{"jvm_gc_pause_seconds_count", "pauses/s"}, {"go_gc_duration_seconds_count", "pauses/s"},
		}},
		{chart: "http-rate", title: "Server requests per second", unit: unitCount, rank: 40, members: []member{
			{"http_server_requests_seconds_count", ""},
		}},
		{chart: "http-busy", title: "Server requests in progress (avg)", unit: unitCount, rank: 41, members: []member{
			{"http_server_requests_seconds_sum", ""},
		}},
		{chart: "threads", title: "Threads and goroutines", unit: unitCount, rank: 42, members: []member{
			{"tomcat_threads_busy_threads", "busy threads"}, {"go_goroutines", "goroutines"},
		}},
		{chart: "network", title: "Network per second", unit: unitBytes, rank: 50, members: []member{
			{"node_network_receive_bytes_total", "received"}, {"node_network_transmit_bytes_total", "sent"},
		}},
		{chart: "load", title: "Load average", unit: unitCount, rank: 51, members: []member{{"node_load1", "1 min"}}},
		{chart: "pg-conn", title: "Postgres connections", unit: unitCount, rank: 60, members: []member{
			{"pg_stat_activity_count", ""}, {"pg_settings_max_connections", "max"},
		}, limits: []string{"pg_settings_max_connections"}},
		{chart: "pg-xact", title: "Postgres transactions per second", unit: unitCount, rank: 61, members: []member{
			{"pg_stat_database_xact_commit", "commits"}, {"pg_stat_database_xact_rollback", "rollbacks"},
		}},
		{chart: "pg-blocks", title: "Postgres blocks per second", unit: unitCount, rank: 62, members: []member{
			{"pg_stat_database_blks_read", "read"}, {"pg_stat_database_blks_hit", "hit"},
		}},
		{chart: "redis-ops", title: "Redis operations per second", unit: unitCount, rank: 70, members: []member{
			{"redis_commands_processed_total", "commands"}, {"redis_keyspace_hits_total", "hits"},
			{"redis_keyspace_misses_total", "misses"}, {"redis_evicted_keys_total", "evictions"},
		}},
		{chart: "redis-clients", title: "Redis clients", unit: unitCount, rank: 71, members: []member{
			{"redis_connected_clients", "clients"},
		}},
	}
}

// kubeFamilies are the charts of the Kubernetes presets, the exporters'
// backends and the scrape itself.
func kubeFamilies() []family {
	return []family{
		{chart: "kube-replicas", title: "Replicas", unit: unitCount, rank: 80, members: []member{
			{"kube_deployment_status_replicas_available", "available"}, {"kube_deployment_status_replicas", "created"},
			{"kube_deployment_spec_replicas", "wanted"}, {"kube_horizontalpodautoscaler_status_desired_replicas", "HPA desired"},
			{"kube_horizontalpodautoscaler_status_current_replicas", "HPA current"},
			{"kube_horizontalpodautoscaler_spec_min_replicas", "HPA min"}, {"kube_horizontalpodautoscaler_spec_max_replicas", "HPA max"},
		}, limits: []string{"kube_horizontalpodautoscaler_spec_max_replicas"}},
		{chart: "kube-phases", title: "Pods by phase", unit: unitCount, rank: 81, members: []member{{"kube_pod_status_phase", ""}}},
		{chart: "kube-restarts", title: "Restarts and OOM kills (counts)", unit: unitCount, rank: 82, members: []member{
			{"kube_pod_container_status_restarts_total", ""}, {"container_oom_events_total", ""},
		}},
		{chart: "container-cpu", title: "Container CPU, cores busy", unit: unitCores, rank: 83, members: []member{
			{"container_cpu_usage_seconds_total", ""},
		}},
		{chart: "container-cfs", title: "Container CFS periods per second", unit: unitCount, rank: 84, members: []member{
			{"container_cpu_cfs_throttled_periods_total", "throttled"}, {"container_cpu_cfs_periods_total", "periods"},
		}},
		{chart: "cgroup-cpu", title: "CPU of the cgroup's quota, cores (read by loadlens)", unit: unitCores, rank: 84, members: []member{
			{"loadlens_cgroup_cpu_usage_seconds_total", "used"}, {"loadlens_cgroup_cpu_throttled_seconds_total", "held back"}, {"loadlens_cgroup_cpu_quota_cores", "quota"},
		}, limits: []string{"loadlens_cgroup_cpu_quota_cores"}},
		{chart: "cgroup-cfs", title: "CFS periods per second of the cgroup's quota (read by loadlens)", unit: unitCount, rank: 84, members: []member{
			{"loadlens_cgroup_cpu_throttled_periods_total", "throttled"}, {"loadlens_cgroup_cpu_periods_total", "periods"},
		}},
		{chart: "container-memory", title: "Container memory (working set)", unit: unitBytes, rank: 85, members: []member{
			{"container_memory_working_set_bytes", ""},
		}},
		{chart: "backend-up", title: "Exporter's backend up (1) or down (0)", unit: unitCount, rank: 90, members: []member{
			{"pg_up", "postgres"}, {"redis_up", "redis"},
		}},
		{chart: "scrape", title: "Scrape duration", unit: unitSeconds, rank: 99, members: []member{
			{"scrape_duration_seconds", "scrape"},
		}},
	}
}

// generatorFamilies are the charts of loadlens's own series and its agents',
// whose samples are counted in u ("Per agent: calls per second").
func generatorFamilies(u units.Unit) []family {
	return []family{
		{chart: "gen-cpu", title: "CPU, cores busy", unit: unitCores, rank: 1, members: []member{
			{"loadlens_cpu_cores", "used"}, {"loadlens_cpu_capacity", "capacity"}, {"loadlens_own_cgroup_cpu_throttled_seconds_total", "held back by its quota"}, {"loadlens_own_cgroup_cpu_quota_cores", "quota"},
		}, limits: []string{"loadlens_cpu_capacity"}},
		{chart: "gen-cfs", title: "CFS periods per second of its container's CPU quota", unit: unitCount, rank: 1, members: []member{
			{"loadlens_own_cgroup_cpu_throttled_periods_total", "throttled"}, {"loadlens_own_cgroup_cpu_periods_total", "periods"},
		}},
		{chart: "gen-host", title: "Host CPU, cores busy (every process)", unit: unitCores, rank: 1, members: []member{
			{"loadlens_host_cpu_cores", "busy"}, {"loadlens_host_steal_cores", "steal"}, {"loadlens_host_cpus", "CPUs"},
		}, limits: []string{"loadlens_host_cpus"}},
		{chart: "gen-lag", title: "Scheduler lag (p99)", unit: unitSeconds, rank: 2, members: []member{
			{"loadlens_scheduler_lag_p99_s", "lag p99"},
		}},
		{chart: "gen-stall", title: "Goroutines' wait for a CPU (p99)", unit: unitSeconds, rank: 2, members: []member{
			{"loadlens_sched_latency_p99_s", "wait p99"},
		}},
		{chart: "gen-cpu-wait", title: "Threads' wait for a CPU, cores", unit: unitCores, rank: 2, members: []member{
			{"loadlens_cpu_wait_cores", "waiting"},
		}},
		{chart: "gen-bytes", perSec: true, title: "Data per second", unit: unitBytes, rank: 3, members: []member{
			{"loadlens_received_bytes", "received"}, {"loadlens_sent_bytes", "sent"},
		}},
		{chart: "agent-iterations", perSec: true, title: "Per agent: iterations per second", unit: unitCount, rank: 5, members: []member{
			{"loadlens_agent_iterations", "achieved"}, {"loadlens_agent_offered", "offered"},
		}, limits: []string{"loadlens_agent_offered"}},
		{chart: "agent-requests", perSec: true, title: "Per agent: " + u.Many + " per second", unit: unitCount, rank: 6, members: []member{{"loadlens_agent_requests", ""}}},
		{chart: "agent-cpu-share", title: "Per agent: CPU, share of its cores", unit: unitRatio, rank: 7, members: []member{{"loadlens_agent_cpu_share", ""}}},
		{chart: "agent-cpu", title: "Per agent: CPU, cores busy", unit: unitCores, rank: 8, members: []member{{"loadlens_agent_cpu_cores", ""}}},
		{chart: "agent-host", title: "Per agent: its host's CPU, cores busy (every process)", unit: unitCores, rank: 8, members: []member{
			{"loadlens_agent_host_cpu_cores", "busy"}, {"loadlens_agent_host_cpus", "CPUs"},
		}, limits: []string{"loadlens_agent_host_cpus"}},
		{chart: "agent-lag", title: "Per agent: scheduler lag (p99)", unit: unitSeconds, rank: 9, members: []member{{"loadlens_agent_lag_p99_s", ""}}},
		{chart: "agent-stall", title: "Per agent: goroutines' wait for a CPU (p99)", unit: unitSeconds, rank: 9, members: []member{{"loadlens_agent_sched_latency_p99_s", ""}}},
		{chart: "agent-dropped", perSec: true, title: "Per agent: dropped iterations per second", unit: unitCount, rank: 10, members: []member{{"loadlens_agent_dropped", ""}}},
		{chart: "agent-errors", perSec: true, title: "Per agent: failed " + u.Many + " per second", unit: unitCount, rank: 11, members: []member{{"loadlens_agent_errors", ""}}},
		{chart: "gen-procs", title: "Goroutines and open files", unit: unitCount, rank: 4, members: []member{
			{"loadlens_goroutines", "goroutines"}, {"loadlens_open_fds", "open files and sockets"},
		}},
	}
}

// familyIndex maps metric names to their family and their member's place in it.
type familyIndex map[string]familyMember

type familyMember struct {
	fam   *family
	order int
}

func newFamilyIndex(u units.Unit) familyIndex {
	fams := chartFamilies(u)
	idx := familyIndex{}
	for i := range fams {
		for k, m := range fams[i].members {
			idx[m.name] = familyMember{&fams[i], k}
		}
	}
	return idx
}

// isLimit reports whether name is drawn as a limit in f.
func (f *family) isLimit(name string) bool {
	for _, l := range f.limits {
		if l == name {
			return true
		}
	}
	return false
}

// ownChart is the chart of a metric no family lists: its own, titled by
// its name, in a unit guessed from the Prometheus naming conventions.
func ownChart(name string, rate bool) family {
	f := family{chart: "m:" + name, title: name, unit: unitCount, rank: 100}
	switch {
	case strings.HasSuffix(name, "_bytes") || strings.HasSuffix(name, "_bytes_total"):
		f.unit = unitBytes
	case strings.HasSuffix(name, "_ratio"):
		f.unit = unitRatio
	case strings.HasSuffix(name, "_seconds") && !rate:
		f.unit = unitSeconds
	}
	if rate {
		f.title += " per second"
	}
	return f
}
