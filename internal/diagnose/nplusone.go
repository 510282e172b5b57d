package diagnose

import (
	"time"

	"github.com/loadlens/loadlens/internal/spans"
)

// Thresholds of the N+1 rule: one statement run many times per request,
// its calls together a large share of the endpoint's time. Ten calls per
// request is past what an endpoint's own queries (a page, its count, a
// lookup or two) add up to. A fifth of the time is where fetching the rows
// in one query changes the endpoint's latency; on loopback, where a round
// trip is cheapest, 20 lookups a request took 34–53 % of a real JVM's
// endpoint (Tomcat, JDBC on PostgreSQL, the Java agent: testdata/java),
// and an ORM's own work per row counts as the service's, not the calls'.
// A saturated service's requests wait for a thread or a connection, which
// is the service's time too: there the calls are still most of the
// database's time (Spring Data's N+1 at a load it could not serve: 10 % of
// the time, 89 % of the database's), so that counts when it is at least
// a twentieth of the time.
const (
	nPlusOneCalls   = 10   // calls of the statement per joined request, on average
	nPlusOneShare   = 0.2  // the repeated statements' share of the endpoint's mean duration ...
	nPlusOneDBShare = 0.5  // ... or their share of its database time ...
	nPlusOneFloor   = 0.05 // ... when their share of its duration is at least this
	nPlusOneNamed   = 3    // at most this many statements are named
	statementSource = "trace_statements.calls"
)

// KindNPlusOne: one statement called many times per request (N+1 queries).
const KindNPlusOne = "n-plus-one"

// nPlusOne finds endpoints whose requests run one statement many times,
// from the spans the target exported: "GET /x: 21 calls of select … from
// author where id = ? per request, 64 % of its time — N+1 queries".
func nPlusOne(c *context) []Finding {
	var fs []Finding
	for i := range c.traces {
		b := &c.traces[i]
		if b.Traces < tailMinJoined || b.All.Duration <= 0 {
			continue
		}
		var rep []spans.Statement
		var sum time.Duration
		for _, s := range b.Statements { // most total time first
			if s.Kind != spans.PartDB || s.Name == spans.OtherStatements || float64(s.Calls) < nPlusOneCalls*float64(b.Traces) ||
				len(rep) == nPlusOneNamed || named(rep, s.Name) {
				continue
			}
			rep = append(rep, s)
			sum += partOf(b.All.Parts, spans.Part{Kind: spans.PartDB, Name: s.Name})
		}
		share, db := float64(sum)/float64(b.All.Duration), dbTime(b)
		if len(rep) == 0 || share < nPlusOneShare && (share < nPlusOneFloor || float64(sum) < nPlusOneDBShare*float64(db)) {
			continue
		}
		fs = append(fs, c.nPlusOneFinding(b, rep, sum, db))
	}
	return fs
}

// dbTime is the mean time of an endpoint's requests in database calls.
func dbTime(b *spans.Breakdown) time.Duration {
	var d time.Duration
	for _, p := range b.All.Parts {
		if p.Kind == spans.PartDB {
			d += p.Time
		}
	}
	return d
}

// named reports whether a statement of that text is among ss already (one
// text of two database systems is one statement to the reader).
func named(ss []spans.Statement, text string) bool {
	for _, s := range ss {
		if s.Name == text {
			return true
		}
	}
	return false
}

func (c *context) nPlusOneFinding(b *spans.Breakdown, rep []spans.Statement, sum, db time.Duration) Finding {
	ep := c.endpointLabel(b.Endpoint)
	from, to := traceSeconds(b)
	bld := newBuilder(KindNPlusOne, Warning)
	mean := func(d time.Duration, what, src string) ref {
		return bld.add(Figure{Value: d.Seconds(), Unit: UnitDuration, What: what, Source: src, Stat: StatMean, From: from, To: to})
	}
	n := bld.add(Figure{Value: float64(b.Traces), Unit: UnitCount, What: "requests joined with spans", Source: traceSrc(ep, groupAll, ""),
		Stat: StatCount, From: from, To: to})
	title := []any{name(ep), ": "}
	var lines [][]any
	names := make([]string, len(rep))
	for j, s := range rep {
		names[j] = s.Name
		calls := bld.add(Figure{Value: float64(s.Calls), Unit: UnitCount, What: "calls of the statement",
			Source: labelled(statementSource, "endpoint", ep, "part", spans.PartDB, "name", s.Name), Stat: StatSum, From: from, To: to})
		per := bld.derive(StatRatio, UnitNumber, "calls of the statement per request", calls, n)
		if j > 0 {
			title = append(title, " and ")
		}
		title = append(title, per, " calls of ", name(statementLabel(s)))
		t := mean(partOf(b.All.Parts, spans.Part{Kind: spans.PartDB, Name: s.Name}), "mean time of a request in the statement",
			traceSrc(ep, groupAll, spans.PartDB, s.Name))
		lines = append(lines, []any{t, "span ", name(s.Span), ": ", calls, " calls in ", n, " requests, ", per, " per request, ", t, " of a request's time: ", name(s.Name)})
	}
	dur := mean(b.All.Duration, "mean duration of the requests joined with spans", traceSrc(ep, groupAll, ""))
	in := mean(sum, "mean time of a request in the statements named", traceSrc(ep, groupAll, spans.PartDB, names...))
	share := bld.derive(StatRatio, UnitFraction, "share of the requests' time in the statements named", in, dur)
	dbt := mean(db, "mean time of a request in database calls", traceSrc(ep, groupAll, spans.PartDB))
	dbShare := bld.derive(StatRatio, UnitFraction, "share of the requests' database time in the statements named", in, dbt)
	bld.title(append(title, " per request, ", share, " of its time and ", dbShare, " of its database time — ", name("N+1"), " queries")...)
	bld.evidence(share, "the ", n, " requests joined with spans took ", dur, " on average, ", in, " of it in these calls, of ", dbt, " in database calls")
	for _, l := range lines {
		bld.evidence(l[0].(ref), l[1:]...)
	}
	return bld.done(from, to)
}

// statementLabel names a statement in a title: its text in brief, or its
// span's name when the text was not recorded.
func statementLabel(s spans.Statement) string {
	if s.Name == s.Span {
		return s.Span
	}
	return spans.Brief(s.Name)
}
