package diagnose

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/series"
)

// dbWaitRun is a database/sql pool of 20 full from 0:08 to 0:19 while 21
// PostgreSQL sessions were active, none idle in a transaction; the DB's
// lock counts by mode (tuple: exclusivelock at each scrape in turn, the
// next value after the last repeated), its reads (blocks a second), its
// CPU (a negative share: not scraped) and its host's disk (negative: not
// scraped), each from 0:08.
type dbWaitRun struct {
	tuple       []float64
	writes      float64
	reads       float64
	cpu, disk   float64
	activeAfter float64
}

func (w dbWaitRun) input(t *testing.T) Input {
	const n = 20
	in := goSQL(t)
	inUse, waits := make([]float64, n), make([]float64, n)
	tuple, writes, active, reads, cpu, disk := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for s := range n {
		inUse[s], active[s], cpu[s], disk[s] = 4, 3, 0.05, 0.02
		if s >= 8 {
			inUse[s], waits[s], active[s], writes[s], reads[s], cpu[s], disk[s] = 20, float64(30*(s-7)), w.activeAfter, w.writes, w.reads, w.cpu, w.disk
			tuple[s] = w.tuple[min(s-8, len(w.tuple)-1)]
		}
	}
	app := []string{"db_name", "trial", "role", "app"}
	in.Series = series.Set{
		mk("go_sql_in_use_connections", series.Gauge, pts(0, 1, inUse...), app...),
		mk("go_sql_max_open_connections", series.Gauge, pts(0, 1, repeat(20, n)...), app...),
		mk("go_sql_wait_count_total", series.Gauge, pts(0, 1, waits...), app...),
		mk("pg_stat_activity_count", series.Gauge, pts(0, 1, active...), "role", "db", "target", "pg", "state", "active"),
		mk("pg_stat_activity_count", series.Gauge, pts(0, 1, repeat(0, n)...), "role", "db", "target", "pg", "state", "idle in transaction"),
		mk("pg_locks_count", series.Gauge, pts(0, 1, tuple...), "role", "db", "target", "pg", "mode", "exclusivelock"),
		mk("pg_locks_count", series.Gauge, pts(0, 1, writes...), "role", "db", "target", "pg", "mode", "rowexclusivelock"),
		mk("pg_stat_database_blks_read", series.Rate, pts(0, 1, reads...), "role", "db", "target", "pg", "datname", "trial"),
		mk("pg_stat_database_blks_read", series.Rate, pts(0, 1, repeat(0, n)...), "role", "db", "target", "pg", "datname", "postgres"),
	}
	if w.cpu >= 0 {
		in.Series = append(in.Series, mk("process_cpu_usage", series.Gauge, pts(0, 1, cpu...), "role", "db", "target", "pgproc"))
	}
	if w.disk >= 0 {
		in.Series = append(in.Series, mk("node_disk_io_time_seconds_total", series.Rate, pts(0, 1, disk...), "role", "db", "target", "dbhost", "device", "vda"))
	}
	return in
}

// TestPoolDBWaitNamesLockOrIO checks the pool finding's DB side names what
// the active sessions waited on: a row lock when a tuple lock was held at
// half the full scrapes or more, I/O when they read 20 blocks a second or
// more each with the DB's CPU idle (or its disk busy), and keeps the hedge
// or the busy DB otherwise.
func TestPoolDBWaitNamesLockOrIO(t *testing.T) {
	lock := []float64{1, 1, 0, 1, 2, 1, 0, 1, 9, 1, 1, 1}
	for _, tc := range []struct {
		name  string
		run   dbWaitRun
		title string // a substring of the title
		lead  string // the first remedy's start
		never string
	}{
		{"row lock, CPU idle: the measured take run's figures", dbWaitRun{lock, 40, 0.3, 0.05, 0.02, 21},
			": its sessions waited on a row lock (20 sessions active in write transactions holding 40 row-exclusive locks; 1 tuple lock held: a session queued on a locked row)",
			"find the row the sessions queue on", "or I/O"},
		{"row lock, the DB's CPU and disk not scraped", dbWaitRun{lock, 40, 0, -1, -1, 21}, "its sessions waited on a row lock (20 sessions active", "find the row", "not scraped"},
		{"an advisory lock: exclusive locks without writes", dbWaitRun{[]float64{19}, 0, 0, 0.05, -1, 21},
			"its sessions waited on a lock (20 sessions active; 19 exclusive lock held: a session queued on a locked row, or an advisory or table lock)", "find the row", "row lock"},
		{"a tuple lock at under half the scrapes is no queue", dbWaitRun{[]float64{1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0}, 40, 0.3, 0.05, 0.02, 21},
			"while its CPU idled (5% of its CPUs busy): a lock many requests wait on, or I/O", "read what the active sessions wait on", "waited on a row lock"},
		{"I/O, CPU idle: the measured read run's figures", dbWaitRun{[]float64{0}, 0, 2772, 0.05, 0.1, 21},
			": its sessions waited on I/O (20 sessions active reading 2,772 blocks a second from outside shared_buffers)", "find the queries that read from disk", "row lock"},
		{"I/O, the DB's CPU not scraped, its host's disk busy", dbWaitRun{[]float64{0}, 0, 2772, -1, 0.8, 21},
			"its sessions waited on I/O (20 sessions active reading 2,772 blocks a second from outside shared_buffers, its disk busy 80% of the time)", "find the queries that read from disk", "not scraped"},
		{"reads with the DB's CPU not scraped and its disk idle: the OS's cache may have served them", dbWaitRun{[]float64{0}, 0, 2772, -1, 0.1, 21},
			"running queries or waiting on locks there; the DB's CPU was not scraped", "read what the active sessions do", "waited on I/O"},
		{"reads under 20 blocks a second a session", dbWaitRun{[]float64{0}, 0, 300, 0.05, -1, 21},
			"a lock many requests wait on, or I/O", "read what the active sessions wait on", "waited on I/O"},
		{"the DB's CPU busy: the DB is the bottleneck, not a lock", dbWaitRun{lock, 40, 0, 0.97, -1, 21},
			"the DB is the bottleneck, the pool its symptom (20 app sessions active in it, its CPU 97% of its CPUs busy)", "make the queries the sessions run cheaper", "row lock"},
		{"sessions idle in the DB: the pool's own side", dbWaitRun{lock, 40, 0, 0.05, -1, 5},
			"DB pool exhausted: 20 of 20", "hold connections for less time", "inside the DB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, ok := findKind(Diagnose(tc.run.input(t)), KindPoolExhaustion)
			if !ok {
				t.Fatal("no pool finding")
			}
			text := findingText(f) + "\n" + strings.Join(f.Remedies, "\n")
			if !strings.Contains(title(f), tc.title) || !strings.HasPrefix(f.Remedies[0], tc.lead) {
				t.Errorf("got %q, first remedy %q; want %q and %q", title(f), f.Remedies[0], tc.title, tc.lead)
			}
			if strings.Contains(title(f), tc.never) {
				t.Errorf("the title says %q: %s", tc.never, title(f))
			}
			if t.Failed() {
				t.Log(text)
			}
		})
	}
}
