package diagnose

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/series"
)

// TestMySQLPoolReplays diagnoses again trial A's (stop 40) runs of a Go
// service with a database/sql pool of 3 before MariaDB 10.11, each request
// a 20 ms query, mysqld_exporter 0.14 scraped beside it (its
// threads_running counts its own SHOW GLOBAL STATUS): the pool's
// connections were busy inside the DB, its CPU not scraped.
func TestMySQLPoolReplays(t *testing.T) {
	never := []string{"@Transactional", "pg_stat_activity", "postgres_exporter", "idle in a transaction"}
	replayTrials(t, []replayCase{
		{"maria 1: 4 threads running (the exporter's among them) for 3 connections in use: busy inside the DB", "trialA40-maria1", KindPoolExhaustion,
			&expect{Critical, [2]int{3, 3}, [2]int{50, 50}, []string{"3 of 3 connections in use from 0:03",
				": its connections were busy inside the DB (4 threads running, the exporter's own among them, of 4 connected), running queries or waiting on locks there; the DB's CPU was not scraped"},
				[]string{"4 running, the exporter's own among them, of 4 connected, for 3 connections in use: the connections were busy inside the DB"}},
			never},
		{"maria 2: the same, from 0:02", "trialA40-maria2", KindPoolExhaustion,
			&expect{Critical, [2]int{2, 2}, [2]int{53, 53}, []string{"3 of 3 connections in use from 0:02", ": its connections were busy inside the DB (4 threads running"}, nil},
			never},
	})
}

// TestMySQLPoolSide replays trial A's first MariaDB run with its threads
// rewritten: the exporter's thread alone running is a pool held idle by
// the app (its own remedy), and InnoDB row lock waits name a row lock.
func TestMySQLPoolSide(t *testing.T) {
	cases := []struct {
		name    string
		running float64 // threads_running at every scrape
		waits   float64 // innodb_row_lock_current_waits at every scrape; <0: not scraped
		title   string  // in the pool finding's title; "": no DB side
		remedy  string  // in its first remedy
	}{
		{"the exporter's thread alone: held by the app", 1, -1, "", "@Transactional"},
		{"3 running, the exporter's among them, for 3 in use: not all busy in the DB", 3, -1, "", "@Transactional"},
		{"4 running: busy inside the DB", 4, -1, "busy inside the DB (4 threads running", "SHOW FULL PROCESSLIST"},
		{"4 running, 2 row locks waited for: a row lock", 4, 2, ": its threads waited on a row lock (4 threads running, 2 of them waiting for an InnoDB row lock)", "sys.innodb_lock_waits"},
		{"4 running, no row lock waited for: busy inside the DB", 4, 0, "busy inside the DB (4 threads running", "SHOW FULL PROCESSLIST"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in, _ := diagnoseRunDB(t, filepath.Join("testdata", "corpus", "trialA40-maria1.db"))
			running := in.Series.Find(myRunning)[0]
			for i := range running.Points {
				running.Points[i].Value = tc.running
			}
			if tc.waits >= 0 {
				waits := &series.Series{Name: myLockWaits, Labels: running.Labels, Kind: series.Gauge, Points: slices.Clone(running.Points)}
				for i := range waits.Points {
					waits.Points[i].Value = tc.waits
				}
				in.Series = append(in.Series, waits)
			}
			f, ok := findKind(Diagnose(in), KindPoolExhaustion)
			if !ok {
				t.Fatal("no pool finding")
			}
			got := title(f)
			if tc.title == "" && (strings.Contains(got, "inside the DB") || strings.Contains(got, "waited on")) ||
				tc.title != "" && !strings.Contains(got, tc.title) {
				t.Errorf("title %q, want %q", got, tc.title)
			}
			if len(f.Remedies) == 0 || !strings.Contains(f.Remedies[0], tc.remedy) {
				t.Errorf("remedies %q, want the first with %q", f.Remedies, tc.remedy)
			}
		})
	}
}
