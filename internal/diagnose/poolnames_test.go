package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/series"
)

// fastAcquire is what an acquire of an idle connection costs: the acquire
// time pgxpool and OpenTelemetry count for every acquire, waits or not.
const fastAcquire = 2e-6

// poolFill is what a pool did each second of a 20 s run scraped every
// second: connections in use of max, requests waiting (mean), acquires
// that waited, and acquires, each a second.
type poolFill struct {
	inUse, waiting, waits []float64
	max, acquires         float64
}

// acquireTime is the seconds spent acquiring each second: the waits'
// seconds and every acquire's own.
func (f poolFill) acquireTime(unit float64) []float64 {
	out := make([]float64, len(f.waiting))
	for i, w := range f.waiting {
		out[i] = (w + f.acquires*fastAcquire) / unit
	}
	return out
}

func (f poolFill) idle() []float64 {
	out := make([]float64, len(f.inUse))
	for i, v := range f.inUse {
		out[i] = f.max - v
	}
	return out
}

// poolFamily is one collector's connection-pool series.
type poolFamily struct {
	name      string
	lib       string // the finding's words for it
	anchor    string // the name "server checked" lists
	evidence  string // evidence of a limiting pool, in its own unit made seconds
	series    func(f poolFill) series.Set
	judgeless bool // no wait series a client view could judge
}

var poolFamilies = []poolFamily{
	{"pgxpool, IBM pgxpoolprometheus", "pgxpool", "pgxpool_acquired_conns",
		"the wait for a connection per request: 200ms of the mean response time 300ms", func(f poolFill) series.Set {
			l := []string{"db_name", "shop", "role", "app"}
			return series.Set{
				mk("pgxpool_acquired_conns", series.Gauge, pts(0, 1, f.inUse...), l...),
				mk("pgxpool_idle_conns", series.Gauge, pts(0, 1, f.idle()...), l...),
				mk("pgxpool_max_conns", series.Gauge, pts(0, 1, repeat(f.max, 20)...), l...),
				mk("pgxpool_empty_acquire", series.Rate, pts(0, 1, f.waits...), l...),
				mk("pgxpool_acquire_duration_ns", series.Rate, pts(0, 1, f.acquireTime(1e-9)...), l...),
				mk("pgxpool_acquire_count", series.Rate, pts(0, 1, repeat(f.acquires, 20)...), l...),
				mk("pgxpool_canceled_acquire_count", series.Rate, pts(0, 1, repeat(0, 20)...), l...),
			}
		}, false},
	{"pgxpool's suffixes under another prefix, waits counted only", "pgxpool", "flagz_db_pool_acquired_conns",
		"at most 80 acquires that waited for a connection ended in a second", func(f poolFill) series.Set {
			l := []string{"role", "app"}
			return series.Set{
				mk("flagz_db_pool_acquired_conns", series.Gauge, pts(0, 1, f.inUse...), l...),
				mk("flagz_db_pool_max_conns", series.Gauge, pts(0, 1, repeat(f.max, 20)...), l...),
				mk("flagz_db_pool_empty_acquire_count", series.Rate, pts(0, 1, f.waits...), l...),
			}
		}, true},
	{"pgxpool, acquire time only", "pgxpool", "pgxpool_acquired_conns",
		"the wait for a connection per request: 200ms of the mean response time 300ms", func(f poolFill) series.Set {
			l := []string{"role", "app"}
			return series.Set{
				mk("pgxpool_acquired_conns", series.Gauge, pts(0, 1, f.inUse...), l...),
				mk("pgxpool_max_conns", series.Gauge, pts(0, 1, repeat(f.max, 20)...), l...),
				mk("pgxpool_acquire_duration_ns", series.Rate, pts(0, 1, f.acquireTime(1e-9)...), l...),
			}
		}, false},
	{"OpenTelemetry, older semconv (Java agent's HikariCP)", "OpenTelemetry db.client", "db_client_connections_usage",
		"the wait for a connection per request: 200ms of the mean response time 300ms", func(f poolFill) series.Set {
			l := []string{"pool_name", "HikariPool-1", "role", "app"}
			return series.Set{
				mk("db_client_connections_usage", series.Gauge, pts(0, 1, f.inUse...), append([]string{"state", "used"}, l...)...),
				mk("db_client_connections_usage", series.Gauge, pts(0, 1, f.idle()...), append([]string{"state", "idle"}, l...)...),
				mk("db_client_connections_max", series.Gauge, pts(0, 1, repeat(f.max, 20)...), l...),
				mk("db_client_connections_pending_requests", series.Gauge, pts(0, 1, f.waiting...), l...),
				mk("db_client_connections_wait_time_milliseconds_sum", series.Rate, pts(0, 1, f.acquireTime(1e-3)...), l...),
				mk("db_client_connections_wait_time_milliseconds_count", series.Rate, pts(0, 1, repeat(f.acquires, 20)...), l...),
			}
		}, false},
	{"OpenTelemetry, newer semconv", "OpenTelemetry db.client", "db_client_connection_count",
		"the wait for a connection per request: 200ms of the mean response time 300ms", func(f poolFill) series.Set {
			l := []string{"db_client_connection_pool_name", "shop", "role", "app"}
			return series.Set{
				mk("db_client_connection_count", series.Gauge, pts(0, 1, f.inUse...), append([]string{"db_client_connection_state", "used"}, l...)...),
				mk("db_client_connection_count", series.Gauge, pts(0, 1, f.idle()...), append([]string{"db_client_connection_state", "idle"}, l...)...),
				mk("db_client_connection_max", series.Gauge, pts(0, 1, repeat(f.max, 20)...), l...),
				mk("db_client_connection_pending_requests", series.Gauge, pts(0, 1, f.waiting...), l...),
				mk("db_client_connection_wait_time_seconds_sum", series.Rate, pts(0, 1, f.acquireTime(1)...), l...),
				mk("db_client_connection_wait_time_seconds_count", series.Rate, pts(0, 1, repeat(f.acquires, 20)...), l...),
			}
		}, false},
	{"OpenTelemetry, wait time only (milliseconds, no unit suffix)", "OpenTelemetry db.client", "db_client_connections_usage",
		"the wait for a connection per request: 200ms of the mean response time 300ms", func(f poolFill) series.Set {
			l := []string{"pool_name", "shop", "role", "app"}
			return series.Set{
				mk("db_client_connections_usage", series.Gauge, pts(0, 1, f.inUse...), append([]string{"state", "used"}, l...)...),
				mk("db_client_connections_max", series.Gauge, pts(0, 1, repeat(f.max, 20)...), l...),
				mk("db_client_connections_wait_time_sum", series.Rate, pts(0, 1, f.acquireTime(1e-3)...), l...),
			}
		}, false},
}

// poolScenario is a 20 s closed run at 100 req/s of the given mean
// response time, its pool filled as fill says from 0:05.
type poolScenario struct {
	name   string
	resp   time.Duration
	inUse  float64 // from 0:05; 4 of 10 before
	wait   float64 // requests waiting from 0:05, each acquire that waited 0.25 s
	fires  bool
	noView bool // the series alone, without the client's view
}

func (s poolScenario) input(t *testing.T, fam poolFamily) Input {
	f := poolFill{max: 10, acquires: 100}
	for i := range 20 {
		inUse, waiting := 4.0, 0.0
		if i >= 5 {
			inUse, waiting = s.inUse, s.wait
		}
		f.inUse, f.waiting, f.waits = append(f.inUse, inUse), append(f.waiting, waiting), append(f.waits, waiting*4)
	}
	if s.noView {
		return Input{Series: fam.series(f)}
	}
	secs := steady(20, 100, int64(100*s.resp.Seconds()), s.resp)
	return Input{Run: build(t, layout(modelVUs, "GET /flags/{id}"), secs), Series: fam.series(f)}
}

// poolScenarios are a limiting pool, and four that must stay silent.
var poolScenarios = []poolScenario{
	{"full, 20 waiting, the wait 2/3 of the response time", 300 * time.Millisecond, 10, 20, true, false},
	{"full without waiting, 30 ms answers", 30 * time.Millisecond, 10, 0, false, false},
	{"20 waiting, 8 of 10 in use", 300 * time.Millisecond, 8, 20, false, false},
	{"full without waiting, no client view", 30 * time.Millisecond, 10, 0, false, true},
	{"full, 0.1 waiting: 1 ms of a 30 ms response", 30 * time.Millisecond, 10, 0.1, false, false},
}

// poolFamilyRun is a scenario of poolScenarios on a family of poolFamilies.
func poolFamilyRun(fam, sc int) func(t *testing.T) Input {
	return func(t *testing.T) Input { return poolScenarios[sc].input(t, poolFamilies[fam]) }
}

// TestPoolFamilies checks the pool finding on pgxpool's and OpenTelemetry's
// db.client series: it fires on a pool full at every scrape while requests
// waited for 200 ms of a 300 ms response, and stays silent on a full pool
// without waits (every acquire's own time counted, in the family's unit),
// and on waits while the pool was not full.
func TestPoolFamilies(t *testing.T) {
	for _, fam := range poolFamilies {
		for _, sc := range poolScenarios {
			t.Run(fam.name+"/"+sc.name, func(t *testing.T) {
				if fam.judgeless && sc.wait > 0 && sc.wait < 1 {
					t.Skip("waits counted without their time: any wait at a full pool is the finding, as database/sql's count alone")
				}
				in := sc.input(t, fam)
				fs := Diagnose(in)
				if !sc.fires {
					expectKind(t, fs, KindPoolExhaustion, nil)
					if got := healthyText(in, fs); !sc.noView && !strings.Contains(got, "DB pool ("+fam.anchor) {
						t.Errorf("Healthy = %q, lacks DB pool (%s", got, fam.anchor)
					}
					return
				}
				expectKind(t, fs, KindPoolExhaustion, &expect{Critical, [2]int{5, 5}, [2]int{18, 19},
					[]string{"DB pool exhausted: 10 of 10 connections in use from 0:05", "(" + fam.lib + ", "}, []string{fam.evidence}})
			})
		}
	}
}
