package diagnose

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/series"
)

// heavyAsMySQL copies trial A38's heavy join behind a pool of 100
// (trialA38-heavy100.db, db-busy's PostgreSQL run) into dir with its DB
// read as the mysql preset reads mysqld_exporter: pg_stat_activity_count's
// active sessions become threads_running (each counts its exporter's own),
// threads_connected reads the pool and the exporter's thread, and
// postgres_exporter's other series are gone. The DB host's node_exporter
// CPU (role db) stays.
func heavyAsMySQL(t *testing.T, dir string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "corpus", "trialA38-heavy100.db"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "trialA38-heavy100-mysql.db")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const active, pg = `pg_stat_activity_count{role="db",state="active",target="pg"}`, `%"target":"pg"%`
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`DELETE FROM series_points WHERE series IN (SELECT id FROM series WHERE labels LIKE ? AND key != ?)`, []any{pg, active}},
		{`DELETE FROM series WHERE labels LIKE ? AND key != ?`, []any{pg, active}},
		{`UPDATE series SET key = ?, name = ?, labels = ? WHERE key = ?`,
			[]any{myRunning + `{role="db",target="mysql"}`, myRunning, `{"role":"db","target":"mysql"}`, active}},
		{`INSERT INTO series (key, name, labels, kind) VALUES (?, ?, ?, 'gauge')`,
			[]any{myConnected + `{role="db",target="mysql"}`, myConnected, `{"role":"db","target":"mysql"}`}},
		{`INSERT INTO series_points (series, sec, value) SELECT (SELECT id FROM series WHERE name = ?), sec, 101
			FROM series_points WHERE series = (SELECT id FROM series WHERE name = ?)`, []any{myConnected, myRunning}},
	} {
		if _, err := db.Exec(q.sql, q.args...); err != nil {
			t.Fatalf("%s: %v", q.sql, err)
		}
	}
	return path
}

// TestDBBusyReadsMySQL diagnoses trial A38's heavy join with its DB read as
// MySQL's (heavyAsMySQL): threads running that rose by db-busy's thresholds
// while the DB's CPU was busy and the app's not name the DB, in MySQL's
// words; an idle DB CPU (threads waiting on locks), a busy app or threads
// that did not rise by the thresholds name nothing.
func TestDBBusyReadsMySQL(t *testing.T) {
	const recorded = -1
	cases := []struct {
		name          string
		start, during float64 // threads running at the first 3 scrapes, and after; recorded: as the run read its active sessions
		dbCPU, appCPU float64 // process_cpu_usage of role db (mysqld) and app added; recorded: none
		title         string  // db-busy's title; "": none
	}{
		{"3 → 28 running, the DB host's CPU busy (node_exporter, role db)", recorded, recorded, recorded, recorded,
			"DB busy while the target fell behind: 28 threads running in it from 0:28 (3 at the start), its CPU 100% busy: the requests waited on the DB's queries"},
		{"mysqld's own CPU busy (process_cpu_usage, role db)", recorded, recorded, 0.97, recorded,
			"DB busy while the target fell behind: 28 threads running in it from 0:28 (3 at the start), its CPU 97% of its CPUs busy: the requests waited on the DB's queries"},
		{"mysqld's CPU idle: threads waiting on locks are another story", recorded, recorded, 0.05, recorded, ""},
		{"the app's CPU busy: its own finding speaks", recorded, recorded, recorded, 0.97, ""},
		{"flat at 3", 3, 3, recorded, recorded, ""},
		{"1 → 4: 4× the start, but under 5", 1, 4, recorded, recorded, ""},
		{"3 → 8: at least 5, but under 3× the start", 3, 8, recorded, recorded, ""},
		{"3 → 9: 3× the start and at least 5", 3, 9, recorded, recorded,
			"DB busy while the target fell behind: 9 threads running in it from 0:28 (3 at the start), its CPU 100% busy: the requests waited on the DB's queries"},
	}
	path := heavyAsMySQL(t, t.TempDir())
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in, _ := diagnoseRunDB(t, path)
			running := in.Series.Find(myRunning)
			if len(running) != 1 || len(in.Series.Find(pgSessions)) > 0 {
				t.Fatalf("%d threads_running series, %d of pg_stat_activity_count", len(running), len(in.Series.Find(pgSessions)))
			}
			if tc.start != recorded {
				for i := range running[0].Points {
					running[0].Points[i].Value = map[bool]float64{true: tc.start, false: tc.during}[i < dbBusyStart]
				}
			}
			for _, cpu := range []struct {
				v          float64
				role, name string
			}{{tc.dbCPU, "db", "mysqld"}, {tc.appCPU, "app", "app"}} {
				if cpu.v != recorded {
					in.Series = append(in.Series, mk("process_cpu_usage", series.Gauge, constantAt(running[0], cpu.v), "role", cpu.role, "target", cpu.name))
				}
			}
			f, ok := oneOrNone(t, Diagnose(in), KindDBBusy, tc.title, "")
			if !ok {
				return
			}
			if len(f.Remedies) == 0 || !strings.HasPrefix(f.Remedies[0], "make the queries the threads run cheaper") {
				t.Errorf("remedies %q, want MySQL's first", f.Remedies)
			}
			for _, e := range f.Evidence {
				if s := evidenceText(f, e); strings.Contains(s, "session") || strings.Contains(s, "pg_stat_activity") {
					t.Errorf("evidence in PostgreSQL's words: %s", s)
				}
			}
		})
	}
}

// constantAt is v at every second s has a point.
func constantAt(s *series.Series, v float64) []series.Point {
	out := make([]series.Point, len(s.Points))
	for i, p := range s.Points {
		out[i] = series.Point{Sec: p.Sec, Value: v}
	}
	return out
}
