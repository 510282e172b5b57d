package diagnose

import (
	"math"
	"strconv"

	"github.com/loadlens/loadlens/internal/series"
)

// Thresholds of a full pool's DB with headroom (trial A3's c1-over: a pool
// of 4, pg_sleep(0.02) a request at 300 req/s, the DB host's CPU 6 %, no
// lock, its disk 0.7 % busy: each query's own 20 ms held the connections).
const (
	dbDiskIdle = 0.1  // a disk busy under a tenth of each second: no session waited on it more than a tenth of its time
	dbReadTime = 0.01 // the most one read from outside shared_buffers takes (a disk's seek; the OS's cache serves in microseconds)
	dbIOShare  = 0.1  // reads that could keep under a tenth of the active sessions busy explain none of them
)

// loadFullFromStart reports whether the client's load (offered req/s, or
// VUs in a closed model) was at its rate from the run's first second: a
// resource full from that second, with no second before it, goes with it.
func (c *context) loadFullFromStart(from, to int) bool {
	src, first, last, ok := c.loadSpan(from, to)
	if !ok {
		return false
	}
	level := aggregate(c.values(src), StatMedian, from, last)
	at := aggregate(c.values(src), StatValue, first, first)
	return level > 0 && at >= fullLoadShare*level // no ramp: a ramp starts at a fraction of its level
}

// loadSpan is the client's load series, the run's first second, and the
// last second of from–to to judge it over: in the open model the last
// that offered, the drain after the schedule offering nothing.
func (c *context) loadSpan(from, to int) (string, int, int, bool) {
	if len(c.secs) == 0 || c.run == nil {
		return "", 0, 0, false
	}
	if c.open {
		return c.client(SrcOffered), c.secs[0].sec, lastOffered(c, from, to), true
	}
	return c.client(SrcVUs), c.secs[0].sec, to, true
}

// fullFromStartEvidence states in b that the DB host's CPU (used) was busy
// from the run's first second, as the load was at its rate.
func (c *context) fullFromStartEvidence(b *builder, used ref, from, to int) {
	src, first, last, ok := c.loadSpan(from, to)
	if !ok {
		return
	}
	unit, what := UnitReqPerSec, "offered"
	if !c.open {
		unit, what = UnitCount, "VUs"
	}
	at := b.add(c.fig(src, StatValue, first, first, unit, "the client's load at the run's first second ("+what+")"))
	level := b.add(c.fig(src, StatMedian, from, last, unit, "the client's load while the pool was full ("+what+", median of the seconds it offered)"))
	b.evidence(used, "the pool full and the DB host's CPU busy from the run's first second, as the load was (", at, " ", what, " at ",
		b.second(first, StatSecond, "the run's first second"), ", ", level, " while the pool was full): no second shows the host without this load, and the pool's sessions were active in the DB meanwhile: the queries used that CPU")
}

// headroom states in b the DB's headroom on every resource read, when its
// CPU idled (used), no session queued on a lock at any scrape, and its
// disk, or its reads from outside shared_buffers, could not have held the
// sessions: each query's own time held the connections, and the pool's
// size is the limit. PostgreSQL reads its exclusive locks; MySQL and
// MariaDB the InnoDB row locks waited for (trial A5: a pool of 3 running
// SELECT SLEEP(0.01) at 279 req/s read "a lock many requests wait on, or
// I/O" with no row lock waited for and the disk idle).
func (c *context) headroom(b *builder, d dbSessions, ss *sessions, act float64, used ref, cpu procCPU, from, to int) ([]any, bool) {
	if act <= 0 {
		return nil, false
	}
	noLock, ok := c.noLockQueued(b, d.engine, from, to)
	if !ok {
		return nil, false
	}
	io, disk, ok := c.noIOWait(b, act, from, to)
	if !ok {
		return nil, false
	}
	ss.room = "raise the pool's size (the DB had headroom: its CPU " + sig3(100*b.fig(used).Value) + "% " + cpu.what + ", no lock queued" + disk + ")"
	ss.engine = d.engine
	noLock()
	words := append(append([]any{": its connections were busy inside the DB ("}, ss.count...), ") while the DB had headroom (its CPU ", used, " ", cpu.what, ", no lock queued, ")
	words = append(append(words, io...), "): each query's own time held them: the pool's ", ss.in, " connections are the limit")
	return words, true
}

// noLockQueued reports whether no session queued on a lock at any scrape
// over from–to, by the engine's own count, and returns what states it in
// b; false when the count is not scraped or a lock was queued on.
func (c *context) noLockQueued(b *builder, engine string, from, to int) (func(), bool) {
	none := func(s *series.Series) bool { return aggregate(c.values(c.ofSeries(s)), StatMax, from, to) == 0 }
	switch engine {
	case enginePostgres:
		tuple, table := c.pgLockMode(pgTupleLock), c.pgLockMode("accessexclusivelock")
		if tuple == nil || !none(tuple) || (table != nil && !none(table)) {
			return nil, false
		}
		return func() {
			t := b.add(c.fig(c.ofSeries(tuple), StatMax, from, to, UnitCount, "exclusive locks held (pg_locks_count, mode exclusivelock; the most at a scrape)"))
			b.evidence(t, "locks meanwhile (", name(titled(tuple)), "): no exclusive or access-exclusive lock held at any scrape: no session queued on a row, an advisory or a table lock")
		}, true
	case engineMySQL:
		s := c.set.Find(myLockWaits)
		if len(s) == 0 || !none(s[0]) {
			return nil, false
		}
		return func() {
			w := b.add(c.fig(c.ofSeries(s[0]), StatMax, from, to, UnitCount, "InnoDB row locks being waited for (Innodb_row_lock_current_waits; the most at a scrape)"))
			b.evidence(w, "row locks meanwhile (", name(titled(s[0])), "): ", w, " waited for at any scrape: no thread queued on a row lock")
		}, true
	}
	return nil, false
}

// noIOWait states in b why the sessions did not wait on I/O: the DB
// host's busiest disk busy under dbDiskIdle of each second, or too few
// reads from outside shared_buffers to keep dbIOShare of them busy; false
// when neither is scraped or shown.
func (c *context) noIOWait(b *builder, act float64, from, to int) ([]any, string, bool) {
	if disk, busy := c.dbDisk(from, to); disk != nil && busy < dbDiskIdle {
		d := b.add(c.fig(c.ofSeries(disk), StatMedian, from, to, UnitFraction, "the DB host's busiest disk, busy seconds a second (median)"))
		b.evidence(d, "the DB host's disk meanwhile (", name(titled(disk)), "): busy ", d, " of each second (median): no session waited on it longer")
		return []any{"its disk ", d, " busy"}, ", its disk " + sig3(100*busy) + "% busy", true
	}
	if len(c.set.Find("pg_stat_database_blks_read")) == 0 {
		return nil, "", false
	}
	src, _ := c.total("pg_stat_database_blks_read")
	reads := aggregate(c.values(src), StatMedian, from, to)
	if math.IsNaN(reads) || reads*dbReadTime >= dbIOShare*act {
		return nil, "", false
	}
	r := b.add(c.fig(src, StatMedian, from, to, UnitNumber, "blocks read from outside shared_buffers a second, every database (median)"))
	b.evidence(r, "reads meanwhile (pg_stat_database_blks_read, every database): ", r, " blocks a second from outside shared_buffers (median): at 10 ms each at most, too few to hold the sessions")
	return []any{r, " blocks read a second from outside shared_buffers"}, ", " + sig3(reads) + " blocks read a second from disk", true
}

// headroomRemedies are a full pool's remedies when its DB had headroom:
// the pool's size first, with the figures that show the headroom and the
// time each request held a connection (Little's law), then that time.
func (c *context) headroomRemedies(b *builder, ss sessions, from, to int) []string {
	lead := ss.room
	x := aggregate(c.values(c.client(SrcRequests)), StatMean, from, min(to, c.whole-1))
	if inUse := b.fig(ss.in).Value; c.run != nil && x > 0 && inUse > 0 {
		lead += ": its " + sig3(inUse) + " connections, each held " + sig3(1000*inUse/x) + " ms a request (Little's law), serve at most " + sig3(x) +
			" req/s; size it to the rate you need × that time, within the DB's max_connections"
		hr := b.add(c.fig(c.client(SrcRequests), StatMean, from, min(to, c.whole-1), UnitReqPerSec, "throughput while the pool was full (mean)"))
		h := b.derive(StatRatio, UnitDuration, "the time each request held a connection, by Little's law", ss.in, hr)
		b.evidence(h, "each request held a connection ", h, " (Little's law: ", ss.in, " connections in use over ", hr, "): the pool serves at most its size over that time")
	}
	return []string{
		lead,
		"shorten the time each request holds a connection: the query's own time (" + queryTimeSource(ss.engine) + "; a sleep, a function that waits, a slow network to the DB) and any work the app does between acquiring the connection and releasing it",
		"re-run at the rate you need once the pool is larger: a bigger pool moves the queue into the DB once its CPU, locks or disk fill",
	}
}

// queryTimeSource names where an engine keeps its statements' mean time.
func queryTimeSource(engine string) string {
	if engine == engineMySQL {
		return "performance_schema's events_statements_summary_by_digest, AVG_TIMER_WAIT"
	}
	return "pg_stat_statements' mean_exec_time"
}

// sig3 is v with 3 significant digits, as a remedy's text states a figure.
func sig3(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }
