package diagnose

import (
	"slices"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
)

// pool is one connection pool's series. Each figure is named for what it
// is: a gauge of requests waiting (HikariCP's pending, PgBouncer's waiting
// clients, OpenTelemetry's pending requests) counts waiters; database/sql
// counts waits begun and the time they took, pgxpool the acquires that
// waited and every acquire's time, which are not a number of waiters.
type pool struct {
	lib       string         // "hikaricp", "go_sql", "pgbouncer", "pgxpool" or "OpenTelemetry db.client"
	anchor    *series.Series // the series whose scrapes the condition is judged at
	inUse     *series.Series // connections in use
	limit     *series.Series // the pool's maximum; nil when unknown
	idle      *series.Series // HikariCP's idle connections, when it exposes no maximum
	pending   *series.Series // a gauge of requests waiting for a connection
	waits     *series.Series // database/sql: waits begun; pgxpool: acquires that waited, as each ends (a counter)
	waited    *series.Series // seconds spent waiting, added as each wait ends (a counter)
	waitedPer float64        // the seconds of one unit of waited (1e-9 for nanoseconds); 0 for seconds
	acquires  bool           // waited counts every acquire's time, not only waits': no wait unless material
	hidden    []string       // labels of the anchor naming its series, not its pool (OpenTelemetry's state)
	timeouts  *series.Series // requests that gave up waiting (a counter)
	full      func(c *context, sec int, v float64) bool
}

// poolExhaustion finds pools whose every connection was in use, at several
// scrapes in a row, while requests waited for one, and the pool limited the
// throughput or made a material part of the latency (poollimit.go). It
// dates the episode from the first scrape at which the pool was full.
func poolExhaustion(c *context) []Finding {
	var fs []Finding
	for _, p := range c.pools() {
		pts := p.anchor.Points
		full := func(i int) bool { return p.full(c, pts[i].Sec, pts[i].Value) }
		for _, run := range sustainedRuns(pts, full) {
			from, to := pts[run.first].Sec, pts[lastHolding(pts, run.first, full)].Sec
			// an acquire time that counts every acquire shows waits when material only: idle connections take microseconds
			if l := c.poolLoadOver(p, from, to); (c.waited(p, from, to) || p.acquires && l.waitMaterial()) && l.limited() {
				fs = append(fs, c.poolFinding(p, from, to, l))
				break
			}
		}
	}
	return fs
}

// waited reports whether requests waited for a connection between two
// seconds: a time that counts every acquire is no such evidence.
func (c *context) waited(p pool, from, to int) bool {
	var srcs []string
	for _, s := range []*series.Series{p.pending, p.waits} {
		if s != nil {
			srcs = append(srcs, c.ofSeries(s))
		}
	}
	if p.waited != nil && !p.acquires {
		srcs = append(srcs, c.waitedSource(p))
	}
	for _, src := range srcs {
		if v := aggregate(c.values(src), StatMax, from, to); v > 0 {
			return true
		}
	}
	return false
}

// pools reads every HikariCP, database/sql, PgBouncer, pgxpool and
// OpenTelemetry db.client pool in the series.
func (c *context) pools() []pool {
	var out []pool
	for _, active := range c.set.Find("hikaricp_connections_active") {
		p := pool{lib: "hikaricp", anchor: active, inUse: active, limit: sibling(c.set, "hikaricp_connections_max", active),
			idle: sibling(c.set, "hikaricp_connections_idle", active), pending: sibling(c.set, "hikaricp_connections_pending", active),
			timeouts: sibling(c.set, "hikaricp_connections_timeout_total", active)}
		if p.pending == nil || (p.limit == nil && p.idle == nil) {
			continue
		}
		if p.limit != nil {
			p.full = atLimit(p.limit)
		} else {
			idle := p.idle
			p.full = func(_ *context, sec int, v float64) bool {
				free, ok := valueAt(idle.Points, sec)
				return ok && free == 0 && v > 0
			}
		}
		out = append(out, p)
	}
	for _, inUse := range c.set.Find("go_sql_in_use_connections") {
		p := pool{lib: "go_sql", anchor: inUse, inUse: inUse, limit: sibling(c.set, "go_sql_max_open_connections", inUse),
			waits: sibling(c.set, "go_sql_wait_count_total", inUse), waited: sibling(c.set, "go_sql_wait_duration_seconds_total", inUse)}
		if p.limit == nil || (p.waits == nil && p.waited == nil) {
			continue
		}
		p.full = atLimit(p.limit) // 0 is database/sql's "unlimited"
		out = append(out, p)
	}
	for _, waiting := range c.set.Find("pgbouncer_pools_client_waiting_connections") {
		active := sibling(c.set, "pgbouncer_pools_server_active_connections", waiting)
		if active == nil {
			continue
		}
		// PgBouncer queues a client only when every server connection of its pool is busy.
		p := pool{lib: "pgbouncer", anchor: waiting, inUse: active, pending: waiting, limit: c.pgbouncerPoolSize(waiting)}
		p.full = func(_ *context, _ int, v float64) bool { return v > 0 }
		out = append(out, p)
	}
	return append(append(out, c.pgxPools()...), c.otelPools()...)
}

// pgbouncerPoolSize finds the pool_size of a PgBouncer pool's database:
// the exporter labels it name= where the pools have database=.
func (c *context) pgbouncerPoolSize(pool *series.Series) *series.Series {
	db := pool.Label("database")
	for _, s := range c.set.Find("pgbouncer_databases_pool_size", "name", db) {
		if sameLabels(s.Labels, pool.Labels, []string{"name", "database", "user", "force_user", "pool_mode", "host", "port"}) {
			return s
		}
	}
	return nil
}

// pointAtOrBefore returns the second of the latest point at or before sec
// that valueAt would read, and false for none.
func pointAtOrBefore(points []series.Point, sec int) (int, bool) {
	for i := len(points) - 1; i >= 0; i-- {
		if points[i].Sec <= sec {
			return points[i].Sec, sec-points[i].Sec <= maxPointAge
		}
	}
	return 0, false
}

func (c *context) poolFinding(p pool, from, to int, l poolLoad) Finding {
	b := newBuilder(KindPoolExhaustion, Critical)
	where := p.lib
	if d := describe(p.anchor, p.hidden...); d != "" {
		where += ", " + d
	}
	inUseSrc := c.ofSeries(p.inUse)
	onset := b.second(from, StatOnset, "the first scrape at which the pool was full")
	atOnset := b.add(c.fig(inUseSrc, StatValue, from, from, UnitCount, "connections in use at the first full scrape"))
	maxIn := b.add(c.fig(inUseSrc, StatMax, from, to, UnitCount, "the most connections in use"))
	minIn := b.add(c.fig(inUseSrc, StatMin, from, to, UnitCount, "the fewest connections in use"))
	scrapes := b.add(c.fig(inUseSrc, StatCount, from, to, UnitCount, "scrapes of the pool"))
	var limit ref = -1
	if p.limit != nil {
		if sec, ok := pointAtOrBefore(p.limit.Points, from); ok {
			limit = b.add(c.fig(c.ofSeries(p.limit), StatValue, sec, sec, UnitCount, "the pool's maximum connections"))
		}
	}
	inUse := []any{atOnset}
	if limit >= 0 {
		inUse = append(inUse, " of ", limit)
	}
	title := append([]any{"DB pool exhausted: "}, inUse...)
	title = append(title, " connections in use from ", onset)

	b.evidence(atOnset, append(append([]any{"first full scrape: "}, inUse...), " connections in use at ", onset)...)
	title = append(title, ", ")
	title = append(title, c.poolWaiting(b, p, from, to)...)
	title = append(title, " (", name(where), ")")
	b.title(title...)

	span := []any{scrapes, " scrapes from ", onset, " to ", b.second(to, StatSecond, "the last scrape at which the pool was full")}
	if b.fig(minIn).Value == b.fig(maxIn).Value {
		b.evidence(scrapes, append(span, ": ", maxIn, " connections in use at each")...)
	} else {
		b.evidence(scrapes, append(span, ": between ", minIn, " and ", maxIn, " connections in use")...)
	}
	c.poolLoadEvidence(b, l, from)
	if p.timeouts != nil {
		src := c.ofSeries(p.timeouts)
		for _, pt := range c.values(src) {
			if pt.Sec >= from && pt.Sec <= to+maxPointAge && pt.Value > 0 {
				t := b.add(c.fig(src, StatValue, pt.Sec, pt.Sec, UnitNumber, "requests that gave up waiting for a connection, per second"))
				b.evidence(t, "requests gave up waiting for a connection: ", t, " pool timeouts a second at ", b.second(pt.Sec, StatSecond, "the first second with pool timeouts"))
				break
			}
		}
	}
	c.clientFailures(b, from, to, sample.Timeout, sample.HTTP5xx)
	if side, words, remedies := c.dbActivity(b, p, from, to); side != dbUnknown {
		b.title(append(title, words...)...)
		b.f.Remedies = slices.Clone(remedies)
	}
	return b.done(from, to)
}

// poolWaiting states in b how requests waited for a full pool's
// connections, each figure as what it counts, and returns the title's words.
func (c *context) poolWaiting(b *builder, p pool, from, to int) []any {
	var waiting []any
	if p.pending != nil {
		src := c.ofSeries(p.pending)
		most := b.add(c.fig(src, StatMax, from, to, UnitCount, "the most requests waiting for a connection (a gauge of waiters)"))
		noun := " requests waiting for a connection"
		if p.lib == "pgbouncer" {
			noun = " clients waiting for a server connection"
		}
		b.evidence(most, "at most ", most, noun, " at one scrape")
		return []any{"up to ", most, noun}
	}
	if p.waits != nil {
		what, said := "the most waits for a connection begun in a second", " waits for a connection began in a second"
		if p.lib == "pgxpool" { // EmptyAcquireCount counts an acquire that waited once it has its connection
			what, said = "the most acquires that waited for a connection, ended in a second", " acquires that waited for a connection ended in a second"
		}
		most := b.add(c.fig(c.ofSeries(p.waits), StatMax, from, to, UnitNumber, what))
		waiting = []any{"up to ", most, " waits for a connection a second"}
		b.evidence(most, "at most ", most, said, " (a count of waits, not of waiters)")
	}
	if p.waited != nil {
		what, said, why := "the most seconds spent waiting for a connection per second", " s spent waiting for a connection",
			" per second of the run (wait time, added as each wait ends; not a number of waiters)"
		if p.acquires {
			what, said, why = "the most seconds spent acquiring connections per second", " s spent acquiring connections",
				" per second of the run (every acquire's time, an idle connection's microseconds too, added as each ends; not a number of waiters)"
		}
		most := b.add(c.fig(c.waitedSource(p), StatMax, from, to, UnitNumber, what))
		if waiting == nil {
			waiting = []any{"up to ", most, said, " a second"}
		}
		b.evidence(most, "at most ", most, said, why)
	}
	return waiting
}

// clientFailures adds the evidence of the failures of the given kinds the
// client saw between two seconds, if any.
func (c *context) clientFailures(b *builder, from, to int, kinds ...sample.Kind) {
	parts := []any{"the client saw "}
	var main ref = -1
	for _, k := range kinds {
		f := c.fig(c.client(SrcFailed, "kind", k.String()), StatSum, from, to, UnitCount, k.String()+" failures the client saw")
		if !(f.Value > 0) { // none, or no client view
			continue
		}
		r := b.add(f)
		if main >= 0 {
			parts = append(parts, " and ")
		} else {
			main = r
		}
		parts = append(parts, r, " ", name(k.String()))
	}
	if main < 0 {
		return
	}
	parts = append(parts, " failures from ", b.second(from, StatSecond, "the start of the episode"), " to ", b.second(to, StatSecond, "the end of the episode"))
	b.evidence(main, parts...)
}
