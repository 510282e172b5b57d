package demo

import (
	"net/http"
	"runtime"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/proc"
	"github.com/loadlens/loadlens/internal/promtext"
)

// metrics serves the shop's Prometheus exposition: the DB pool under the
// names client_golang's DBStatsCollector uses, process and Go runtime
// series, http_server_requests_seconds like Spring's, and the shop's own.
func (s *shop) metrics(w http.ResponseWriter, r *http.Request) int {
	e := promtext.NewWriter(16 << 10)
	s.writePool(e)
	s.writeRuntime(e)
	s.writeHTTP(e)
	s.writeShop(e)
	w.Header().Set("Content-Type", promtext.ContentType)
	w.WriteHeader(http.StatusOK)
	w.Write(e.Bytes())
	return http.StatusOK
}

// writePool writes the go_sql_* series of the shop's pool.
func (s *shop) writePool(e *promtext.Writer) {
	st := s.db.Stats()
	db := []string{"db_name", s.db.label}
	for _, m := range []struct {
		name, typ, help string
		v               float64
	}{
		{"go_sql_max_open_connections", "gauge", "Maximum number of open connections to the database.", float64(st.MaxOpenConnections)},
		{"go_sql_open_connections", "gauge", "The number of established connections both in use and idle.", float64(st.OpenConnections)},
		{"go_sql_in_use_connections", "gauge", "The number of connections currently in use.", float64(st.InUse)},
		{"go_sql_idle_connections", "gauge", "The number of idle connections.", float64(st.Idle)},
		{"go_sql_wait_count_total", "counter", "The total number of connections waited for.", float64(st.WaitCount)},
		{"go_sql_wait_duration_seconds_total", "counter", "The total time blocked waiting for a new connection.", st.WaitDuration.Seconds()},
		{"go_sql_max_idle_closed_total", "counter", "The total number of connections closed due to SetMaxIdleConns.", float64(st.MaxIdleClosed)},
		{"go_sql_max_idle_time_closed_total", "counter", "The total number of connections closed due to SetConnMaxIdleTime.", float64(st.MaxIdleTimeClosed)},
		{"go_sql_max_lifetime_closed_total", "counter", "The total number of connections closed due to SetConnMaxLifetime.", float64(st.MaxLifetimeClosed)},
		{"demo_db_pool_timeouts_total", "counter", "Requests that gave up waiting for a pooled connection (like hikaricp_connections_timeout_total).", float64(s.db.poolTimeouts.Load())},
	} {
		e.Family(m.name, m.typ, m.help)
		e.Sample(m.name, m.v, db...)
	}
}

// writeRuntime writes process and Go runtime series under client_golang's names.
func (s *shop) writeRuntime(e *promtext.Writer) {
	if cpu, ok := proc.CPU(); ok {
		e.Single("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.", cpu.Seconds())
	}
	if rss, ok := proc.ResidentBytes(); ok {
		e.Single("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", rss)
	}
	e.Single("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.", float64(s.start.UnixNano())/1e9)
	e.Single("go_goroutines", "gauge", "Number of goroutines that currently exist.", float64(runtime.NumGoroutine()))
	threads, _ := runtime.ThreadCreateProfile(nil)
	e.Single("go_threads", "gauge", "Number of OS threads created.", float64(threads))

	gc := debug.GCStats{PauseQuantiles: make([]time.Duration, 5)}
	debug.ReadGCStats(&gc)
	e.Family("go_gc_duration_seconds", "summary", "A summary of the wall-time pause (stop-the-world) duration in garbage collection cycles.")
	for i, q := range []string{"0", "0.25", "0.5", "0.75", "1"} {
		e.Sample("go_gc_duration_seconds", gc.PauseQuantiles[i].Seconds(), "quantile", q)
	}
	e.Sample("go_gc_duration_seconds_sum", gc.PauseTotal.Seconds())
	e.Sample("go_gc_duration_seconds_count", float64(gc.NumGC))

	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	e.Single("go_memstats_alloc_bytes", "gauge", "Number of bytes allocated in heap and currently in use.", float64(ms.Alloc))
	e.Single("go_memstats_alloc_bytes_total", "counter", "Total number of bytes allocated in heap until now, even if released already.", float64(ms.TotalAlloc))
	e.Single("go_memstats_heap_inuse_bytes", "gauge", "Number of heap bytes that are in use.", float64(ms.HeapInuse))
	e.Single("go_memstats_sys_bytes", "gauge", "Number of bytes obtained from system.", float64(ms.Sys))
}

// writeHTTP writes http_server_requests_seconds: count and sum by method, uri and status.
func (s *shop) writeHTTP(e *promtext.Writer) {
	const name = "http_server_requests_seconds"
	e.Family(name, "summary", "Duration of HTTP server requests.")
	for _, rs := range s.stats.routes {
		for i := range rs.byStatus {
			st := &rs.byStatus[i]
			n := st.count.Load()
			if n == 0 {
				continue
			}
			status := strconv.Itoa(i + 100)
			e.Sample(name+"_count", float64(n), "method", rs.method, "uri", rs.uri, "status", status)
			e.Sample(name+"_sum", time.Duration(st.nanos.Load()).Seconds(), "method", rs.method, "uri", rs.uri, "status", status)
		}
	}
}

// writeShop writes the shop's own series: cache hits, coupons, the queue
// and the precomputed ranking.
func (s *shop) writeShop(e *promtext.Writer) {
	e.Family("demo_cache_requests_total", "counter", "Look-aside cache lookups by cache and result.")
	for k := range cacheKinds {
		e.Sample("demo_cache_requests_total", float64(s.counts.cacheHits[k].Load()), "cache", cacheKindNames[k], "result", "hit")
		e.Sample("demo_cache_requests_total", float64(s.counts.cacheMisses[k].Load()), "cache", cacheKindNames[k], "result", "miss")
	}
	e.Single("demo_coupons_issued_total", "counter", "Coupons issued since the shop started.", float64(s.counts.couponsIssued.Load()))
	e.Single("demo_coupons_sold_out_total", "counter", "Issue requests answered with sold out.", float64(s.counts.couponsSoldOut.Load()))
	e.Single("demo_coupon_event_size", "gauge", "Coupons the current event has.", float64(s.coupons.size.Load()))
	e.Single("demo_coupon_queue_length", "gauge", "Issue requests waiting in the coupon queue.", float64(len(s.coupons.queue)))
	e.Single("demo_rank_refreshes_total", "counter", "Rebuilds of the precomputed first-page table.", float64(s.rank.refreshes.Load()))
	e.Single("demo_rank_refresh_seconds", "gauge", "How long the last rebuild of the precomputed table took.", time.Duration(s.rank.lastNanos.Load()).Seconds())
}
