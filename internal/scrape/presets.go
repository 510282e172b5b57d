package scrape

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/plan"
)

// presetSpec is one line of a preset: a selector, kept as exposed unless
// it sums (sumBy, possibly empty) or counts distinct label values.
type presetSpec struct {
	sel        string
	sumBy      []string // non-nil: sum over every label but these
	countLabel string   // set: count the distinct values of this label...
	as         string   // ...into a gauge of this name
	scope      scope    // the Kubernetes objects the target's kube section narrows it to
	count      bool     // a counter of rare events (restarts, OOM kills), kept as its value: whole events, not a rate
	rate       bool     // an untyped counter (mysqld_exporter's SHOW GLOBAL STATUS), kept as its per-second rate
}

// scope says which labels of a Kubernetes preset's series name the
// workload, so the target's kube section can select it.
type scope uint8

// The scopes of Kubernetes series.
const (
	scopeNone       scope = iota
	scopeDeployment       // namespace and deployment
	scopeHPA              // namespace and horizontalpodautoscaler
	scopePod              // namespace and pod (by prefix)
)

// presetSpecs returns what a preset keeps; docs/test-format.md lists the
// same. Counters (and the _sum and _count of summaries and histograms)
// become per-second rates wherever they are kept.
func presetSpecs(name string) ([]presetSpec, bool) {
	switch name {
	case "spring": // Spring Boot Actuator with Micrometer's Prometheus registry
		return []presetSpec{
			{sel: "hikaricp_connections_active"},
			{sel: "hikaricp_connections_idle"},
			{sel: "hikaricp_connections_pending"},
			{sel: "hikaricp_connections_max"},
			{sel: "hikaricp_connections_timeout_total"},
			{sel: "process_cpu_usage"},
			{sel: "system_cpu_usage"},
			{sel: "process_cpu_time_ns_total"}, // Micrometer 1.13+: the cores the JVM used, as a rate
			{sel: "system_cpu_count"},          // the processors the JVM may use: its pinning, its quota rounded up
			{sel: "jvm_memory_used_bytes"},
			{sel: "jvm_gc_pause_seconds"},
			{sel: "http_server_requests_seconds"},
			{sel: "tomcat_threads_busy_threads"},
			{sel: "tomcat_threads_config_max_threads"}, // the pool's maximum: busy at it is the thread-pool-full rule
			{sel: "jetty_threads_busy"},                // Jetty's pool, as Micrometer names it
			{sel: "jetty_threads_config_max"},
			{sel: "cache_gets_total"}, // Spring Cache's hits and misses (spring.cache.redis.enable-statistics=true): the cache-miss rule
		}, true
	case "node": // prometheus node_exporter
		return []presetSpec{
			{sel: "node_cpu_seconds_total", sumBy: []string{"mode"}},
			{sel: "node_cpu_seconds_total", countLabel: "cpu", as: "node_cpu_count"},
			// each CPU's idle and iowait: a target pinned to one core starved by a
			// neighbour there shows only as that core full (target-host-busy)
			{sel: `node_cpu_seconds_total{mode="idle"}`},
			{sel: `node_cpu_seconds_total{mode="iowait"}`},
			{sel: "node_memory_MemAvailable_bytes"},
			{sel: "node_memory_MemTotal_bytes"},
			{sel: "node_network_receive_bytes_total"},
			{sel: "node_network_transmit_bytes_total"},
			{sel: "node_load1"},
			{sel: "node_disk_io_time_seconds_total"}, // each device's busy seconds a second: a DB waiting on its disk
		}, true
	case "postgres": // prometheus-community postgres_exporter
		return []presetSpec{
			{sel: "pg_stat_activity_count", sumBy: []string{"state"}},
			// pg_locks rows of a database by mode, granted or waiting: the sessions queued for one row hold its tuple lock (exclusivelock)
			{sel: "pg_locks_count", sumBy: []string{"mode"}},
			{sel: "pg_stat_database_xact_commit"},
			{sel: "pg_stat_database_xact_rollback"},
			{sel: "pg_stat_database_blks_read"},
			{sel: "pg_stat_database_blks_hit"},
			{sel: "pg_up"},
			{sel: "pg_settings_max_connections"},
		}, true
	case "mysql": // prometheus mysqld_exporter, before MySQL or MariaDB
		return mysqlPresetSpecs(), true
	case "redis": // oliver006 redis_exporter
		return redisPresetSpecs(), true
	case "go": // a Go service with client_golang's Go, process and DBStats collectors
		return goPresetSpecs(), true
	}
	return kubePresetSpecs(name)
}

// goPresetSpecs is what the go preset keeps: database/sql's and pgx's pools,
// the process's CPU and the Go runtime's own figures.
func goPresetSpecs() []presetSpec {
	return []presetSpec{
		{sel: "go_sql_max_open_connections"},
		{sel: "go_sql_open_connections"},
		{sel: "go_sql_in_use_connections"},
		{sel: "go_sql_idle_connections"},
		{sel: "go_sql_wait_count_total"},
		{sel: "go_sql_wait_duration_seconds_total"},
		// a pgx pool, as github.com/IBM/pgxpoolprometheus names it: acquired of max, the acquires
		// that waited (empty_acquire) and every acquire's nanoseconds, counters kept as rates
		{sel: "pgxpool_acquired_conns"},
		{sel: "pgxpool_idle_conns"},
		{sel: "pgxpool_total_conns"},
		{sel: "pgxpool_max_conns"},
		{sel: "pgxpool_empty_acquire"},
		{sel: "pgxpool_acquire_duration_ns"},
		{sel: "pgxpool_acquire_count"},
		{sel: "pgxpool_canceled_acquire_count"},
		// the suffixes the pool finding reads, under a hand-written collector's own prefix
		{sel: `{__name__=~".*(acquired_conns|max_conns|empty_acquire(_count)?(_total)?|acquire_duration_ns|canceled_acquire_count)"}`},
		{sel: "go_goroutines"},
		{sel: "process_cpu_seconds_total"},
		// the cores Go may run on at once: its affinity, or (Go 1.25+) its
		// cgroup quota rounded up; the CPU rules judge the process against it
		{sel: "go_sched_gomaxprocs_threads"},
		{sel: "go_gc_duration_seconds"},
		// the GC's settings and what GOMEMLIMIT counts (Sys − HeapReleased): the
		// go-gc-pressure rule reads the effective GOGC from them (client_golang 1.20+ defaults)
		{sel: "go_gc_gogc_percent"},
		{sel: "go_gc_gomemlimit_bytes"},
		{sel: "go_memstats_sys_bytes"},
		{sel: "go_memstats_heap_released_bytes"},
	}
}

// kubePresetSpecs returns what a Kubernetes preset keeps, each series
// scoped to the workload the test names.
func kubePresetSpecs(name string) ([]presetSpec, bool) {
	switch name {
	case plan.PresetKubeStateMetrics: // kube-state-metrics v2
		return []presetSpec{
			{sel: "kube_deployment_spec_replicas", scope: scopeDeployment},
			{sel: "kube_deployment_status_replicas", scope: scopeDeployment},
			{sel: "kube_deployment_status_replicas_available", scope: scopeDeployment},
			{sel: "kube_horizontalpodautoscaler_status_current_replicas", scope: scopeHPA},
			{sel: "kube_horizontalpodautoscaler_status_desired_replicas", scope: scopeHPA},
			{sel: "kube_horizontalpodautoscaler_spec_min_replicas", scope: scopeHPA},
			{sel: "kube_horizontalpodautoscaler_spec_max_replicas", scope: scopeHPA},
			{sel: `kube_horizontalpodautoscaler_spec_target_metric{metric_name="cpu"}`, scope: scopeHPA},
			{sel: "kube_pod_status_phase", sumBy: []string{"phase"}, scope: scopePod},
			{sel: "kube_pod_container_status_restarts_total", scope: scopePod, count: true},
			{sel: `kube_pod_container_status_last_terminated_reason{reason="OOMKilled"}`, scope: scopePod},
			{sel: `kube_pod_container_resource_limits{resource=~"cpu|memory"}`, scope: scopePod},
		}, true
	case plan.PresetCAdvisor: // the kubelet's /metrics/cadvisor; container="" is the pod's cgroup or its sandbox
		by := []string{"namespace", "pod", "container"}
		own := `{container!="",container!="POD"}`
		return []presetSpec{
			{sel: "container_cpu_usage_seconds_total" + own, sumBy: by, scope: scopePod},
			{sel: "container_cpu_cfs_periods_total" + own, sumBy: by, scope: scopePod},
			{sel: "container_cpu_cfs_throttled_periods_total" + own, sumBy: by, scope: scopePod},
			{sel: "container_memory_working_set_bytes" + own, sumBy: by, scope: scopePod},
			{sel: "container_oom_events_total" + own, sumBy: by, scope: scopePod, count: true},
		}, true
	}
	return nil, false
}

// scoped adds to a selector the matchers of the workload kube names: the
// namespace always, the deployment or HPA when named, pods by prefix.
func scoped(sel string, sc scope, kube *plan.KubeSelect) string {
	if sc == scopeNone || kube == nil {
		return sel
	}
	ms := []string{"namespace=" + strconv.Quote(kube.Namespace)}
	switch {
	case sc == scopeDeployment && kube.Deployment != "":
		ms = append(ms, "deployment="+strconv.Quote(kube.Deployment))
	case sc == scopeHPA && kube.HPA != "":
		ms = append(ms, "horizontalpodautoscaler="+strconv.Quote(kube.HPA))
	case sc == scopePod && kube.Pods != "":
		ms = append(ms, "pod=~`"+regexp.QuoteMeta(kube.Pods)+".*`")
	}
	if rest, ok := strings.CutSuffix(sel, "}"); ok {
		return rest + "," + strings.Join(ms, ",") + "}"
	}
	return sel + "{" + strings.Join(ms, ",") + "}"
}

// mysqlPresetSpecs is what the mysql preset keeps of mysqld_exporter. It
// exposes SHOW GLOBAL STATUS untyped, counters without _total among them.
func mysqlPresetSpecs() []presetSpec {
	return []presetSpec{
		{sel: "mysql_up"},
		// threads executing or waiting inside the DB (the exporter's own among them), and connected: a full pool's DB side
		{sel: "mysql_global_status_threads_running"},
		{sel: "mysql_global_status_threads_connected"},
		{sel: "mysql_global_status_innodb_row_lock_current_waits"}, // InnoDB row locks being waited for: the pool finding's row lock
		{sel: "mysql_global_status_innodb_row_lock_waits", rate: true},
		{sel: "mysql_global_status_queries", rate: true},
		{sel: "mysql_global_status_slow_queries", rate: true},
		{sel: "mysql_global_variables_max_connections"},
	}
}

// redisPresetSpecs is what the redis preset keeps of redis_exporter.
func redisPresetSpecs() []presetSpec {
	return []presetSpec{
		{sel: "redis_memory_used_bytes"},
		{sel: "redis_commands_processed_total"},
		{sel: "redis_evicted_keys_total"},
		{sel: "redis_connected_clients"},
		{sel: "redis_keyspace_hits_total"},
		{sel: "redis_keyspace_misses_total"},
		{sel: "redis_up"},
		// Redis's CPU seconds, its main thread's apart (Redis 7): commands and
		// scripts run on that one thread, so one core of it is saturated (cache-cpu)
		{sel: "redis_cpu_user_seconds_total"},
		{sel: "redis_cpu_sys_seconds_total"},
		{sel: "redis_cpu_user_main_thread_seconds_total"},
		{sel: "redis_cpu_sys_main_thread_seconds_total"},
	}
}
