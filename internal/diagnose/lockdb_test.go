package diagnose

import "testing"

// TestLockDBReplays diagnoses again the runs recorded for the pool
// finding's DB side (copied to testdata/corpus): a Go service with a
// database/sql pool of 20 (pgx driver) before PostgreSQL 15 and
// postgres_exporter 0.11.1, its DB's CPU read from the cgroup of
// PostgreSQL's processes (process_cpu_usage, role db; "-node" runs have
// only the shared host's node_exporter). take: each request updates one
// row and holds it 10 ms, 10 → 160 req/s; read: 8 random rows of a 1.1 GB
// table, its pages dropped from the OS's cache every 0.2 s and reads
// throttled to 1,500 a second (a volume's IOPS limit); cpu: a join of
// 10⁶ rows in shared_buffers; healthy: 30 req/s of single-row updates.
func TestLockDBReplays(t *testing.T) {
	never := []string{"waited on a row lock", "waited on I/O", "waited on a lock"}
	replayTrials(t, []replayCase{
		{"take: 21 sessions active (20 besides postgres_exporter's own), a tuple lock held, the DB's CPU at 5%: a row lock", "lockdb-take", KindPoolExhaustion,
			&expect{Critical, [2]int{6, 6}, [2]int{48, 48}, []string{"20 of 20 connections in use from 0:06",
				": its sessions waited on a row lock (20 sessions active in write transactions holding 40 row-exclusive locks; 1 tuple lock held: a session queued on a locked row)"},
				[]string{"1 exclusive lock held at the median scrape: a row's tuple lock", "40 at the median scrape, for 20 sessions active", "the DB's CPU meanwhile (process_cpu_usage, role=db, target=pgproc)"}},
			[]string{"or I/O", "the DB is the bottleneck", "waited on I/O"}},
		{"take, the shared host's CPU only: the lock is named all the same", "lockdb-take-node", KindPoolExhaustion,
			&expect{Critical, [2]int{7, 7}, [2]int{0, 100}, []string{"its sessions waited on a row lock (20 sessions active in write transactions holding 40 row-exclusive locks"}, nil},
			[]string{"so it does not tell which", "the DB is the bottleneck"}},
		{"read: 2,810 blocks a second read outside shared_buffers by 21 sessions with the DB's CPU at 7%: I/O", "lockdb-read", KindPoolExhaustion,
			&expect{Critical, [2]int{9, 9}, [2]int{45, 45}, []string{": its sessions waited on I/O (20 sessions active reading 2,810 blocks a second from outside shared_buffers)"},
				[]string{"2,810 blocks a second from outside shared_buffers (median), for 20 sessions active"}},
			[]string{"row lock", "a lock many requests wait on", "the DB is the bottleneck"}},
		{"read, the shared host's CPU only and its disk idle: the reads could have come from the OS's cache", "lockdb-read-node", KindPoolExhaustion,
			&expect{Critical, [2]int{9, 9}, [2]int{0, 100}, []string{"busy inside the DB (20 app sessions active, 0 idle in a transaction)", "so it does not tell which"}, nil},
			never},
		{"cpu: 21 sessions active (20 besides postgres_exporter's own), the DB's CPU 72% busy, no lock, no reads", "lockdb-cpu", KindPoolExhaustion,
			&expect{Critical, [2]int{9, 9}, [2]int{0, 100}, []string{"20 of 20 connections in use from 0:09"}, nil},
			append([]string{"the DB is the bottleneck"}, never...)},
		{"healthy: no full pool", "lockdb-healthy", KindPoolExhaustion, nil, nil},
		{"healthy: no DB finding", "lockdb-healthy", KindDBBusy, nil, nil},
	})
}
