package diagnose

import (
	"math"

	"github.com/loadlens/loadlens/internal/series"
)

// What a full pool's active sessions wait on inside PostgreSQL, read from
// postgres_exporter's default series. pg_locks_count counts the pg_locks
// rows that have a database, granted or not: a session queued on a row
// another transaction holds waits on the holder's transactionid (no
// database, not counted) while the head of the queue holds the row's tuple
// lock (ExclusiveLock, counted), and each session in a write transaction
// holds a RowExclusiveLock on every table and index it writes. Measured
// (docs/findings.md): 20 sessions updating one row held 10 ms read a
// median of 1 exclusivelock and 40 rowexclusivelock of 21 active; cold
// random reads and a CPU-heavy join read 0 exclusivelock.
const (
	pgTupleLock    = "exclusivelock"    // a tuple lock (a session queued on a row), or an advisory or EXCLUSIVE table lock
	pgWriteLock    = "rowexclusivelock" // a write transaction's lock on a table or index it writes
	dbReadsPerSess = 20.0               // blocks read from outside shared_buffers a second per active session: cold random reads read 130
	dbDiskBusy     = 0.5                // a device of the DB's host busy half of each second or more (node_disk_io_time_seconds_total)
)

// dbWait names what the active sessions (a, act of them, median) waited
// on over from–to when the DB's CPU did not say it was busy (cpuIdle: it
// was seen idle): a row lock when a tuple lock was held at half the scrapes
// or more, I/O when they read from outside shared_buffers with the CPU idle
// or the DB host's disk busy; for MySQL, a row lock when an InnoDB row lock
// was waited for at half the scrapes or more; dbUnknown when none is shown.
func (c *context) dbWait(b *builder, d dbSessions, a ref, act float64, from, to int, cpuIdle bool) (dbSide, []any) {
	if d.engine == engineMySQL {
		if words, ok := c.rowLockWait(b, a, from, to); ok {
			return dbLockWait, words
		}
		return dbUnknown, nil
	}
	if words, ok := c.lockWait(b, a, act, from, to); ok {
		return dbLockWait, words
	}
	if words, ok := c.ioWait(b, a, act, from, to, cpuIdle); ok {
		return dbIOWait, words
	}
	return dbUnknown, nil
}

// lockWait states the row lock the sessions queued on, if a tuple lock was
// held at half of the pool's full scrapes or more.
func (c *context) lockWait(b *builder, a ref, act float64, from, to int) ([]any, bool) {
	tuple, write := c.pgLockMode(pgTupleLock), c.pgLockMode(pgWriteLock)
	if tuple == nil || !(aggregate(c.values(c.ofSeries(tuple)), StatMedian, from, to) >= 1) {
		return nil, false
	}
	t := b.add(c.fig(c.ofSeries(tuple), StatMedian, from, to, UnitCount, "tuple locks held (pg_locks_count, mode exclusivelock; median): the session at the head of a row's queue holds one"))
	b.evidence(t, "locks meanwhile (", name(titled(tuple)), "): ", t, " exclusive lock held at the median scrape: a row's tuple lock, which only a session queued for a row another transaction holds takes (the sessions behind it wait on the holder's transaction, which postgres_exporter does not count)")
	noun := "a lock"
	words := []any{": its sessions waited on "}
	if write != nil {
		w := b.add(c.fig(c.ofSeries(write), StatMedian, from, to, UnitCount, "row-exclusive locks held (pg_locks_count, mode rowexclusivelock; median): one per table and index each write transaction writes"))
		b.evidence(w, "row-exclusive locks (", name(titled(write)), "): ", w, " at the median scrape, for ", a,
			" sessions active: each session in a write transaction holds one per table and index it writes")
		if b.fig(w).Value >= act {
			noun = "a row lock"
			return append(words, noun, " (", a, " sessions active in write transactions holding ", w,
				" row-exclusive locks; ", t, " tuple lock held: a session queued on a locked row)"), true
		}
	}
	return append(words, noun, " (", a, " sessions active; ", t, " exclusive lock held: a session queued on a locked row, or an advisory or table lock)"), true
}

// ioWait states the reads the sessions waited on, if they read at least
// dbReadsPerSess blocks a second each from outside shared_buffers while
// the DB's CPU idled (cached reads would have kept it busy) or a disk of
// its host was busy.
func (c *context) ioWait(b *builder, a ref, act float64, from, to int, cpuIdle bool) ([]any, bool) {
	if len(c.set.Find("pg_stat_database_blks_read")) == 0 || act <= 0 {
		return nil, false
	}
	src, _ := c.total("pg_stat_database_blks_read")
	reads := aggregate(c.values(src), StatMedian, from, to)
	if math.IsNaN(reads) || reads < dbReadsPerSess*act {
		return nil, false
	}
	disk, busy := c.dbDisk(from, to)
	if !cpuIdle && busy < dbDiskBusy {
		return nil, false // with the CPU unseen, blocks read could have come from the OS's cache
	}
	r := b.add(c.fig(src, StatMedian, from, to, UnitNumber, "blocks read from outside shared_buffers a second, every database (median)"))
	b.evidence(r, "reads meanwhile (pg_stat_database_blks_read, every database): ", r, " blocks a second from outside shared_buffers (median), for ", a, " sessions active")
	words := []any{": its sessions waited on I/O (", a, " sessions active reading ", r, " blocks a second from outside shared_buffers"}
	if disk != nil && busy >= dbDiskBusy {
		d := b.add(c.fig(c.ofSeries(disk), StatMedian, from, to, UnitFraction, "the DB host's busiest disk, busy seconds a second (median)"))
		b.evidence(d, "the DB host's disk meanwhile (", name(titled(disk)), "): busy ", d, " of each second (median)")
		words = append(words, ", its disk busy ", d, " of the time")
	}
	return append(words, ")"), true
}

// dbDisk is the busiest disk of the DB's host over from–to (node_exporter's
// busy seconds a second, role db), and its median; nil when none is scraped.
func (c *context) dbDisk(from, to int) (*series.Series, float64) {
	var most *series.Series
	busy := math.Inf(-1)
	for _, s := range c.set.Find("node_disk_io_time_seconds_total", "role", "db") {
		if v := aggregate(c.values(c.ofSeries(s)), StatMedian, from, to); v > busy {
			most, busy = s, v
		}
	}
	return most, busy
}

// pgLockMode is postgres_exporter's count of locks of a mode, the first
// scraped.
func (c *context) pgLockMode(mode string) *series.Series {
	if s := c.set.Find(pgLocks, "mode", mode); len(s) > 0 {
		return s[0]
	}
	return nil
}
