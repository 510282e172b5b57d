package scrape

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// pgxpoolIBM is what github.com/IBM/pgxpoolprometheus's collector writes
// (its names, types and help, NewCollector(pool, {"db_name": "flags"})):
// a pool of 10, all acquired, 40 acquires that waited.
func pgxpoolIBM(waited, waitNs float64) string {
	return "# HELP pgxpool_acquire_count Cumulative count of successful acquires from the pool.\n" +
		"# TYPE pgxpool_acquire_count counter\n" + `pgxpool_acquire_count{db_name="flags"} 1000` + "\n" +
		"# HELP pgxpool_acquire_duration_ns Total duration of all successful acquires from the pool in nanoseconds.\n" +
		"# TYPE pgxpool_acquire_duration_ns counter\n" + `pgxpool_acquire_duration_ns{db_name="flags"} ` + formatFloat(waitNs) + "\n" +
		"# HELP pgxpool_acquired_conns Number of currently acquired connections in the pool.\n" +
		"# TYPE pgxpool_acquired_conns gauge\n" + `pgxpool_acquired_conns{db_name="flags"} 10` + "\n" +
		"# HELP pgxpool_canceled_acquire_count Cumulative count of acquires from the pool that were canceled by a context.\n" +
		"# TYPE pgxpool_canceled_acquire_count counter\n" + `pgxpool_canceled_acquire_count{db_name="flags"} 0` + "\n" +
		"# HELP pgxpool_constructing_conns Number of conns with construction in progress in the pool.\n" +
		"# TYPE pgxpool_constructing_conns gauge\n" + `pgxpool_constructing_conns{db_name="flags"} 0` + "\n" +
		"# HELP pgxpool_empty_acquire Cumulative count of successful acquires from the pool that waited for a resource to be released or constructed because the pool was empty.\n" +
		"# TYPE pgxpool_empty_acquire counter\n" + `pgxpool_empty_acquire{db_name="flags"} ` + formatFloat(waited) + "\n" +
		"# HELP pgxpool_idle_conns Number of currently idle conns in the pool.\n" +
		"# TYPE pgxpool_idle_conns gauge\n" + `pgxpool_idle_conns{db_name="flags"} 0` + "\n" +
		"# HELP pgxpool_max_conns Maximum size of the pool.\n" +
		"# TYPE pgxpool_max_conns gauge\n" + `pgxpool_max_conns{db_name="flags"} 10` + "\n" +
		"# HELP pgxpool_total_conns Total number of resources currently in the pool.\n" +
		"# TYPE pgxpool_total_conns gauge\n" + `pgxpool_total_conns{db_name="flags"} 10` + "\n" +
		"# TYPE go_goroutines gauge\ngo_goroutines 30\n"
}

// prefixedPool is a hand-written pgxpool collector under a prefix of its own.
func prefixedPool(waited, _ float64) string {
	return "# TYPE flagz_db_pool_acquired_conns gauge\nflagz_db_pool_acquired_conns 10\n" +
		"# TYPE flagz_db_pool_max_conns gauge\nflagz_db_pool_max_conns 10\n" +
		"# TYPE flagz_db_pool_empty_acquire_count_total counter\nflagz_db_pool_empty_acquire_count_total " + formatFloat(waited) + "\n" +
		"# TYPE flagz_db_pool_lease_seconds gauge\nflagz_db_pool_lease_seconds 3\n"
}

// TestGoPresetKeepsPgxpool checks that the go preset keeps a pgxpool pool's
// series, IBM's names and the same suffixes under another prefix, its
// counters as per-second rates: 40 more acquires waited in 5 s, for 2 s.
func TestGoPresetKeepsPgxpool(t *testing.T) {
	tests := []struct {
		name   string
		text   func(waited, waitNs float64) string
		values map[string]string // kept series (labels of the target left out) and their kind and value
		names  []string          // every name kept, in order
	}{
		{"IBM pgxpoolprometheus", pgxpoolIBM, map[string]string{
			`pgxpool_acquired_conns{db_name="flags"}`:      "gauge 5=10",
			`pgxpool_max_conns{db_name="flags"}`:           "gauge 5=10",
			`pgxpool_empty_acquire{db_name="flags"}`:       "rate 5=8",
			`pgxpool_acquire_duration_ns{db_name="flags"}`: "rate 5=4e+08",
		}, []string{"go_goroutines", "pgxpool_acquire_count", "pgxpool_acquire_duration_ns", "pgxpool_acquired_conns",
			"pgxpool_canceled_acquire_count", "pgxpool_empty_acquire", "pgxpool_idle_conns", "pgxpool_max_conns", "pgxpool_total_conns"}},
		{"another prefix", prefixedPool, map[string]string{
			`flagz_db_pool_empty_acquire_count_total`: "rate 5=8",
		}, []string{"flagz_db_pool_acquired_conns", "flagz_db_pool_empty_acquire_count_total", "flagz_db_pool_max_conns"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := testTarget(t, "go")
			if _, err := tg.convert(context.Background(), []byte(tt.text(100, 1e9)), t0, 0); err != nil {
				t.Fatal(err)
			}
			got, err := tg.convert(context.Background(), []byte(tt.text(140, 3e9)), t0.Add(5*time.Second), 5)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			values := map[string]string{}
			for _, l := range lines(got) {
				key, rest, _ := strings.Cut(l, " ")
				values[key] = rest
				if name, _, _ := strings.Cut(key, "{"); !slices.Contains(names, name) {
					names = append(names, name)
				}
			}
			slices.Sort(names)
			if !slices.Equal(names, tt.names) {
				t.Errorf("kept names %q,\nwant %q", names, tt.names)
			}
			for k, want := range tt.values {
				if values[k] != want {
					t.Errorf("%s = %q, want %q", k, values[k], want)
				}
			}
		})
	}
}
