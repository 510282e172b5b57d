package scrape

import (
	"context"
	"flag"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/series"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestPresetsPickTheirSeries converts each exporter's real exposition (see
// the comment atop each testdata/*.prom) twice, 5 s apart, so counters have
// rates (0: the same text twice), and compares what the preset keeps with
// testdata/<preset>.golden (go test -update rewrites it).
func TestPresetsPickTheirSeries(t *testing.T) {
	tests := []struct {
		preset string
		values map[string]float64 // some kept series (labels of the target left out) and their values
		names  []string           // every name kept, in order
	}{
		{"spring", map[string]float64{
			`hikaricp_connections_pending{pool="HikariPool-1"}`: 71,
			`hikaricp_connections_active{pool="HikariPool-1"}`:  10,
			`hikaricp_connections_max{pool="HikariPool-1"}`:     10,
			`process_cpu_usage`: 0.2318840579710145,
			`system_cpu_count`:  4,
			`tomcat_threads_busy_threads{name="http-nio-8080"}`:       200,
			`tomcat_threads_config_max_threads{name="http-nio-8080"}`: 200,
		}, []string{"hikaricp_connections_active", "hikaricp_connections_idle", "hikaricp_connections_max",
			"hikaricp_connections_pending", "hikaricp_connections_timeout_total", "http_server_requests_seconds_count",
			"http_server_requests_seconds_sum", "jvm_gc_pause_seconds_count", "jvm_gc_pause_seconds_sum",
			"jvm_memory_used_bytes", "process_cpu_time_ns_total", "process_cpu_usage", "system_cpu_count", "system_cpu_usage",
			"tomcat_threads_busy_threads", "tomcat_threads_config_max_threads"}},
		{"node", map[string]float64{
			`node_cpu_count`:                 2,
			`node_load1`:                     1.96,
			`node_memory_MemTotal_bytes`:     2.5276510208e+10,
			`node_memory_MemAvailable_bytes`: 2.4187408384e+10,
		}, []string{"node_cpu_count", "node_cpu_seconds_total", "node_disk_io_time_seconds_total", "node_load1", "node_memory_MemAvailable_bytes",
			"node_memory_MemTotal_bytes", "node_network_receive_bytes_total", "node_network_transmit_bytes_total"}},
		{"postgres", map[string]float64{
			`pg_up`: 1,
			`pg_settings_max_connections{server="127.0.0.1:46209"}`: 100,
			`pg_stat_activity_count{state="idle"}`:                  1,
			`pg_locks_count{mode="accesssharelock"}`:                1, // the exporter's own query, summed over databases
		}, []string{"pg_locks_count", "pg_settings_max_connections", "pg_stat_activity_count", "pg_stat_database_blks_hit",
			"pg_stat_database_blks_read", "pg_stat_database_xact_commit", "pg_stat_database_xact_rollback", "pg_up"}},
		{"mysql", map[string]float64{
			`mysql_up`:                                          1,
			`mysql_global_status_threads_running`:               3, // the exporter's, the row's holder and the session queued on it
			`mysql_global_status_threads_connected`:             3,
			`mysql_global_status_innodb_row_lock_current_waits`: 1,
			`mysql_global_status_queries`:                       0, // untyped, kept as its rate: the same text twice
			`mysql_global_variables_max_connections`:            151,
		}, []string{"mysql_global_status_innodb_row_lock_current_waits", "mysql_global_status_innodb_row_lock_waits",
			"mysql_global_status_queries", "mysql_global_status_slow_queries", "mysql_global_status_threads_connected",
			"mysql_global_status_threads_running", "mysql_global_variables_max_connections", "mysql_up"}},
		{"redis", map[string]float64{
			`redis_up`:                1,
			`redis_connected_clients`: 1,
		}, []string{"redis_commands_processed_total", "redis_connected_clients", "redis_cpu_sys_main_thread_seconds_total",
			"redis_cpu_sys_seconds_total", "redis_cpu_user_main_thread_seconds_total", "redis_cpu_user_seconds_total", "redis_evicted_keys_total",
			"redis_keyspace_hits_total", "redis_keyspace_misses_total", "redis_memory_used_bytes", "redis_up"}},
		{"go", map[string]float64{
			`go_sql_max_open_connections{db_name="shop"}`: 2,
			`go_sql_open_connections{db_name="shop"}`:     2,
			`go_sched_gomaxprocs_threads`:                 2, // the process's: what its CPU is judged against
			`go_gc_gogc_percent`:                          100,
			`go_gc_gomemlimit_bytes`:                      9.223372036854776e+18, // math.MaxInt64: no limit set
			`go_memstats_sys_bytes`:                       1.42080296e+08,
		}, []string{"go_gc_duration_seconds_count", "go_gc_duration_seconds_sum", "go_gc_gogc_percent", "go_gc_gomemlimit_bytes",
			"go_goroutines", "go_memstats_heap_released_bytes", "go_memstats_sys_bytes", "go_sched_gomaxprocs_threads",
			"go_sql_idle_connections", "go_sql_in_use_connections", "go_sql_max_open_connections",
			"go_sql_open_connections", "go_sql_wait_count_total", "go_sql_wait_duration_seconds_total",
			"process_cpu_seconds_total"}},
	}
	for _, tt := range tests {
		t.Run(tt.preset, func(t *testing.T) {
			text, err := os.ReadFile("testdata/" + tt.preset + ".prom")
			if err != nil {
				t.Fatal(err)
			}
			tg := testTarget(t, tt.preset)
			if _, err := tg.convert(context.Background(), text, t0, 0); err != nil {
				t.Fatal(err)
			}
			got, err := tg.convert(context.Background(), text, t0.Add(5*time.Second), 5)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			values := map[string]float64{}
			for _, s := range got {
				if !slices.Contains(names, s.Name) {
					names = append(names, s.Name)
				}
				values[strings.SplitN(lines(series.Set{s})[0], " ", 2)[0]] = s.Points[0].Value
				if s.Points[0].Sec != 5 {
					t.Errorf("%s at second %d, want 5", s.Key(), s.Points[0].Sec)
				}
			}
			slices.Sort(names)
			if !slices.Equal(names, tt.names) {
				t.Errorf("kept names %q,\nwant %q", names, tt.names)
			}
			for k, want := range tt.values {
				if v, ok := values[k]; !ok || v != want {
					t.Errorf("%s = %v (kept %v), want %v", k, v, ok, want)
				}
			}
			golden(t, "testdata/"+tt.preset+".golden", strings.Join(lines(got), "\n")+"\n")
		})
	}
}

// golden compares got with a golden file, or rewrites it under -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("kept series differ from %s (go test -update rewrites it):\n%s", path, got)
	}
}

// TestEveryPlanPresetIsDefined keeps the names the parser accepts and the
// presets this package defines in step.
func TestEveryPlanPresetIsDefined(t *testing.T) {
	for _, name := range plan.ObservePresets() {
		t.Run(name, func(t *testing.T) {
			specs, ok := presetSpecs(name)
			if !ok || len(specs) == 0 {
				t.Fatalf("preset %s is accepted by the parser but not defined here", name)
			}
			for _, s := range specs {
				if _, err := plan.ParseSelector(s.sel); err != nil {
					t.Errorf("selector %s: %v", s.sel, err)
				}
			}
		})
	}
	if _, ok := presetSpecs("nope"); ok {
		t.Error("an unknown preset is defined")
	}
}
