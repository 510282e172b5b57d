package diagnose

import "testing"

// TestTrialA5MySQLHeadroom replays outside trial A5's MariaDB pool: a Go
// service with a pool of 3 connections, each request running SELECT
// SLEEP(0.01), ramped to 400 req/s (the pool serves 300). No InnoDB row lock
// was waited for and the DB host's disk was idle, yet it read "a lock many
// requests wait on, or I/O": the pool's size is the limit, as PostgreSQL's
// runs already read (poolheadroom.go).
func TestTrialA5MySQLHeadroom(t *testing.T) {
	replayTrials(t, []replayCase{
		{"pool of 3 over SELECT SLEEP(0.01): the pool's size is the limit", "trialA5-mariadb-pool3", KindPoolExhaustion,
			&expect{Critical, [2]int{15, 15}, [2]int{49, 49},
				[]string{"while the DB had headroom (its CPU 16.3% busy, no lock queued, its disk 0% busy): each query's own time held them: the pool's 3 connections are the limit"},
				[]string{"no thread queued on a row lock", "each request held a connection 9.92ms"}},
			[]string{"a lock many requests wait on", "pg_stat_statements"}},
	})
}
