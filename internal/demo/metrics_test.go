package demo

import (
	"net/http"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// scrape fetches and parses the shop's /metrics with Prometheus's own parser.
func scrape(t testing.TB, baseURL string) *exposition {
	t.Helper()
	resp, err := http.Get(baseURL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/plain; version=0.0.4; charset=utf-8" {
		t.Errorf("Content-Type %q; want the text format's", ct)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("the exposition does not parse: %v", err)
	}
	return &exposition{mfs: mfs}
}

func TestMetricsExposition(t *testing.T) {
	tg := startShop(t, small)
	for _, path := range []string{"/products/1", "/products/2", "/apps/first-page"} {
		do(t, "GET", tg.URL+path, "naive", "")
	}
	e := scrape(t, tg.URL)
	cases := []struct {
		name, typ string
		labels    []string
		atLeast   float64
	}{
		{"go_sql_max_open_connections", "GAUGE", []string{"db_name", "shop"}, 10},
		{"go_sql_open_connections", "GAUGE", []string{"db_name", "shop"}, 1},
		{"go_sql_in_use_connections", "GAUGE", []string{"db_name", "shop"}, 0},
		{"go_sql_idle_connections", "GAUGE", []string{"db_name", "shop"}, 1},
		{"go_sql_wait_count_total", "COUNTER", []string{"db_name", "shop"}, 0},
		{"go_sql_wait_duration_seconds_total", "COUNTER", []string{"db_name", "shop"}, 0},
		{"go_sql_max_idle_closed_total", "COUNTER", []string{"db_name", "shop"}, 0},
		{"go_sql_max_idle_time_closed_total", "COUNTER", []string{"db_name", "shop"}, 0},
		{"go_sql_max_lifetime_closed_total", "COUNTER", []string{"db_name", "shop"}, 0},
		{"demo_db_pool_timeouts_total", "COUNTER", []string{"db_name", "shop"}, 0},
		{"process_cpu_seconds_total", "COUNTER", nil, 1e-6},
		{"process_resident_memory_bytes", "GAUGE", nil, 1 << 20},
		{"go_goroutines", "GAUGE", nil, 2},
		{"go_threads", "GAUGE", nil, 1},
		{"go_memstats_alloc_bytes", "GAUGE", nil, 1},
		{"http_server_requests_seconds", "SUMMARY", []string{"method", "GET", "uri", "/products/{id}", "status", "200"}, 2},
		{"http_server_requests_seconds", "SUMMARY", []string{"method", "GET", "uri", "/apps/first-page", "status", "200"}, 1},
		{"go_gc_duration_seconds", "SUMMARY", nil, 0},
		{"demo_cache_requests_total", "COUNTER", []string{"cache", "product", "result", "miss"}, 0},
		{"demo_coupon_event_size", "GAUGE", nil, 10000},
	}
	for _, c := range cases {
		t.Run(c.name+labelText(c.labels), func(t *testing.T) {
			typ, v, ok := e.value(c.name, c.labels...)
			if !ok || typ != c.typ || v < c.atLeast {
				t.Fatalf("found %v, type %s, value %v; want a %s of at least %v", ok, typ, v, c.typ, c.atLeast)
			}
		})
	}
	t.Run("gc summary quantiles", func(t *testing.T) {
		if n := e.quantiles("go_gc_duration_seconds"); n != 5 {
			t.Fatalf("%d quantiles; want 0, 0.25, 0.5, 0.75 and 1", n)
		}
	})
}
