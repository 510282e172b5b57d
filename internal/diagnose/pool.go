package diagnose

import (
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/series"
)

// poolReading is a connection pool at one scrape.
type poolReading struct {
	sec                  int
	inUse, limit, queued float64
	queuedText           string
	queuedSource         string // the series key queued comes from
}

// pool is one connection pool's series, read the same way for HikariCP and
// Go's database/sql.
type pool struct {
	lib      string         // "hikaricp" or "go_sql"
	anchor   *series.Series // the series whose scrapes are read
	inUse    *series.Series // connections in use
	readings []poolReading
	ok       []bool // exhausted at reading i
	timeouts *series.Series
}

// poolExhaustion finds pools whose every connection was in use while
// requests waited for one, at several scrapes in a row.
func poolExhaustion(c *context) []Finding {
	var fs []Finding
	for _, p := range c.pools() {
		exhausted := func(i int) bool { return p.ok[i] }
		run, found := sustained(p.anchor.Points, exhausted)
		if !found {
			continue
		}
		last := lastHolding(p.anchor.Points, run.first, exhausted)
		fs = append(fs, c.poolFinding(p, run.first, last))
	}
	return fs
}

// pools reads every HikariCP and database/sql pool in the series.
func (c *context) pools() []pool {
	var out []pool
	for _, pending := range c.set.Find("hikaricp_connections_pending") {
		active, limit, idle := sibling(c.set, "hikaricp_connections_active", pending),
			sibling(c.set, "hikaricp_connections_max", pending), sibling(c.set, "hikaricp_connections_idle", pending)
		if active == nil {
			continue
		}
		p := pool{lib: "hikaricp", anchor: pending, inUse: active, timeouts: sibling(c.set, "hikaricp_connections_timeout_total", pending)}
		for _, pt := range pending.Points {
			r := poolReading{sec: pt.Sec, queued: pt.Value, queuedText: count(pt.Value) + " waiting", queuedSource: pending.Key()}
			r.inUse, _ = valueAt(active.Points, pt.Sec)
			full := false
			if limit != nil {
				lim, ok := valueAt(limit.Points, pt.Sec)
				r.limit, full = lim, ok && lim > 0 && r.inUse >= lim
			} else if idle != nil {
				free, ok := valueAt(idle.Points, pt.Sec)
				r.limit, full = r.inUse+free, ok && free == 0 && r.inUse > 0
			}
			p.readings, p.ok = append(p.readings, r), append(p.ok, full && pt.Value > 0)
		}
		out = append(out, p)
	}
	for _, inUse := range c.set.Find("go_sql_in_use_connections") {
		limit, waits := sibling(c.set, "go_sql_max_open_connections", inUse), sibling(c.set, "go_sql_wait_count_total", inUse)
		if limit == nil || waits == nil {
			continue
		}
		waitRate := perSecond(waits)
		var waiting []series.Point
		wd := sibling(c.set, "go_sql_wait_duration_seconds_total", inUse)
		if wd != nil {
			waiting = perSecond(wd) // seconds waited per second: the mean number waiting
		}
		p := pool{lib: "go_sql", anchor: inUse, inUse: inUse}
		for _, pt := range inUse.Points {
			r := poolReading{sec: pt.Sec, inUse: pt.Value}
			lim, limOK := valueAt(limit.Points, pt.Sec)
			w, wOK := valueAt(waitRate, pt.Sec)
			r.limit, r.queued, r.queuedText, r.queuedSource = lim, w, num(w)+" waits/s", waits.Key()
			if q, ok := valueAt(waiting, pt.Sec); ok && q > 0 {
				r.queued, r.queuedText, r.queuedSource = q, num(q)+" waiting", wd.Key()
			}
			p.readings, p.ok = append(p.readings, r), append(p.ok, limOK && wOK && lim > 0 && pt.Value >= lim && w > 0)
		}
		out = append(out, p)
	}
	return out
}

func (c *context) poolFinding(p pool, first, last int) Finding {
	worst := first
	for i := first; i <= last; i++ {
		if p.ok[i] && p.readings[i].queued > p.readings[worst].queued {
			worst = i
		}
	}
	w := p.readings[worst]
	from, to := p.readings[first].sec, p.readings[last].sec
	where := p.lib
	if d := describe(p.anchor); d != "" {
		where += ", " + d
	}
	f := Finding{
		Kind: KindPoolExhaustion, Severity: Critical, From: from, To: to,
		Title: "DB pool exhausted: " + count(w.inUse) + " of " + count(w.limit) + " connections in use, " + w.queuedText +
			" (" + where + ") from " + at(from),
		Evidence: []Evidence{
			{Source: p.readings[first].queuedSource, Sec: p.readings[first].sec, Value: p.readings[first].queued,
				Text: "first scrape with every connection in use and " + p.readings[first].queuedText},
			{Source: p.inUse.Key(), Sec: w.sec, Value: w.inUse, Text: count(w.inUse) + " of " + count(w.limit) + " connections in use"},
			{Source: w.queuedSource, Sec: w.sec, Value: w.queued, Text: "most waiting: " + w.queuedText},
		},
		Remedies: remediesFor(KindPoolExhaustion),
	}
	held := 0
	for i := first; i <= last; i++ {
		if p.ok[i] {
			held++
		}
	}
	f.Evidence = append(f.Evidence, Evidence{Source: p.anchor.Key(), Sec: to, Value: float64(held),
		Text: "exhausted at " + count(float64(held)) + " of " + count(float64(last-first+1)) + " scrapes from " + at(from) + " to " + at(to)})
	if p.timeouts != nil {
		for _, pt := range perSecond(p.timeouts) {
			if pt.Sec >= from && pt.Sec <= to+maxPointAge && pt.Value > 0 {
				f.Evidence = append(f.Evidence, Evidence{Source: p.timeouts.Key(), Sec: pt.Sec, Value: pt.Value,
					Text: "requests gave up waiting for a connection: " + num(pt.Value) + " pool timeouts/s"})
				break
			}
		}
	}
	if e, ok := c.clientFailures(from, to, sample.Timeout, sample.HTTP5xx); ok {
		f.Evidence = append(f.Evidence, e)
	}
	return f
}

// clientFailures is the evidence of failures of the given kinds the client
// saw between two seconds, if any.
func (c *context) clientFailures(from, to int, kinds ...sample.Kind) (Evidence, bool) {
	var n [sample.NumKinds]float64
	var total float64
	firstSec := -1
	for _, s := range c.secs {
		if s.sec < from || s.sec > to {
			continue
		}
		for _, k := range kinds {
			if f := float64(s.m.Failures[k]); f > 0 {
				n[k] += f
				total += f
				if firstSec < 0 {
					firstSec = s.sec
				}
			}
		}
	}
	if total == 0 {
		return Evidence{}, false
	}
	text := "the client saw "
	sep := ""
	for _, k := range kinds {
		if n[k] > 0 {
			text += sep + count(n[k]) + " " + k.String()
			sep = " and "
		}
	}
	return Evidence{Source: "http_req_failed", Sec: firstSec, Value: total,
		Text: text + " failures from " + at(firstSec) + " to " + at(to)}, true
}
