package diagnose

import (
	"math"

	"github.com/loadlens/loadlens/internal/series"
)

// DB-side thresholds of a full pool. The pool's connections are busy in
// the DB when its active sessions (pg_stat_activity, state active) are at
// least 80 % of the connections in use and under a quarter sit idle in a
// transaction (case study 5's @Transactional held them idle in the app).
// Trial A38's heavy join read 20 active of 20 in use, none idle in a
// transaction; its single-row lock 21 of 20: the exporter's own session,
// left out of the comparison (dbsessions.go).
const (
	dbActiveShare = 0.8
	dbIdleTxShare = 0.25
)

// dbSide is what the DB's own series say of a full pool's connections.
type dbSide int

// The DB sides: nothing to say, busy in the DB with its CPU busy, with its
// CPU idle, or without its CPU scraped; or, its CPU not busy, its sessions
// queued on a lock or waiting on reads (pgwait.go); or its CPU, locks and
// disk all with headroom: each query's own time held the connections
// (poolheadroom.go).
const (
	dbUnknown dbSide = iota
	dbCPUBusy
	dbCPUIdle
	dbCPUUnseen
	dbLockWait
	dbIOWait
	dbHeadroom
)

// dbActivity reads the DB's sessions (PostgreSQL's by state, MySQL's
// threads), and its CPU, over a full pool's seconds, and states them in b
// when the pool's connections were busy inside the DB: the DB is then the
// bottleneck, the pool its symptom, unless the DB had headroom on every
// resource read. It returns the remedies for that side.
func (c *context) dbActivity(b *builder, p pool, from, to int) (dbSide, []any, []string) {
	d, ok := c.dbSessionsOf()
	if !ok {
		return dbUnknown, nil, nil
	}
	inUse := aggregate(c.values(c.ofSeries(p.inUse)), StatMedian, from, to)
	if !c.busyInDB(d, inUse, from, to) {
		return dbUnknown, nil, nil
	}
	ss := c.sessionEvidence(b, d, p, from, to)
	side, words := c.dbSideOf(b, d, &ss, from, to)
	switch side {
	case dbUnknown:
		return dbUnknown, nil, nil
	case dbHeadroom:
		return side, words, c.headroomRemedies(b, ss, from, to)
	}
	if words == nil {
		why := "; the DB's CPU was not scraped"
		if _, seen := c.dbCPU(from, to); seen {
			// node_exporter counts every process on the DB's host: busy before the pool filled, it says nothing of the DB's queries
			why = "; the DB host's CPU was as busy before the pool filled, so it does not tell which"
			if from <= 0 {
				why = "; the DB host's CPU was busy from the run's first second, before the load reached its rate, so it does not tell which"
			}
		}
		words = append(append([]any{": its connections were busy inside the DB ("}, ss.held...), "), running queries or waiting on locks there"+why)
	}
	return side, words, sideRemedies(d.engine, side)
}

// dbSideOf names the DB's side of a full pool from its CPU and what its
// active sessions waited on; the words are nil for dbCPUUnseen, whose
// title names the sessions as dbActivity does.
func (c *context) dbSideOf(b *builder, d dbSessions, ss *sessions, from, to int) (dbSide, []any) {
	a := ss.a
	act := b.fig(a).Value
	cpu, ok := c.dbCPU(from, to)
	hostBefore := cpu.host && cpu.median >= cpuBusy && !c.roseWithLoad(cpu, from, to)
	if !ok || cpu.median < threadCPULow || hostBefore {
		// the CPU not shown busy: a lock or reads the sessions waited on name the DB's side
		idle := ok && cpu.median < threadCPULow
		if side, words := c.dbWait(b, d, a, act, from, to, idle); side != dbUnknown {
			if idle {
				c.dbCPUEvidence(b, cpu, from, to)
			}
			return side, words
		}
	}
	if !ok || hostBefore {
		return dbCPUUnseen, nil
	}
	used := c.dbCPUEvidence(b, cpu, from, to)
	switch {
	case cpu.median >= cpuBusy:
		if from <= 0 && cpu.host {
			c.fullFromStartEvidence(b, used, from, to)
		}
		return dbCPUBusy, append(append([]any{": the DB is the bottleneck, the pool its symptom ("}, ss.inIt...), ss.sep, "its CPU ", used, " ", cpu.what, ")")
	case cpu.median < threadCPULow:
		if words, ok := c.headroom(b, d, ss, act, used, cpu, from, to); ok {
			return dbHeadroom, words
		}
		return dbCPUIdle, append(append([]any{": its connections waited inside the DB ("}, ss.count...), ") while its CPU idled (",
			used, " ", cpu.what, "): a lock many requests wait on, or I/O")
	}
	return dbUnknown, nil
}

// dbCPUEvidence states the DB's CPU over from–to in b, and returns its figure.
func (c *context) dbCPUEvidence(b *builder, cpu procCPU, from, to int) ref {
	used := b.add(c.fig(cpu.source, StatMedian, from, to, UnitFraction, "the DB's CPU, "+cpu.what+" (median)"))
	whose := "the DB's CPU meanwhile ("
	if cpu.host {
		whose = "the DB host's CPU meanwhile, every process on it counted (" // node_exporter's: not the DB's alone
	}
	b.evidence(used, whose, name(cpu.label), "): ", used, " ", cpu.what, " (median)")
	return used
}

// roseWithLoad says whether a DB host's CPU was below busy over the
// seconds before the pool filled at from: node_exporter's CPU counts the
// host's other processes, and one already busy then is not the DB's work.
// Full from the run's first second, no second shows the host without the
// load: the CPU goes with it when the load was at its rate from then on.
func (c *context) roseWithLoad(cpu procCPU, from, to int) bool {
	if from <= 0 {
		return c.loadFullFromStart(from, to)
	}
	before := aggregate(c.values(cpu.source), StatMedian, 0, from-1)
	return !math.IsNaN(before) && before < cpuBusy
}

// pgSessions is postgres_exporter's gauge of sessions by state.
const pgSessions = "pg_stat_activity_count"

// pgState is postgres_exporter's count of sessions in a state, the first
// scraped.
func (c *context) pgState(state string) *series.Series {
	if s := c.set.Find(pgSessions, "state", state); len(s) > 0 {
		return s[0]
	}
	return nil
}

// dbCPU is the CPU use of the first CPU subject of role db over from–to.
func (c *context) dbCPU(from, to int) (procCPU, bool) {
	return c.subjectCPU(func(s cpuSubject) bool { return s.name == "DB" }, from, to)
}

// dbSideRemedies are a full pool's remedies when its connections were busy
// inside the DB: the DB's work comes first, the pool's size last.
var dbSideRemedies = map[dbSide][]string{
	dbCPUBusy: {
		"make the queries the sessions run cheaper (case study 1: a heavy join with GROUP BY): find the costliest (pg_stat_statements by total time), read their plans (EXPLAIN ANALYZE), add the index, fetch less",
		"cache or precompute their results (an application cache, a materialized view refreshed periodically)",
		"give the DB more CPU (a larger instance, read replicas for the reads): a bigger pool only adds sessions competing for the same CPU",
	},
	dbCPUIdle: {
		"read what the active sessions wait on (pg_stat_activity's wait_event_type and wait_event, pg_locks where granted is false): Lock is contention, IO is reads from disk",
		"for a lock: hold it for less time (lock last, commit soon, no remote call inside the transaction) and spread a hot row (a counter per shard, an insert instead of an update, SKIP LOCKED): more instances or connections only queue for it",
		"for I/O: index what the queries scan, and give the DB memory for its working set",
		"size the pool to what the DB can serve only once its sessions no longer wait on each other",
	},
	dbLockWait: {
		"find the row the sessions queue on and the transaction holding it (pg_locks where granted is false, pg_stat_activity's wait_event Lock: transactionid or tuple, and its query)",
		"hold it for less time (lock last, commit soon, no remote call inside the transaction) and spread the hot row (a counter per shard, an insert instead of an update, SKIP LOCKED): more instances or connections only queue for it",
		"size the pool to what the DB can serve only once its sessions no longer queue on the row",
	},
	dbIOWait: {
		"find the queries that read from disk (pg_stat_statements by shared_blks_read, EXPLAIN (ANALYZE, BUFFERS)) and index what they scan or fetch less",
		"give the DB memory for its working set (shared_buffers, the OS's cache) or storage with more IOPS",
		"size the pool to what the disk can serve: more sessions only queue for the same reads",
	},
	dbCPUUnseen: {
		"read what the active sessions do (pg_stat_activity's wait_event_type and query, pg_locks where granted is false): Lock is contention for a row or table, no wait with a busy CPU is a heavy query",
		"scrape the DB's host CPU (preset node, role db) beside postgres_exporter so the next run tells a busy DB from one whose sessions wait on locks",
		"for a heavy query: its plan (EXPLAIN ANALYZE), an index, a cache; for a lock: hold it for less time and spread a hot row (more instances or connections only queue for it)",
		"size the pool to what the DB can serve: a bigger pool only adds sessions waiting inside the DB",
	},
}

// pgLocks is postgres_exporter's gauge of pg_locks rows by mode.
const pgLocks = "pg_locks_count"
