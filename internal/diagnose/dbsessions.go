package diagnose

import (
	"github.com/loadlens/loadlens/internal/series"
)

// The DB engines whose exporters say what a pool's connections do inside
// the DB.
const (
	enginePostgres = "postgres" // postgres_exporter's pg_stat_activity_count by state
	engineMySQL    = "mysql"    // mysqld_exporter's SHOW GLOBAL STATUS threads (MySQL, MariaDB)
)

// mysqld_exporter's gauges of SHOW GLOBAL STATUS. threads_running counts
// the exporter's own thread, which runs SHOW GLOBAL STATUS as it is read:
// trial A's (stop 40) MariaDB read 1 running between the pool's queries
// and 4 connected for a pool of 3.
const (
	myRunning   = "mysql_global_status_threads_running"
	myConnected = "mysql_global_status_threads_connected"
	myLockWaits = "mysql_global_status_innodb_row_lock_current_waits" // InnoDB row locks being waited for
	myOwn       = 1.0                                                 // the exporter's own thread among threads_running
)

// pgOwn is postgres_exporter's own session among pg_stat_activity's
// active ones: it is active as it reads them (trial A40's idle DB read 1,
// its pool of 3 full read 4).
const pgOwn = 1.0

// dbSessions is what a DB's exporter says of its sessions over a full
// pool's seconds: those executing or waiting inside it, and beside them
// PostgreSQL's idle in a transaction or MySQL's connected threads.
type dbSessions struct {
	engine string
	active *series.Series // PostgreSQL's active sessions, MySQL's threads running
	idleTx *series.Series // PostgreSQL: sessions idle in a transaction; nil for MySQL
	conns  *series.Series // MySQL: threads connected; nil for PostgreSQL
	own    float64        // the exporter's own sessions counted in active
	noun   string         // what active counts, after its number: " sessions active"
}

// dbSessionsOf returns the first DB whose sessions are scraped:
// PostgreSQL's by state, else MySQL's threads.
func (c *context) dbSessionsOf() (dbSessions, bool) {
	if active, idleTx := c.pgState("active"), c.pgState("idle in transaction"); active != nil && idleTx != nil {
		return dbSessions{engine: enginePostgres, active: active, idleTx: idleTx, own: pgOwn, noun: " app sessions active"}, true
	}
	for _, running := range c.set.Find(myRunning) {
		if conns := sibling(c.set, myConnected, running); conns != nil {
			return dbSessions{engine: engineMySQL, active: running, conns: conns, own: myOwn, noun: " threads running"}, true
		}
	}
	return dbSessions{}, false
}

// busyInDB reports whether the sessions over from–to say that a pool's
// inUse connections (median) were busy inside the DB: active ones, the
// exporter's own aside, at least dbActiveShare of them, and (PostgreSQL)
// few idle in a transaction.
func (c *context) busyInDB(d dbSessions, inUse float64, from, to int) bool {
	act := aggregate(c.values(c.ofSeries(d.active)), StatMedian, from, to)
	if !(inUse > 0) || !(act-d.own >= dbActiveShare*inUse) {
		return false
	}
	if d.idleTx == nil {
		return true
	}
	idle := aggregate(c.values(c.ofSeries(d.idleTx)), StatMedian, from, to)
	return idle < dbIdleTxShare*inUse // NaN: unknown, not busy
}

// sessions is what a full pool's DB sessions say in a title: the active
// figure (the exporter's own left out), and the words that count them
// alone, in the DB ("in it") and beside the idle in a transaction.
type sessions struct {
	a, in       ref    // in: the pool's connections in use (median)
	room        string // the pool-size remedy's lead when the DB had headroom (poolheadroom.go)
	engine      string // the DB's engine (enginePostgres, engineMySQL)
	count, inIt []any
	sep         string // what follows inIt before the DB's CPU
	held        []any
}

// sessionEvidence states the sessions over from–to in b beside the pool's
// connections in use: "3 app sessions active, 0 idle in a transaction",
// postgres_exporter's own session left out. More active than the only
// pool's connections in use are not all the pool's: postgres_exporter
// sums pg_stat_activity by state, parallel workers and other clients too.
func (c *context) sessionEvidence(b *builder, d dbSessions, p pool, from, to int) sessions {
	u := func() ref {
		return b.add(c.fig(c.ofSeries(p.inUse), StatMedian, from, to, UnitCount, "the pool's connections in use (median)"))
	}
	if d.engine == engineMySQL {
		a := b.add(c.fig(c.ofSeries(d.active), StatMedian, from, to, UnitCount, "DB threads running (executing or waiting inside the DB, the exporter's own among them; median)"))
		n := b.add(c.fig(c.ofSeries(d.conns), StatMedian, from, to, UnitCount, "DB threads connected (median)"))
		in := u()
		b.evidence(a, "the DB's threads meanwhile (", name(titled(d.active)), ", medians): ", a, " running, the exporter's own among them, of ", n,
			" connected, for ", in, " connections in use: the connections were busy inside the DB, not held idle by the app")
		return sessions{a: a, in: in, count: []any{a, d.noun}, inIt: []any{a, d.noun, " in it"}, sep: ", ",
			held: []any{a, " threads running, the exporter's own among them, of ", n, " connected"}}
	}
	all := b.add(c.fig(c.ofSeries(d.active), StatMedian, from, to, UnitCount, "DB sessions active (executing or waiting inside the DB, postgres_exporter's own among them; median)"))
	own := b.add(Figure{Value: d.own, Unit: UnitCount, What: "postgres_exporter's own session, active while it scrapes", Stat: StatLimit, From: from, To: to})
	in := u()
	// more than one pool may share the DB: only the only pool's connections bound the app's sessions
	beyondPool := len(c.pools()) == 1 && b.fig(all).Value-d.own > b.fig(in).Value
	what := "DB sessions active for the app (median), postgres_exporter's own left out"
	if beyondPool {
		what = "DB sessions active (median), postgres_exporter's own left out"
	}
	a := b.derive(StatDiff, UnitCount, what, all, own)
	i := b.add(c.fig(c.ofSeries(d.idleTx), StatMedian, from, to, UnitCount, "DB sessions idle in a transaction (median)"))
	if beyondPool {
		x := b.derive(StatDiff, UnitCount, "DB sessions active beyond the pool's connections in use (medians): not the pool's", a, in)
		b.evidence(all, "the DB's sessions meanwhile (", name(titled(d.active)), ", medians): ", all, " active, ", a,
			" besides postgres_exporter's own scrape, ", x, " more than the pool's ", in, " connections in use: not the pool's (PostgreSQL's parallel workers, which pg_stat_activity lists as active in their leader's database, or other clients: postgres_exporter's count sums every session by state); ",
			i, " idle in a transaction: the connections were busy inside the DB, not held idle by the app")
		beyond := []any{x, " more than the pool's ", in, " connections in use: PostgreSQL's parallel workers or other clients"}
		return sessions{a: a, in: in, count: append([]any{a, " sessions active, "}, beyond...), inIt: append([]any{a, " sessions active in it, "}, beyond...), sep: "; ",
			held: append(append([]any{a, " sessions active, "}, beyond...), "; ", i, " idle in a transaction")}
	}
	b.evidence(all, "the DB's sessions meanwhile (", name(titled(d.active)), ", medians): ", all, " active, ", a,
		" of them the app's (postgres_exporter's own scrape left out), ", i,
		" idle in a transaction, for ", in, " connections in use: the connections were busy inside the DB, not held idle by the app")
	return sessions{a: a, in: in, count: []any{a, d.noun}, inIt: []any{a, d.noun, " in it"}, sep: ", ", held: []any{a, " app sessions active, ", i, " idle in a transaction"}}
}

// rowLockWait states the InnoDB row locks the threads waited for, if one
// was waited for at half of the pool's full scrapes or more.
func (c *context) rowLockWait(b *builder, a ref, from, to int) ([]any, bool) {
	var waits *series.Series
	if s := c.set.Find(myLockWaits); len(s) > 0 {
		waits = s[0]
	}
	if waits == nil || !(aggregate(c.values(c.ofSeries(waits)), StatMedian, from, to) >= 1) {
		return nil, false
	}
	w := b.add(c.fig(c.ofSeries(waits), StatMedian, from, to, UnitCount, "InnoDB row locks being waited for (Innodb_row_lock_current_waits; median)"))
	b.evidence(w, "row lock waits meanwhile (", name(titled(waits)), "): ", w, " InnoDB row locks waited for at the median scrape")
	return []any{": its threads waited on a row lock (", a, " threads running, ", w, " of them waiting for an InnoDB row lock)"}, true
}

// sideRemedies are a full pool's remedies for its DB's side, in the words
// of the DB's engine.
func sideRemedies(engine string, side dbSide) []string {
	if engine == engineMySQL {
		return mysqlSideRemedies[side]
	}
	return dbSideRemedies[side]
}

// mysqlSideRemedies are dbSideRemedies in MySQL's and MariaDB's words.
var mysqlSideRemedies = map[dbSide][]string{
	dbCPUBusy: {
		"make the queries the threads run cheaper: find the costliest (the slow query log, or performance_schema's events_statements_summary_by_digest by SUM_TIMER_WAIT), read their plans (EXPLAIN ANALYZE; MariaDB: ANALYZE), add the index, fetch less",
		"cache or precompute their results (an application cache, a summary table refreshed periodically)",
		"give the DB more CPU (a larger instance, read replicas for the reads): a bigger pool only adds threads competing for the same CPU",
	},
	dbCPUIdle: {
		"read what the running threads wait on (SHOW FULL PROCESSLIST's State, SHOW ENGINE INNODB STATUS): a lock wait is contention, reads from disk are I/O",
		"for a lock: hold it for less time (lock last, commit soon, no remote call inside the transaction) and spread a hot row (a counter per shard, an insert instead of an update, SKIP LOCKED): more instances or connections only queue for it",
		"for I/O: index what the queries scan, and give InnoDB memory for its working set (innodb_buffer_pool_size)",
		"size the pool to what the DB can serve only once its threads no longer wait on each other",
	},
	dbLockWait: {
		"find the row the threads queue on and the transaction holding it (MySQL 8: sys.innodb_lock_waits; MariaDB: information_schema.INNODB_LOCK_WAITS joined with INNODB_TRX)",
		"hold it for less time (lock last, commit soon, no remote call inside the transaction) and spread the hot row (a counter per shard, an insert instead of an update, SKIP LOCKED): more instances or connections only queue for it",
		"size the pool to what the DB can serve only once its threads no longer queue on the row",
	},
	dbCPUUnseen: {
		"read what the running threads do (SHOW FULL PROCESSLIST's State and Info; lock waits in sys.innodb_lock_waits, or information_schema.INNODB_LOCK_WAITS on MariaDB): a lock wait is contention for a row, a query running with none is a heavy or slow query",
		"scrape the DB's host CPU (preset node, role db) beside mysqld_exporter so the next run tells a busy DB from one whose threads wait on locks",
		"for a heavy query: its plan (EXPLAIN ANALYZE; MariaDB: ANALYZE), an index, a cache; for a lock: hold it for less time and spread a hot row (more instances or connections only queue for it)",
		"size the pool to what the DB can serve: a bigger pool only adds threads waiting inside the DB",
	},
}
